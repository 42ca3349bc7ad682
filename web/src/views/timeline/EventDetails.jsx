// The details panel of an instant event (a log, a CPU sample): Go's text of the event
// and its stack. A mark narrower than a pixel stands for several; the first is shown.
import { formatDuration } from '../../model/format.js';
import { href } from '../../model/router.js';
import { Stack } from './Details.jsx';
import { PanelHead } from '../shell/PanelHead.jsx';

// Go's text of an event ends with its stack, which the panel lists below it.
// at: a time's text when the wall clock is shown (ClockToggle.jsx), else null.
export function EventDetails({ event, what, merged, start, at, onClose }) {
  const g = event.goroutine;
  return (
    <div class="details" data-testid="event-details">
      <PanelHead onClose={onClose}>{what}</PanelHead>
      <table class="kv">
        <tbody>
          <tr>
            <th>At</th>
            <td>{at ? at(event.time) : formatDuration(event.time - start, 6)}</td>
          </tr>
          {g >= 0 && (
            <tr>
              <th>Goroutine</th>
              <td>
                <a href={href(`/goroutine/${g}`)}>G{g}</a>
              </td>
            </tr>
          )}
          {event.proc >= 0 && (
            <tr>
              <th>Proc</th>
              <td>{event.proc}</td>
            </tr>
          )}
          {merged > 1 && (
            <tr>
              <th>Here</th>
              <td>{merged} events in this pixel; zoom in to tell them apart (the first is shown)</td>
            </tr>
          )}
        </tbody>
      </table>
      <h4>Event</h4>
      <pre class="event-text" data-testid="event-text">{event.text.split('\nStack=')[0]}</pre>
      <h4>Stack</h4>
      <Stack frames={event.stack} />
    </div>
  );
}
