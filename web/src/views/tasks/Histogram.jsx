import { formatCount, formatDuration } from '../../model/format.js';
import { bucketOfMin, bucketUpper } from './buckets.js';

// A duration histogram whose bars can be clicked (one call of onPick with the bucket).
export function Histogram({ histogram, selected, onPick, width = 240, height = 36 }) {
  const buckets = histogram.buckets;
  if (!buckets.length) return <span class="gt-hist-empty">no complete instances</span>;
  const lo = bucketOfMin(buckets[0].min);
  const hi = bucketOfMin(buckets[buckets.length - 1].min);
  const n = hi - lo + 1;
  const max = Math.max(...buckets.map((b) => b.count));
  const bw = width / Math.max(n, 8);
  return (
    <div class="gt-hist" style={{ width: `${width}px`, height: `${height}px` }} data-testid="histogram">
      {buckets.map((b) => {
        const k = bucketOfMin(b.min);
        const h = Math.max(1, (b.count / max) * height);
        return (
          <button
            type="button"
            key={k}
            class={selected === b.min ? 'sel' : ''}
            data-min={b.min}
            data-count={b.count}
            title={`${formatDuration(b.min)} – ${formatDuration(bucketUpper(b.min))}: ${formatCount(b.count)}`}
            style={{ left: `${(k - lo) * bw}px`, width: `${Math.max(1, bw - 1)}px`, height: `${h}px` }}
            onClick={(e) => { e.stopPropagation(); onPick?.(b); }}
          />
        );
      })}
    </div>
  );
}
