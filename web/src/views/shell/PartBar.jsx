// A trace too large to hold whole is shown a part at a time (a run of its generations):
// this bar says which part every view shows, draws every generation of the trace on its
// time axis (the part open marked), and opens another part: the one before or after, or
// the one that begins at a generation clicked.
import { formatCount, formatDuration } from '../../model/format.js';
import { WHOLE_AT_MOST } from '../../model/parts.js';

export function PartBar({ parts, eventCount, bytes, onOpenPart, onOpenWhole, busy }) {
  const { generations: gens, first, last, stats, complete } = parts;
  const bytesRead = gens.reduce((n, g) => n + g.bytes, 0);
  const t0 = gens[0].start;
  const span = Math.max(1, gens[gens.length - 1].end - t0);
  const at = (t) => `${(((t - t0) / span) * 100).toFixed(3)}%`;
  const width = (a, b) => `${Math.max(0.15, ((b - a) / span) * 100).toFixed(3)}%`;
  const maxEvents = Math.max(...gens.map((g) => g.events));
  // The part that begins at generation `from`, or (from null) the one that ends at `to`:
  // the worker chooses its generations from all it has read.
  const open = (from, to = null) => !busy && onOpenPart(from, to);
  // The generation under the pointer: the one whose span holds its time, or the next.
  const generationAt = (e) => {
    const r = e.currentTarget.getBoundingClientRect();
    const t = t0 + ((e.clientX - r.left) / Math.max(1, r.width)) * span;
    const k = gens.findIndex((g) => g.end >= t);
    return k < 0 ? gens.length - 1 : k;
  };
  return (
    <div class="part-bar" data-testid="part-bar">
      <button type="button" disabled={busy || first === 0} onClick={() => open(null, first - 1)}
        title="Open the part before this one">
        ◀ Earlier
      </button>
      <div class="part-text" data-testid="part-text">
        Showing {formatDuration(gens[first].start - t0)} – {formatDuration(gens[last].end - t0)} of{' '}
        {formatDuration(span)}: {first === last ? `generation ${first + 1}` : `generations ${first + 1}–${last + 1}`} of {gens.length}, {formatCount(eventCount)} of{' '}
        {formatCount(stats.events)} events{complete ? '' : ' read so far'}. The trace is too large to hold whole: the
        timeline, goroutine, task, region, profile and MMU views show all of it once it is read (the timeline this part
        in full detail), the others this part.
        {onOpenWhole && bytes <= WHOLE_AT_MOST && (
          <>
            {' '}
            <button type="button" class="link-button" data-testid="open-whole" disabled={busy} onClick={onOpenWhole}
              title="Every view then shows all of the trace in full (critical paths and SQL too), in more time and memory">
              Open it whole
            </button>
          </>
        )}
        {!complete && (
          <span class="muted" data-testid="part-reading">
            {' '}
            Reading the rest: {Math.min(99, Math.floor((100 * bytesRead) / Math.max(1, bytes)))}%.
          </span>
        )}
      </div>
      <div
        class={`part-strip${busy ? ' busy' : ''}`}
        data-testid="part-strip"
        title="The trace's generations: click one to open the part that begins there"
        onClick={(e) => open(generationAt(e))}
        onMouseMove={(e) => {
          const k = generationAt(e);
          const g = gens[k];
          e.currentTarget.title = `Generation ${k + 1}: ${formatDuration(g.start - t0)} – ${formatDuration(g.end - t0)}, ${formatCount(g.events)} events. Click to open the part that begins there.`;
        }}
      >
        {gens.map((g, k) => (
          <div
            key={k}
            class={`part-gen${k >= first && k <= last ? ' open' : ''}`}
            style={{ left: at(g.start), width: width(g.start, g.end), height: `${20 + (80 * g.events) / maxEvents}%` }}
          />
        ))}
      </div>
      <button type="button" disabled={busy || last === gens.length - 1} onClick={() => open(last + 1)}
        title="Open the part after this one">
        Later ▶
      </button>
    </div>
  );
}
