import { formatCount, formatDuration } from '../../model/format.js';
import { diffColor, diffLayout, diffTree } from './diffFlame.js';

const ROW = 16;

// A differential flame graph of one profile (root at the top).
export function DiffFlame({ stacks, cpu, testid }) {
  const value = cpu ? (v) => v.count : (v) => v.ns;
  const rects = diffLayout(diffTree(stacks, value));
  const depth = rects.reduce((m, r) => Math.max(m, r.depth), 0) + 1;
  const fmt = cpu ? formatCount : formatDuration;
  return (
    <div class="gt-diff-flame" data-testid={testid} style={{ height: `${depth * ROW}px` }}>
      {rects.map((r, i) => (
        <div
          key={i}
          class="frame"
          data-before={r.before}
          data-after={r.after}
          title={`${r.name}\n${fmt(r.before)} → ${fmt(r.after)} (${r.after >= r.before ? '+' : '−'}${fmt(Math.abs(r.after - r.before))})`}
          style={{ left: `${100 * r.x}%`, width: `${100 * r.width}%`, top: `${r.depth * ROW}px`, background: diffColor(r.before, r.after) }}
        >{r.width > 0.04 ? r.name : ''}</div>
      ))}
    </div>
  );
}
