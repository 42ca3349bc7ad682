import { Fragment } from 'preact';
import { countOf, formatCount, formatDuration, formatTime, formatPercent, timelineHref } from '../../model/format.js';
import { goroutineHref, taskHref } from '../common/links.js';
import { cached, statsOf } from '../../model/queries.js';
import { Pending, useAsync } from '../common/query.jsx';
import { SortableTable } from '../common/SortableTable.jsx';
import { PathChart } from './PathChart.jsx';
import { PartOnlyNote } from '../common/scope.jsx';
import { categoryColor, segmentCategory } from './states.js';

// The critical path of a task, a region or a goroutine (one path), or the paths of a
// task or region type summed (optionally a histogram bucket, or the slowest percent):
// what the selection's end waited on, walking back along the wake-ups. The figures are
// the core's (Trace.criticalPath / criticalPaths); this view only lays them out.

/** The query of a critical-path link as the package's selection. */
export function selectionOf(query) {
  // A value that is no number is kept as written: the core's error then names it.
  const num = (v) => (v === undefined || v === '' ? undefined : Number.isFinite(Number(v)) ? Number(v) : v);
  if (query.taskType !== undefined || query.regionType !== undefined) {
    return {
      aggregate: true,
      selection: {
        ...(query.taskType !== undefined ? { taskType: query.taskType } : { regionType: query.regionType }),
        ...(query.regionType !== undefined && query.pc !== undefined && { pc: num(query.pc) }),
        ...(query.min !== undefined && { min: num(query.min) }),
        ...(query.max !== undefined && { max: num(query.max) }),
        ...(query.slowest !== undefined && { slowest: num(query.slowest) }),
      },
    };
  }
  if (query.task !== undefined) return { selection: { task: num(query.task) } };
  if (query.region !== undefined) return { selection: { region: query.region } };
  if (query.goroutine !== undefined) {
    return {
      selection: {
        goroutine: num(query.goroutine),
        ...(query.from !== undefined && { from: num(query.from) }),
        ...(query.to !== undefined && { to: num(query.to) }),
      },
    };
  }
  return null;
}

function what(sel) {
  if (sel.task !== undefined) return `task ${sel.task}`;
  if (sel.region !== undefined) return `region ${sel.region}`;
  if (sel.goroutine !== undefined) return `goroutine ${sel.goroutine}`;
  if (sel.taskType !== undefined) return `every task '${sel.taskType}'`;
  return `every region '${sel.regionType}'${sel.pc !== undefined ? ` begun at 0x${Number(sel.pc).toString(16)}` : ''}`;
}

function CategoryBar({ totals, whole }) {
  return (
    <div class="gt-bar gt-path-bar" data-testid="path-bar" role="img" aria-label="time on the path by category">
      {totals.map((c) => (
        <span key={c.key} title={`${c.key}: ${formatDuration(c.ns)} (${formatPercent(c.ns, whole)})`}
          style={{ width: `${(100 * c.ns) / Math.max(1, whole)}%`, background: categoryColor(c.key) }} />
      ))}
    </div>
  );
}

const totalColumns = (whole, keyLabel, keyRender) => [
  { key: 'key', label: keyLabel, value: (t) => t.key, render: keyRender ?? ((t) => (
    <span><i class="gt-swatch" style={{ background: categoryColor(t.key.split(' @ ')[0]) }} />{t.key}</span>)) },
  { key: 'ns', label: 'Time', numeric: true, value: (t) => t.ns, format: formatDuration },
  { key: 'share', label: 'Share', numeric: true, value: (t) => t.ns, render: (t) => formatPercent(t.ns, whole) },
];

function OnePath({ path, t0, sel }) {
  const segmentColumns = [
    { key: 'start', label: 'Start', numeric: true, value: (s) => s.start, render: (s) => (
      <a href={timelineHref(s.start, s.end, { g: s.goroutine })}>{formatTime(s.start - t0)}</a>) },
    { key: 'duration', label: 'Duration', numeric: true, value: (s) => s.end - s.start, format: formatDuration },
    { key: 'goroutine', label: 'Goroutine', numeric: true, value: (s) => s.goroutine, render: (s) => <a href={goroutineHref(s.goroutine)}>G{s.goroutine}</a> },
    { key: 'state', label: 'State', value: (s) => segmentCategory(s), render: (s) => (
      <span><i class="gt-swatch" style={{ background: categoryColor(segmentCategory(s)) }} />{segmentCategory(s)}</span>) },
    { key: 'function', label: 'Function', value: (s) => s.function, render: (s) => <code title={(path.stacks[s.stack] ?? []).map((f) => `${f.func} ${f.file}:${f.line}`).join('\n')}>{s.function}</code> },
  ];
  return (
    <Fragment>
      <p data-testid="path-summary">
        {what(sel)}{sel.task !== undefined && <Fragment> (<a href={taskHref(sel.task)}>its page</a>)</Fragment>}: {' '}
        <strong>{formatDuration(path.duration)}</strong> from {formatTime(path.from - t0)} to {formatTime(path.to - t0)},
        ending on <a href={goroutineHref(path.goroutine)}>G{path.goroutine}</a>; {countOf(path.segments.length, 'segment')},
        {' '}{countOf(path.handoffs, 'hand-off')}. <a href={timelineHref(path.from, path.to, { g: path.goroutine })}>Open in timeline</a>
      </p>
      <CategoryBar totals={path.by_category} whole={path.duration} />
      <PathChart path={path} />
      <div class="gt-path-tables">
        <section><h3>By category</h3><SortableTable testid="path-by-category" columns={totalColumns(path.duration, 'Category')} rows={path.by_category} initialSort="ns" /></section>
        <section><h3>By goroutine</h3><SortableTable testid="path-by-goroutine" rows={path.by_goroutine} initialSort="ns"
          columns={totalColumns(path.duration, 'Goroutine', (t) => <a href={goroutineHref(t.goroutine)}>{t.key}</a>)} /></section>
      </div>
      <h3>By category and function</h3>
      <SortableTable testid="path-by-function" columns={totalColumns(path.duration, 'Category @ function')} rows={path.by_function} initialSort="ns" limit={50} />
      <h3>Segments</h3>
      <SortableTable testid="path-segments" columns={segmentColumns} rows={path.segments} initialSort="start" initialDesc={false} limit={200} />
    </Fragment>
  );
}

function Aggregate({ agg, sel }) {
  const d = agg.durations;
  const bucket = sel.min !== undefined || sel.max !== undefined
    ? ` with a duration in [${formatDuration(sel.min ?? 0)}, ${sel.max !== undefined ? formatDuration(sel.max) : '∞'})` : '';
  const tail = sel.slowest !== undefined ? `, the slowest ${sel.slowest}%` : '';
  return (
    <Fragment>
      <p data-testid="path-summary">
        The critical paths of <strong>{formatCount(agg.instances)}</strong> {agg.kind}{agg.instances === 1 ? '' : 's'} '{agg.name}'{agg.pc !== undefined ? ` begun at 0x${agg.pc.toString(16)}` : ''}{bucket}{tail}:
        {' '}durations p50 {formatDuration(d.p50)}, p90 {formatDuration(d.p90)}, p99 {formatDuration(d.p99)}, max {formatDuration(d.max)};
        {' '}{formatDuration(d.total)} in all.
      </p>
      <CategoryBar totals={agg.by_category} whole={d.total} />
      <h3>By category</h3>
      <SortableTable testid="path-by-category" columns={totalColumns(d.total, 'Category')} rows={agg.by_category} initialSort="ns" />
      <h3>By category and function</h3>
      <SortableTable testid="path-by-function" columns={totalColumns(d.total, 'Category @ function')} rows={agg.by_function} initialSort="ns" limit={50} />
    </Fragment>
  );
}

export function CriticalPathView({ trace, query, info, route, openWhole }) {
  const parsed = selectionOf(query);
  const key = JSON.stringify(parsed);
  const state = useAsync(async () => {
    if (!parsed) return null;
    const method = parsed.aggregate ? 'criticalPaths' : 'criticalPath';
    const [result, stats] = await Promise.all([
      cached(trace, `${method} ${key}`, () => trace.call(method, parsed.selection)),
      statsOf(trace),
    ]);
    return { result, stats, key };
  }, [trace, key]);
  // The answer to this selection only: the one before stays in state.data while this one
  // is computed, and a summed path is not one path (nor another path this one).
  const data = state.data?.key === key ? state.data : null;
  return (
    <div class="gt-view gt-critical-path" data-testid="critical-path-view">
      <h2>Critical path</h2>
      <p class="gt-note">
        Walking back from the end: while its goroutine ran, waited for a proc or sat in a syscall the time is its own;
        where it was blocked, the path follows the wake-up to the goroutine that woke it and goes on along that one.
        Waits no goroutine ended (network, timers, the runtime) stay as Go names them.
      </p>
      <PartOnlyNote info={info} route={route} what="critical paths" openWhole={openWhole} />
      {!parsed && <p class="gt-error">Choose a task, a region or a goroutine: a task's page and a goroutine's page link here.</p>}
      {parsed && !data && <Pending state={state} what={`the critical path of ${what(parsed.selection)}`} />}
      {parsed && data && (parsed.aggregate
        ? <Aggregate agg={data.result} sel={parsed.selection} />
        : <OnePath path={data.result} t0={data.stats.time?.start ?? 0} sel={parsed.selection} />)}
    </div>
  );
}
