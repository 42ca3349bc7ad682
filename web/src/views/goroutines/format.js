// Formatting beyond model/format.js that the analysis views share.
import { href } from '../../model/router.js';

export { formatCount, formatDuration } from '../../model/format.js';

export function formatPercent(part, whole) {
  if (!whole) return '0%';
  return `${((100 * part) / whole).toFixed(1)}%`;
}

/** A link to the timeline showing [t0, t1] (trace times in ns) with a margin around
 *  it; `extra` adds to the query (g: a goroutine to select, task, group). */
export function timelineHref(t0, t1, extra = {}) {
  const span = Math.max(1, t1 - t0);
  const pad = Math.max(1, Math.round(span * 0.05));
  return href('/timeline', { t0: Math.round(t0 - pad), t1: Math.round(t1 + pad), ...extra });
}
