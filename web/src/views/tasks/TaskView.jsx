import { Fragment } from 'preact';
import { formatDuration, formatTime, spanDuration, timelineHref, typeName } from '../../model/format.js';
import { goroutineHref, taskHref, criticalPathHref } from '../common/links.js';
import { part, scopedPart, statsOf } from '../../model/queries.js';
import { OutsidePart } from '../common/scope.jsx';
import { Pending, useAsync } from '../common/query.jsx';
import { StateLane } from '../common/StateLane.jsx';

// The task drawn on its own small timeline: the task on top, then one row per
// goroutine with its regions in the task and the task's logs as ticks.
function TaskTimeline({ task, t0, t1 }) {
  // Within the task's span: a region that ends after it (or has no end) is cut at its edge.
  const clamp = (t) => Math.min(t1, Math.max(t0, t));
  const pos = (t) => `${(100 * (clamp(t) - t0)) / (t1 - t0)}%`;
  const width = (a, b) => `${Math.max(0.2, (100 * (clamp(b) - clamp(a))) / (t1 - t0))}%`;
  const rows = task.goroutines.map((g) => {
    const regions = task.regions.filter((r) => r.goroutine === g);
    return { g, regions, lanes: regionLanes(regions, t0, t1), logs: task.logs.filter((l) => l.goroutine === g) };
  });
  return (
    <div class="gt-task-tl" data-testid="task-timeline">
      <div class="row">
        <span class="lbl">task {task.id}</span>
        <div class="track">
          <a
            class="span task"
            href={timelineHref(task.start ?? t0, task.end ?? t1, { task: task.id })}
            title={`${typeName(task.name)}: ${formatDuration((task.end ?? t1) - (task.start ?? t0))}`}
            style={{ left: pos(task.start ?? t0), width: width(task.start ?? t0, task.end ?? t1) }}
          >{typeName(task.name)}</a>
        </div>
      </div>
      {rows.map(({ g, regions, lanes, logs }) => (
        <div class="row" key={g} style={{ height: `${22 * Math.max(1, ...lanes.map((l) => l + 1))}px` }}>
          <a class="lbl" href={goroutineHref(g)}>G{g}</a>
          <div class="track">
            {regions.map((r, i) => (
              <a
                key={i}
                class="span region"
                href={timelineHref(r.start ?? t0, r.end ?? t1, { g: g })}
                title={`${typeName(r.name)}: ${formatDuration((r.end ?? t1) - (r.start ?? t0))}`}
                style={{ left: pos(r.start ?? t0), width: width(r.start ?? t0, r.end ?? t1), top: `${3 + 22 * lanes[i]}px` }}
              >{typeName(r.name)}</a>
            ))}
            {logs.map((l, i) => (
              <span key={`l${i}`} class="tick" title={`${l.category ? `${l.category}: ` : ''}${l.message}`} style={{ left: pos(l.time) }} />
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}

// A lane for each of a goroutine's regions: nested or overlapping ones one under the
// other (the first lane free at its start), so that none hides another's name.
function regionLanes(regions, t0, t1) {
  const ends = [];
  return regions.map((r) => {
    const a = r.start ?? t0;
    let lane = ends.findIndex((e) => e <= a);
    if (lane < 0) lane = ends.length;
    ends[lane] = r.end ?? t1;
    return lane;
  });
}

// A task of another part (a link from the whole trace's views, of a trace opened in
// parts): as the whole trace's summary has it, and the part where it is offered.
export function TaskView({ trace, id, info, openPart }) {
  const complete = Boolean(info?.parts?.complete);
  const state = useAsync(async () => {
    const [inPart, stats] = await Promise.all([part(trace, 'task', id), statsOf(trace)]);
    const elsewhere = !inPart && trace.inParts && complete ? await scopedPart(trace, 'whole', 'task', id) : null;
    return { task: inPart ?? elsewhere, away: Boolean(elsewhere), stats };
  }, [trace, id, complete]);
  if (!state.data) return <Pending state={state} what={`task ${id}`} />;
  const { task, away, stats } = state.data;
  if (!task) {
    const where = trace.inParts && !complete ? 'part (the rest of the trace is still being read)' : 'trace';
    return <p class="gt-error">There is no task {id} in this {where}. <a href="#/tasks">All tasks</a></p>;
  }
  const start = stats.time.start;
  const t0 = task.start ?? start;
  const t1 = Math.max(t0 + 1, task.end ?? stats.time.end);
  const rel = (t) => (t == null ? '' : formatTime(t - trace.origin));
  return (
    <section class="gt-view" data-testid="task-view">
      <header class="gt-view-head">
        <h2><a href="#/tasks">Tasks</a> › <span data-testid="task-title">{typeName(task.name)} {task.id}</span></h2>
        <a href={timelineHref(t0, t1, { task: task.id })} data-testid="task-timeline-link">Open in timeline</a>
        {task.complete && !away && <Fragment>{' · '}<a href={criticalPathHref({ task: task.id })} data-testid="task-critical-path-link">Critical path</a></Fragment>}
      </header>
      <dl class="gt-facts">
        <dt>Type</dt><dd>{typeName(task.name)}</dd>
        <dt>Start</dt><dd>{task.start == null ? 'before the trace' : rel(task.start)}</dd>
        <dt>End</dt><dd>{task.end == null ? 'after the trace' : rel(task.end)}</dd>
        <dt>Duration</dt><dd>{task.duration == null ? `> ${formatDuration(t1 - t0)}` : formatDuration(task.duration)}</dd>
        <dt>Parent</dt><dd>{task.parent == null ? 'none' : <a href={taskHref(task.parent)}>task {task.parent}</a>}</dd>
        <dt>Children</dt>
        <dd>{task.children.length === 0 ? 'none' : task.children.map((c) => <a key={c} href={taskHref(c)}>task {c} </a>)}</dd>
        <dt>Goroutines</dt>
        <dd>{task.goroutines.map((g) => <a key={g} href={goroutineHref(g)}>G{g} </a>)}</dd>
      </dl>
      {away && <OutsidePart info={info} openPart={openPart} t0={t0} t1={t1} what={`Task ${task.id}`} />}
      <TaskTimeline task={task} t0={t0} t1={t1} />
      {!away && task.goroutines.slice(0, 8).map((g, i) => (
        <div key={g} class="gt-task-lane">
          <a href={goroutineHref(g)}>G{g}</a> during the task
          <StateLane trace={trace} goroutine={g} t0={t0} t1={t1} legend={i === Math.min(8, task.goroutines.length) - 1} />
        </div>
      ))}
      <h3>Regions ({task.regions.length})</h3>
      <table class="gt-table" data-testid="task-regions">
        <thead><tr><th>Region</th><th>Goroutine</th><th class="num">Start</th><th class="num">Duration</th></tr></thead>
        <tbody>
          {task.regions.map((r, i) => (
            <tr key={i}>
              <td><a href={timelineHref(r.start ?? t0, r.end ?? t1, { g: r.goroutine })}>{typeName(r.name)}</a></td>
              <td><a href={goroutineHref(r.goroutine)}>G{r.goroutine}</a></td>
              <td class="num">{r.start == null ? 'before the trace' : rel(r.start)}</td>
              <td class="num">{spanDuration(r, stats.time)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Logs ({task.logs.length})</h3>
      <table class="gt-table" data-testid="task-logs">
        <thead><tr><th class="num">Time</th><th>Goroutine</th><th>Category</th><th>Message</th></tr></thead>
        <tbody>
          {task.logs.map((l, i) => (
            <tr key={i}>
              <td class="num"><a href={timelineHref(l.time - 1000, l.time + 1000, { g: l.goroutine })}>{rel(l.time)}</a></td>
              <td><a href={goroutineHref(l.goroutine)}>G{l.goroutine}</a></td>
              <td>{l.category}</td>
              <td>{l.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
