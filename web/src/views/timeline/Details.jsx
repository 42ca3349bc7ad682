// The details panel of a selected slice. Trace text is rendered as text only.
import { formatDuration } from '../../model/format.js';
import { href } from '../../model/router.js';
import { formatSel } from './view.js';
import { PanelHead } from '../shell/PanelHead.jsx';

export function Stack({ frames }) {
  if (!frames?.length) return <p class="muted">No stack.</p>;
  return (
    <ol class="stack" data-testid="stack">
      {frames.map((f) => (
        <li>
          <div class="func">{f.func}</div>
          <div class="file">
            {f.file}:{f.line}
          </div>
        </li>
      ))}
    </ol>
  );
}

// at: a time's text when the wall clock is shown (ClockToggle.jsx), else null.
export function Details({ details, start, at, query, onClose, onSelect }) {
  const d = details;
  const rel = (t) => (at ? at(t) : formatDuration(t - start, 6));
  const g = d.goroutine;
  const trackName = d.track.kind + (d.track.id !== undefined && d.track.id >= 0 ? ` ${d.track.id}` : '');
  const link = (track, time) => href('/timeline', { ...query, sel: formatSel(track, time) });
  return (
    <div class="details" data-testid="details">
      <PanelHead onClose={onClose}>{d.state}{d.label ? ` — ${d.label}` : ''}</PanelHead>
      <table class="kv">
        <tbody>
          <tr>
            <th>Track</th>
            <td>{trackName}</td>
          </tr>
          <tr>
            <th>Start</th>
            <td>{rel(d.start)}</td>
          </tr>
          <tr>
            <th>Duration</th>
            <td data-testid="duration">{formatDuration(d.duration)}</td>
          </tr>
          {g >= 0 && (
            <tr>
              <th>Goroutine</th>
              <td>
                <a href={href(`/goroutine/${g}`)}>G{g}</a>{' '}
                <a href={href('/timeline', { ...query, g, sel: d.track.kind === 'goroutine' ? query.sel : formatSel({ kind: 'goroutine', id: g }, d.start + 1) })}>
                  (its lane)
                </a>
              </td>
            </tr>
          )}
          {d.wokenBy && (
            <tr>
              <th>Woken by</th>
              <td data-testid="woken-by">
                {d.wokenBy.goroutine >= 0 ? (
                  <>
                    <a href={href(`/goroutine/${d.wokenBy.goroutine}`)}>G{d.wokenBy.goroutine}</a>{' '}
                    <a
                      href={link({ kind: 'goroutine', id: d.wokenBy.goroutine }, d.wokenBy.time)}
                      onClick={(e) => {
                        e.preventDefault();
                        onSelect({ kind: 'goroutine', id: d.wokenBy.goroutine }, d.wokenBy.time, d.wokenBy.goroutine);
                      }}
                    >
                      at {rel(d.wokenBy.time)}
                    </a>{' '}
                  </>
                ) : (
                  'the runtime '
                )}
                ({d.wokenBy.kind})
              </td>
            </tr>
          )}
          {d.next && (
            <tr>
              <th>Next</th>
              <td data-testid="next">
                <a
                  href={link(d.track, d.next.start)}
                  onClick={(e) => {
                    e.preventDefault();
                    onSelect(d.track, d.next.start);
                  }}
                >
                  {d.next.state}
                  {d.next.label ? ` (${d.next.label})` : ''}
                  {d.next.goroutine >= 0 ? ` G${d.next.goroutine}` : ''} at {rel(d.next.start)}
                </a>
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {d.eventText && (
        <>
          <h4>Began with</h4>
          <pre class="event-text">{d.eventText}</pre>
          <Stack frames={d.stack} />
        </>
      )}
      {d.endEvent >= 0 && d.endStack?.length > 0 && (
        <>
          <h4>Ended with</h4>
          <Stack frames={d.endStack} />
        </>
      )}
      {d.wokenBy?.stack?.length > 0 && (
        <>
          <h4>Where it was woken</h4>
          <Stack frames={d.wokenBy.stack} />
        </>
      )}
    </div>
  );
}
