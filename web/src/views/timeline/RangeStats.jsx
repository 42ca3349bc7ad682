// Aggregate figures of a selected time range, computed from one-pixel timeline queries
// (each rectangle carries the time spent in each state).
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { formatCount, formatDuration } from '../../model/format.js';
import { href } from '../../model/router.js';
import { PanelHead } from '../shell/PanelHead.jsx';
import { criticalPathHref } from '../common/links.js';

const RUNNING = 0;
const ACTIVE = 4;

function sumState(r, state) {
  if (!r || r.type !== 'slices') return 0;
  let t = 0;
  const col = r.timeIn?.[state];
  if (col) for (let i = 0; i < col.length; i++) t += col[i];
  return t;
}

function sumCount(r) {
  let n = 0;
  if (r?.count) for (let i = 0; i < r.count.length; i++) n += r.count[i];
  return n;
}

// at: a time's text when the wall clock is shown (ClockToggle.jsx), else null. part: of
// the whole trace opened in parts, the part open ({start, end}), whose events the figures
// are counted from; onOpenPart(a, b) opens the part where the range is.
export function RangeStats({ trace, list, range, start, at, goroutine, onClose, part = null, onOpenPart }) {
  const [stats, setStats] = useState(null);
  const [error, setError] = useState(null);
  const [a, b] = range;
  useEffect(() => {
    let live = true;
    // list.procs is a Float64Array: its map() would make numbers of these requests.
    const reqs = Array.from(list.procs, (p) => [{ kind: 'proc', id: p }, a, b, 1]);
    if (list.gc) reqs.push([{ kind: 'gc' }, a, b, 1]);
    if (list.stw) reqs.push([{ kind: 'stw' }, a, b, 1]);
    reqs.push([{ kind: 'logs', by: 'proc' }, a, b, 1], [{ kind: 'samples', by: 'proc' }, a, b, 1]);
    reqs.push([{ kind: 'network', by: 'proc' }, a, b, 1], [{ kind: 'syscalls', by: 'proc' }, a, b, 1]);
    trace
      .timelines(reqs)
      .then((res) => {
        if (!live) return;
        const procs = Array.from(list.procs, (p, i) => ({ id: p, busy: sumState(res[i], RUNNING), runs: sumCount(res[i]) }));
        let k = list.procs.length;
        const gc = list.gc ? sumState(res[k++], ACTIVE) : 0;
        const stw = list.stw ? sumState(res[k++], ACTIVE) : 0;
        const logs = sumCount(res[k++]);
        const samples = sumCount(res[k++]);
        const network = sumCount(res[k++]);
        const syscalls = sumCount(res[k++]);
        setStats({ procs, gc, stw, logs, samples, network, syscalls });
      })
      .catch((e) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [trace, list, a, b]);
  const span = Math.max(1, b - a);
  const pct = (v) => `${((100 * v) / span).toFixed(1)}%`;
  return (
    <div class="details" data-testid="range-stats">
      <PanelHead onClose={onClose}>Range {formatDuration(b - a)}</PanelHead>
      <p class="muted">
        From {at ? at(a) : formatDuration(a - start, 6)} to {at ? at(b) : formatDuration(b - start, 6)}.{' '}
        <a href={href('/timeline', { t0: Math.round(a), t1: Math.round(b) })}>Zoom to it</a>
        {' · '}
        <a href={href('/profiles/sync', { t0: Math.round(a), t1: Math.round(b) })}>Profiles of it</a>
        {goroutine !== undefined && (
          <Fragment>
            {' · '}
            <a data-testid="range-critical-path" href={criticalPathHref({ goroutine, from: Math.round(a), to: Math.round(b) })}>
              Critical path of G{goroutine} over it
            </a>
          </Fragment>
        )}
      </p>
      {part && (a < part.start || b > part.end + 1) && (
        <p class="gt-scope" data-testid="range-outside-part">
          The range reaches outside the part open: its figures count this part's events alone.{' '}
          <button type="button" class="link-button" onClick={() => onOpenPart(a, b)}>Open the part where it begins</button>
        </p>
      )}
      {error && <p class="warning">{error}</p>}
      {stats && (
        <table class="kv">
          <tbody>
            <tr>
              <th>GC</th>
              <td>
                {formatDuration(stats.gc)} ({pct(stats.gc)})
              </td>
            </tr>
            <tr>
              <th>Stop-the-world</th>
              <td>
                {formatDuration(stats.stw)} ({pct(stats.stw)})
              </td>
            </tr>
            <tr>
              <th>Logs</th>
              <td>{formatCount(stats.logs)}</td>
            </tr>
            <tr>
              <th>CPU samples</th>
              <td>{formatCount(stats.samples)}</td>
            </tr>
            <tr>
              <th>Network unblocks</th>
              <td data-testid="range-network">{formatCount(stats.network)}</td>
            </tr>
            <tr>
              <th>Blocked syscall exits</th>
              <td data-testid="range-syscalls">{formatCount(stats.syscalls)}</td>
            </tr>
            {stats.procs.map((p) => (
              <tr key={p.id}>
                <th>Proc {p.id}</th>
                <td>
                  running {pct(p.busy)}, {formatCount(p.runs)} goroutine runs
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
