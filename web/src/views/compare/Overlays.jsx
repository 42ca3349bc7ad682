import { formatCount, formatDuration } from '../../model/format.js';
import { bucketOfMin, bucketUpper } from '../tasks/buckets.js';

// Two sides drawn over each other: the baseline as an outline, this trace filled.

/** Duration histograms of a task or region type, on the buckets either side has. */
export function HistogramOverlay({ before, after, width = 260, height = 40 }) {
  const a = new Map(before.buckets.map((b) => [bucketOfMin(b.min), b]));
  const b = new Map(after.buckets.map((x) => [bucketOfMin(x.min), x]));
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x - y);
  if (!keys.length) return <span class="gt-hist-empty">no complete instances</span>;
  const lo = keys[0], n = keys[keys.length - 1] - lo + 1;
  const max = Math.max(1, ...keys.map((k) => Math.max(a.get(k)?.count ?? 0, b.get(k)?.count ?? 0)));
  const bw = width / Math.max(n, 8);
  return (
    <svg class="gt-overlay" width={width} height={height} data-testid="histogram-overlay" role="img" aria-label="durations, baseline and this trace">
      {keys.map((k) => {
        const x = (k - lo) * bw, ca = a.get(k)?.count ?? 0, cb = b.get(k)?.count ?? 0;
        const min = (a.get(k) ?? b.get(k)).min;
        const title = `${formatDuration(min)} – ${formatDuration(bucketUpper(min))}: ${formatCount(ca)} → ${formatCount(cb)}`;
        return (
          <g key={k}>
            <title>{title}</title>
            {cb > 0 && <rect class="after" x={x} y={height - (cb / max) * height} width={Math.max(1, bw - 1)} height={(cb / max) * height} />}
            {ca > 0 && <rect class="before" x={x + 0.5} y={height - (ca / max) * height + 0.5} width={Math.max(1, bw - 2)} height={Math.max(0, (ca / max) * height - 1)} />}
          </g>
        );
      })}
    </svg>
  );
}

/** MMU against window length (log scale), both sides. */
export function MmuOverlay({ before, after, width = 360, height = 140 }) {
  const windows = [...new Set([...before.map((p) => p[0]), ...after.map((p) => p[0])])].sort((x, y) => x - y);
  if (windows.length < 2) return null;
  const pad = 28;
  const lx = (w) => pad + ((Math.log10(w) - Math.log10(windows[0])) / (Math.log10(windows[windows.length - 1]) - Math.log10(windows[0]))) * (width - pad - 8);
  const ly = (u) => 6 + (1 - u) * (height - 28);
  const line = (pts) => pts.map(([w, u]) => `${lx(w).toFixed(1)},${ly(u).toFixed(1)}`).join(' ');
  return (
    <svg class="gt-overlay gt-mmu-overlay" width={width} height={height} data-testid="mmu-overlay" role="img" aria-label="MMU by window, baseline and this trace">
      {[0, 0.5, 1].map((u) => <g key={u}><line class="grid" x1={pad} x2={width - 8} y1={ly(u)} y2={ly(u)} /><text x={2} y={ly(u) + 4}>{u * 100}%</text></g>)}
      {/* The last tick's label ends at its tick, inside the chart (centred, it was cut). */}
      {windows.map((w, i) => (
        <text key={w} class="tick" x={lx(w)} y={height - 6} text-anchor={i === windows.length - 1 ? 'end' : 'middle'}>{formatDuration(w)}</text>
      ))}
      <polyline class="before" points={line(before)} />
      <polyline class="after" points={line(after)} />
    </svg>
  );
}
