// Number formatting shared by the analysis views: durations as Go prints them, with
// three significant digits, so a figure reads the same here as in `gotrace` text.

const UNITS = [
  [3600e9, 'h'], [60e9, 'm'], [1e9, 's'], [1e6, 'ms'], [1e3, 'µs'], [1, 'ns'],
];

export function formatDuration(ns) {
  if (ns == null || !Number.isFinite(ns)) return '';
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  const v = Math.abs(ns);
  if (v >= 60e9) {
    const m = Math.floor(v / 60e9);
    return `${sign}${m}m${+((v - m * 60e9) / 1e9).toFixed(1)}s`;
  }
  for (const [scale, unit] of UNITS) {
    if (v >= scale || unit === 'ns') {
      const x = v / scale;
      const digits = x >= 100 ? 1 : x >= 10 ? 2 : 3;
      return `${sign}${unit === 'ns' ? Math.round(x) : +x.toFixed(digits)}${unit}`;
    }
  }
  return '';
}

export function formatPercent(part, whole) {
  if (!whole) return '0%';
  return `${((100 * part) / whole).toFixed(1)}%`;
}

export function formatCount(n) {
  return n == null ? '' : n.toLocaleString('en-US');
}

/** A link to the timeline showing [t0, t1] (trace times in ns), with a margin around it. */
export function timelineHref(t0, t1, extra = '') {
  const span = Math.max(1, t1 - t0);
  const pad = Math.round(span * 0.05);
  return `#/timeline?t0=${Math.round(t0 - pad)}&t1=${Math.round(t1 + pad)}${extra}`;
}
