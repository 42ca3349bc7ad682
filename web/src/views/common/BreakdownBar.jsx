import { segments } from './breakdown.js';
import { formatDuration, formatPercent } from '../../model/format.js';

// One stacked bar of a stats object; `scale` is the total that fills the whole width
// (the largest row's total, so bars compare across rows).
export function BreakdownBar({ stats, scale }) {
  const segs = segments(stats);
  const total = stats.total || 1;
  const width = scale ? Math.max(0.5, (100 * total) / scale) : 100;
  const title = segs.map((s) => `${s.label}: ${formatDuration(s.value)} (${formatPercent(s.value, total)})`).join('\n');
  return (
    <div class="gt-bar" title={title} style={{ width: `${width}%` }}>
      {segs.map((s) => (
        <span key={s.key} data-part={s.key} style={{ width: `${(100 * s.value) / total}%`, background: s.color }} />
      ))}
    </div>
  );
}

export function BreakdownLegend({ statsList }) {
  const seen = new Map();
  for (const stats of statsList) for (const s of segments(stats)) if (!seen.has(s.key)) seen.set(s.key, s);
  return (
    <div class="gt-legend">
      {[...seen.values()].map((s) => (
        <span key={s.key}><i style={{ background: s.color }} />{s.label}</span>
      ))}
    </div>
  );
}
