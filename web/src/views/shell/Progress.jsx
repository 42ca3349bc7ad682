import { formatBytes, formatCount } from '../../model/format.js';

export function Progress({ name, progress = {}, onCancel }) {
  const { phase, bytesDone = 0, bytesTotal = 0, events } = progress;
  const fraction = bytesTotal > 0 ? Math.min(1, bytesDone / bytesTotal) : 0;
  const verb = { fetching: 'Fetching', reading: 'Reading', parsing: 'Parsing' }[phase] ?? 'Loading';
  return (
    <div class="progress" role="status" data-testid="progress">
      <div class="progress-text">
        {verb} {name}: {formatBytes(bytesDone)}
        {bytesTotal > 0 && <> of {formatBytes(bytesTotal)}</>}
        {events != null && <>, {formatCount(events)} events</>}
      </div>
      <div class="progress-bar">
        <div class="progress-fill" style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
      </div>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
