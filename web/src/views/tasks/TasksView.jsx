import { href, navigate } from '../../model/router.js';
import { formatDuration, spanDuration, spanNs, timelineHref } from '../../model/format.js';
import { goroutineHref, taskHref } from '../common/links.js';
import { scopedPart, statsOf } from '../../model/queries.js';
import { sharedNames } from '../../model/regionTypes.js';
import { ScopeNote, scopeOf, scopeQuery } from '../common/scope.jsx';
import { Pending, useAsync } from '../common/query.jsx';
import { BreakdownBar } from '../common/BreakdownBar.jsx';
import { blockReasons, unknownTime } from '../common/breakdown.js';
import { ALL, DurationTable } from './DurationTable.jsx';


// The histogram bar picked, in the address: ?name= (and ?pc= of a region type) &bucket=.
// The address leaves an empty name out: a bucket without a name is the unnamed type's.
function pickedOf(query) {
  const number = (v) => (v == null || v === '' ? undefined : Number(v));
  return { name: query.name ?? '', pc: number(query.pc), min: query.bucket === ALL ? ALL : number(query.bucket) };
}
function pickTo(path, query, withPc) {
  return (type, min) => navigate(path, {
    ...scopeQuery(query), name: type.name, ...(withPc && min != null ? { pc: type.pc } : {}), ...(min != null ? { bucket: min } : {}),
  });
}

function Tabs({ at, query }) {
  return (
    <nav class="gt-tabs">
      <a href={href('/tasks', scopeQuery(query))} class={at === 'tasks' ? 'on' : ''}>Tasks</a>
      <a href={href('/regions', scopeQuery(query))} class={at === 'regions' ? 'on' : ''}>Regions</a>
    </nav>
  );
}

// Of a trace opened in parts, the whole trace's or the part's (common/scope.jsx).
export function TasksView({ trace, name, info, query, route }) {
  const scope = scopeOf(info, query);
  const state = useAsync(async () => {
    const [tasks, stats] = await Promise.all([scopedPart(trace, scope, 'taskTypes'), statsOf(trace)]);
    return { tasks, stats };
  }, [trace, scope]);
  const note = <ScopeNote info={info} route={route} scope={scope} what="tasks" />;
  if (!state.data) return <>{note}<Pending state={state} what="tasks" /></>;
  const { tasks, stats } = state.data;
  const start = stats.time.start;
  const columns = [
    { key: 'id', label: 'Task', numeric: true, value: (t) => t.id, render: (t) => <a href={taskHref(t.id)} data-testid="task-link">{t.id}</a> },
    { key: 'start', label: 'Start', numeric: true, value: (t) => (t.start ?? start) - trace.origin, format: formatDuration },
    // A task not ended (listed from its type's count) counts to the trace's end, and says so.
    {
      key: 'duration', label: 'Duration', numeric: true, value: (t) => t.duration ?? spanNs(t, stats.time),
      render: (t) => spanDuration(t, stats.time),
    },
    { key: 'goroutines', label: 'Goroutines', numeric: true, value: (t) => t.goroutines.length },
    { key: 'regions', label: 'Regions', numeric: true, value: (t) => t.regions.length },
    { key: 'logs', label: 'Logs', numeric: true, value: (t) => t.logs.length },
    {
      key: 'timeline', label: '', sortable: false, value: () => '',
      render: (t) => <a href={timelineHref(t.start ?? start, t.end ?? stats.time.end, { task: t.id })}>timeline</a>,
    },
  ];
  return (
    <section class="gt-view" data-testid="tasks-view">
      <header class="gt-view-head"><h2>User tasks</h2><Tabs at="tasks" query={query} /><a href="#/timeline">Timeline</a></header>
      {note}
      {tasks.types.length === 0 ? <p>This trace has no user tasks.</p> : (
        <DurationTable
          kind="task"
          highlight={name}
          label="Task type"
          testid="task-types"
          types={tasks.types}
          picked={pickedOf(query)}
          onPick={pickTo('/tasks', query, false)}
          instancesOf={(type, min) => scopedPart(trace, scope, 'tasksInBucket', { name: type.name, min: min === ALL ? null : min })}
          instanceColumns={columns}
          criticalPaths={scope !== 'whole'}
        />
      )}
    </section>
  );
}

const stat = (key, label) => ({ key, label, numeric: true, value: (r) => r.stats[key] ?? 0, format: formatDuration });

// Where the regions' time went, as go tool trace's regions page splits it: execution,
// scheduling wait, block time by reason (a column per reason any listed region blocked
// for, as in the goroutine group table), syscalls, what is unaccounted for, and the bar.
function regionTimeColumns(regions) {
  const maxTotal = Math.max(1, ...regions.map((r) => r.stats.total ?? 0));
  return [
    stat('exec', 'Execution'),
    stat('sched_wait', 'Sched wait'),
    ...blockReasons(regions.map((r) => r.stats))
      .filter((reason) => regions.some((r) => r.stats[`block:${reason}`] > 0))
      .map((reason) => stat(`block:${reason}`, `Block: ${reason || 'unknown reason'}`)),
    stat('syscall', 'Syscall'),
    stat('syscall_block', 'Syscall blocked'),
    { key: 'unknown', label: 'Unknown', numeric: true, value: (r) => unknownTime(r.stats), format: formatDuration },
    {
      key: 'breakdown', label: 'Breakdown', title: 'Sort by execution share',
      value: (r) => (r.stats.total ? (r.stats.exec ?? 0) / r.stats.total : 0),
      render: (r) => <BreakdownBar stats={r.stats} scale={maxTotal} />,
    },
  ];
}

// Of a trace opened in parts, the whole trace's or the part's (common/scope.jsx).
export function RegionsView({ trace, name, info, query, route }) {
  const scope = scopeOf(info, query);
  const state = useAsync(async () => {
    const [regions, stats] = await Promise.all([scopedPart(trace, scope, 'regionTypes'), statsOf(trace)]);
    return { regions, stats };
  }, [trace, scope]);
  const note = <ScopeNote info={info} route={route} scope={scope} what="regions" />;
  if (!state.data) return <>{note}<Pending state={state} what="regions" /></>;
  const { regions, stats } = state.data;
  const start = stats.time.start;
  const shared = sharedNames(regions.types);
  const columns = (listed) => [
    { key: 'goroutine', label: 'Goroutine', numeric: true, value: (r) => r.goroutine, render: (r) => <a href={goroutineHref(r.goroutine)}>G{r.goroutine}</a> },
    { key: 'task', label: 'Task', numeric: true, value: (r) => r.task, render: (r) => (r.task ? <a href={taskHref(r.task)}>{r.task}</a> : '') },
    { key: 'start', label: 'Start', numeric: true, value: (r) => (r.start ?? start) - trace.origin, format: formatDuration },
    { key: 'duration', label: 'Duration', numeric: true, value: (r) => r.duration, format: formatDuration },
    ...regionTimeColumns(listed),
    {
      key: 'timeline', label: '', sortable: false, value: () => '',
      render: (r) => <a href={timelineHref(r.start ?? start, r.end ?? stats.time.end, { g: r.goroutine })}>timeline</a>,
    },
  ];
  return (
    <section class="gt-view" data-testid="regions-view">
      <header class="gt-view-head"><h2>User regions</h2><Tabs at="regions" query={query} /><a href="#/timeline">Timeline</a></header>
      {note}
      {regions.types.length === 0 ? <p>This trace has no user regions.</p> : (
        <DurationTable
          kind="region"
          highlight={name}
          label="Region type"
          testid="region-types"
          types={regions.types}
          picked={pickedOf(query)}
          onPick={pickTo('/regions', query, true)}
          instancesOf={(type, min) => scopedPart(trace, scope, 'regionsInBucket', { name: type.name, min, pc: type.pc })}
          instanceColumns={columns}
          criticalPaths={scope !== 'whole'}
          extraColumns={[{
            key: 'profile', label: '', sortable: false, value: () => '',
            // By its pc too where types share the name, as Go's region pages link profiles.
            render: (t) => <a href={href('/profiles/sync', { region: t.name, ...(shared.has(t.name) ? { pc: t.pc } : {}) })}>profiles</a>,
          }]}
        />
      )}
    </section>
  );
}
