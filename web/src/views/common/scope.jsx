// Of a trace opened in parts, the goroutine, task and region views show the whole trace
// (its index summarized all of it as it read it) once it is read, or the part open
// (`?scope=part` in the address, and until the whole trace is read). A trace opened
// whole has one scope, its own ('open').
import { href } from '../../model/router.js';
import { generationAt } from '../../model/parts.js';
import { formatDuration, formatTime } from '../../model/format.js';
import { WHOLE_AT_MOST } from '../../model/parts.js';

/** Of a view that shows the part of a trace opened in parts (its answers need every event
 *  held): says so, and offers to open the trace whole where it is small enough. */
export function PartOnlyNote({ info, route, what, openWhole }) {
  if (!info?.parts) return null;
  const canWhole = openWhole && info.bytes <= WHOLE_AT_MOST;
  return (
    <ScopeNote info={info} route={route} scope="open" what={what} summaries={false}
      unavailable={<>The whole trace's need all its events held, which this tab does not.{canWhole && (
        <>{' '}<button type="button" class="link-button" data-testid="scope-open-whole" onClick={openWhole}>Open it whole</button></>
      )}</>} />
  );
}

// `summaries`: whether the view's whole-trace answers are the summaries (not the MMU's).
export function scopeOf(info, query, { summaries = true } = {}) {
  const parts = info?.parts;
  if (!parts || query?.scope === 'part' || (summaries && parts.summaryError)) return 'open';
  return parts.complete ? 'whole' : 'open';
}

// The query that keeps a chosen scope on the links between these views.
export const scopeQuery = (query) => (query?.scope === 'part' ? { scope: 'part' } : {});

const generationsText = ({ first, last }) => (first === last ? `generation ${first + 1}` : `generations ${first + 1}–${last + 1}`);

/** Says which scope a view shows, with a link to the other (`summaries` as scopeOf's;
 *  `unavailable`: why the view has no whole-trace answer, if it has none). */
export function ScopeNote({ info, route, scope, what, summaries = true, unavailable = null }) {
  const parts = info?.parts;
  if (!parts) return null;
  const n = parts.generations.length;
  // Until the index has read the whole trace, its generations are those read so far.
  const of = `of ${n}${parts.complete ? '' : ' read so far'}`;
  const to = (scope) => href(route.path, { ...route.query, scope });
  return (
    <p class="gt-scope" data-testid="scope-note" data-scope={scope}>
      {unavailable ? (
        <>This part's {what} ({generationsText(parts)} {of}). {unavailable}</>
      ) : summaries && parts.summaryError ? (
        <>This part's {what} ({generationsText(parts)} {of}). The whole trace's are not kept in this tab: {parts.summaryError}.</>
      ) : scope === 'whole' ? (
        <>
          The whole trace's {what}, all {n} generations.{' '}
          <a href={to('part')} data-testid="scope-part">Only this part's</a>
        </>
      ) : parts.complete ? (
        <>
          This part's {what} ({generationsText(parts)} of {n}).{' '}
          <a href={to(undefined)} data-testid="scope-whole">The whole trace's</a>
        </>
      ) : (
        <>This part's {what} ({generationsText(parts)} {of}): the whole trace's once the rest is read.</>
      )}
    </p>
  );
}

/**
 * Of a trace opened in parts: what a view names lies outside the part open, between
 * times t0 and t1 (ns); offers the part that begins where it does (and, with
 * `onDismiss`, to stay in this one).
 */
export function OutsidePart({ info, openPart, t0, t1, what, onDismiss }) {
  const parts = info?.parts;
  if (!parts) return null;
  const gens = parts.generations;
  const k = generationAt(gens, t0);
  const origin = gens[0].start;
  // While the rest is read (a link followed, a reload), the generation that holds t0 may
  // not be known yet: the offer waits for it rather than name the last one read.
  const readTo = gens[gens.length - 1].end;
  const unread = !parts.complete && t0 > readTo;
  return (
    <p class="gt-scope" data-testid="outside-part">
      {what} ({formatTime(t0 - origin)} – {formatTime(t1 - origin)}) is outside the part open (
      {formatDuration(gens[parts.first].start - origin)} – {formatDuration(gens[parts.last].end - origin)}).{' '}
      {unread && (
        <span data-testid="outside-part-unread">
          The trace is read up to {formatDuration(readTo - origin)} so far: the part that holds it can be opened once it is read.
        </span>
      )}
      {openPart && !unread && (
        <button type="button" data-testid="open-outside-part" onClick={() => openPart(k, null)}>
          Open the part from generation {k + 1}
        </button>
      )}{' '}
      {onDismiss && (
        <button type="button" data-testid="dismiss-outside-part" onClick={onDismiss}>
          Stay in this part
        </button>
      )}
    </p>
  );
}
