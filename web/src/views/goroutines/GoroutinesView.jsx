import { useMemo } from 'preact/hooks';
import { BreakdownBar, BreakdownLegend } from '../common/BreakdownBar.jsx';
import { blockReasons } from '../common/breakdown.js';
import { CopyCSVButton, SortableTable } from '../common/SortableTable.jsx';
import { countOf, formatCount, formatDuration } from '../../model/format.js';
import { scopedPart } from '../../model/queries.js';
import { ScopeNote, scopeOf, scopeQuery } from '../common/scope.jsx';
import { Pending, useAsync } from '../common/query.jsx';
import { groupHref } from '../common/links.js';


const dur = (key, label) => ({ key, label, numeric: true, value: (g) => g[key] ?? 0, format: formatDuration, csv: (g) => g[key] ?? 0 });

// The block time of a group split by reason, one column per reason any group has (as
// the breakdown bar splits it, and as go tool trace's table does).
const blockColumn = (reason) => {
  const key = `block:${reason}`;
  return { key, label: `Block: ${reason || 'unknown reason'}`, numeric: true, value: (g) => g.stats[key] ?? 0, format: formatDuration, csv: (g) => g.stats[key] ?? 0 };
};

// `linkQuery`: what the links to each group's page carry (a chosen scope).
export function groupColumns(maxTotal, reasons = [], linkQuery = {}) {
  return [
    {
      key: 'name',
      label: 'Start function',
      value: (g) => g.name,
      render: (g) => <a href={groupHref(g.name, linkQuery)} data-testid="group-link">{g.name || '(no start function)'}</a>,
    },
    { key: 'count', label: 'Goroutines', numeric: true, value: (g) => g.count, format: formatCount },
    // The bar and the total first: a column per block reason follows, past the screen's
    // width on a busy trace.
    {
      key: 'breakdown', label: 'Breakdown', title: 'Sort by execution share',
      value: (g) => (g.total ? g.exec / g.total : 0), csv: () => '',
      render: (g) => <BreakdownBar stats={g.stats} scale={maxTotal} />,
    },
    dur('total', 'Total'),
    dur('exec', 'Execution'),
    dur('sched_wait', 'Sched wait'),
    dur('block', 'Block'),
    ...reasons.map(blockColumn),
    dur('syscall', 'Syscall'),
    dur('syscall_block', 'Syscall blocked'),
    dur('unknown', 'Unknown'),
    {
      key: 'assist', label: 'GC assist', numeric: true,
      value: (g) => g.stats['range:GC mark assist'] ?? 0, format: formatDuration, csv: (g) => g.stats['range:GC mark assist'] ?? 0,
    },
  ];
}

// Goroutines grouped by start function, as `go tool trace`'s goroutine analysis; of a
// trace opened in parts, the whole trace's or the part's (common/scope.jsx).
export function GoroutinesView({ trace, info, query, route }) {
  const scope = scopeOf(info, query);
  const state = useAsync(() => scopedPart(trace, scope, 'goroutineGroups'), [trace, scope]);
  const data = state.data;
  const columns = useMemo(
    () => groupColumns(data ? Math.max(...data.groups.map((g) => g.total)) : 1, data ? blockReasons(data.groups.map((g) => g.stats)) : [], scopeQuery(query)),
    [data, query?.scope],
  );
  const note = <ScopeNote info={info} route={route} scope={scope} what="goroutines" />;
  if (!data) return <>{note}<Pending state={state} what="goroutines" /></>;
  return (
    <section class="gt-view" data-testid="goroutines-view">
      <header class="gt-view-head">
        <h2>Goroutines</h2>
        <span>{countOf(data.count, 'goroutine')} in {countOf(data.groups.length, 'group')} by start function</span>
        <CopyCSVButton columns={columns.filter((c) => c.key !== 'breakdown')} rows={data.groups} name="the groups" />
        <a href="#/profiles/sched">Profiles</a>
        <a href="#/timeline">Timeline</a>
      </header>
      {note}
      <BreakdownLegend statsList={data.groups.map((g) => g.stats)} />
      <SortableTable testid="groups-table" columns={columns} rows={data.groups} initialSort="exec" rowKey={(g) => g.name} />
    </section>
  );
}
