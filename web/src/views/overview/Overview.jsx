// What the trace is: format, span, counts, and what is wrong with it.
import { formatBytes, formatCount, formatDuration } from '../../model/format.js';
import { href } from '../../model/router.js';

export function Overview({ info }) {
  const s = info.stats;
  const parts = info.parts;
  const lostBytes = Math.max(0, s.bytes - s.bytes_used);
  const warnings = [];
  if (info.partialError) {
    warnings.push(
      `The trace breaks off: ${formatBytes(lostBytes)} of ${formatBytes(s.bytes)} ` +
        `(${((100 * lostBytes) / Math.max(1, s.bytes)).toFixed(1)}%) could not be read. ` +
        `Reading stopped at: ${info.partialError}`,
    );
  }
  const rows = parts ? partRows(s, parts) : statRows(s);
  // Of a trace in parts, each type's count in the part and in the whole trace (read so far).
  const whole = parts?.stats.events_by_type;
  const kinds = Object.entries(whole ?? s.events_by_type ?? {}).sort((a, b) => b[1] - a[1]);
  const inPart = s.events_by_type ?? {};
  return (
    <div class="page overview" data-testid="overview">
      <h2>{info.name}</h2>
      {warnings.map((w) => (
        <p class="warning" role="note" data-testid="warning">
          {w}
        </p>
      ))}
      {parts && (
        <h3 data-testid="part-heading">
          This part: {parts.first === parts.last ? `generation ${parts.first + 1}` : `generations ${parts.first + 1}–${parts.last + 1}`} of{' '}
          {parts.generations.length}
          {parts.complete ? '' : ' read so far'}
        </h3>
      )}
      <Cards rows={rows} />
      {parts && (
        <>
          <h3>The whole trace{parts.complete ? '' : ' (read so far: the rest is being read)'}</h3>
          <div data-testid="whole-trace">
            <Cards rows={statRows(parts.stats)} />
          </div>
        </>
      )}
      <p>
        <a class="button primary" href={href('/timeline')}>
          Open the timeline
        </a>
        <span class="muted"> Opened in {formatDuration(info.openMs * 1e6)}.</span>
      </p>
      <h3>Events by type</h3>
      <table class="table compact" data-testid="events-by-type">
        <thead>
          <tr>
            <th>Type</th>
            {whole && <th class="num">This part</th>}
            <th class="num">{whole ? `The whole trace${parts.complete ? '' : ' (read so far)'}` : 'Count'}</th>
          </tr>
        </thead>
        <tbody>
          {kinds.map(([k, n]) => (
            <tr data-type={k}>
              <td>{k}</td>
              {whole && <td class="num" data-scope="part">{formatCount(inPart[k] ?? 0)}</td>}
              <td class="num" data-scope={whole ? 'whole' : 'open'}>{formatCount(n)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// The figures of a trace's (or a part's) stats: [label, value, key].
function statRows(s) {
  return [
    // The version the header names, which is the format's: Go 1.27 writes Go 1.26's.
    ['Trace format of Go', s.format.go_version, 'go-version'],
    ['Format', s.format.family === 'v2' ? 'v2 (Go 1.22 and later)' : 'v1 (Go 1.5 to 1.21)', 'format'],
    ['Duration', formatDuration(s.time.duration), 'duration'],
    ['Goroutines', formatCount(s.goroutines), 'goroutines'],
    ['Procs', formatCount(s.procs), 'procs'],
    ['Threads', formatCount(s.threads), 'threads'],
    ['Events', formatCount(s.events), 'events'],
    ['GCs', formatCount(s.gcs), 'gcs'],
    ['Generations', formatCount(s.generations), 'generations'],
    ['Size', formatBytes(s.bytes), 'bytes'],
    ['Stacks', formatCount(s.stacks), 'stacks'],
    ['Strings', formatCount(s.strings), 'strings'],
  ];
}

// A part's figures: its generations' bytes, and no stacks or strings (a part shares the
// tables of the whole trace read so far: their counts are not the part's).
function partRows(s, parts) {
  const bytes = parts.generations.slice(parts.first, parts.last + 1).reduce((n, g) => n + (g.bytes ?? 0), 0);
  return statRows({ ...s, bytes }).filter(([, , key]) => key !== 'stacks' && key !== 'strings');
}

function Cards({ rows }) {
  return (
    <div class="cards">
      {rows.map(([label, value, key]) => (
        <div class="card" data-stat={key}>
          <div class="card-label">{label}</div>
          <div class="card-value">{value}</div>
        </div>
      ))}
    </div>
  );
}
