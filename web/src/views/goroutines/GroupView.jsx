import { href } from '../../model/router.js';
import { useMemo, useState } from 'preact/hooks';
import { BreakdownBar, BreakdownLegend } from '../common/BreakdownBar.jsx';
import { CopyCSVButton, SortableTable } from '../common/SortableTable.jsx';
import { blockTotal, unknownTime } from '../common/breakdown.js';
import { countOf, formatCount, formatDuration, timelineHref } from '../../model/format.js';
import { goroutineHref } from '../common/links.js';
import { scopedPart, statsOf } from '../../model/queries.js';
import { ScopeNote, scopeOf, scopeQuery } from '../common/scope.jsx';
import { Pending, useAsync } from '../common/query.jsx';

const stat = (key, label) => ({
  key, label, numeric: true, value: (g) => g.stats[key] ?? 0, format: formatDuration, csv: (g) => g.stats[key] ?? 0,
});

export function goroutineColumns(maxTotal, origin) {
  return [
    {
      key: 'id', label: 'Goroutine', numeric: true, value: (g) => g.id,
      render: (g) => <a href={goroutineHref(g.id)} data-testid='goroutine-link'>G{g.id}</a>,
    },
    {
      key: 'start', label: 'Started', numeric: true, value: (g) => (g.start ? g.start - origin : -1),
      format: (v) => (v < 0 ? 'never ran' : formatDuration(v)), csv: (g) => (g.start ? g.start - origin : ''),
    },
    stat('total', 'Total'),
    stat('exec', 'Execution'),
    stat('sched_wait', 'Sched wait'),
    { key: 'block', label: 'Block', numeric: true, value: (g) => blockTotal(g.stats), format: formatDuration },
    stat('syscall', 'Syscall'),
    stat('syscall_block', 'Syscall blocked'),
    { key: 'unknown', label: 'Unknown', numeric: true, value: (g) => unknownTime(g.stats), format: formatDuration },
    stat('range:GC mark assist', 'GC assist'),
    {
      key: 'breakdown', label: 'Breakdown', value: (g) => (g.stats.total ? (g.stats.exec ?? 0) / g.stats.total : 0), csv: () => '',
      render: (g) => <BreakdownBar stats={g.stats} scale={maxTotal} />,
    },
  ];
}

// One group: the goroutines that start in the same function. The worker sorts them and
// sends the first rows (a group can hold hundreds of thousands). Of a trace opened in
// parts, the whole trace's or the part's (common/scope.jsx).
export function GroupView({ trace, name, info, query, route }) {
  const [sort, setSort] = useState({ key: 'total', desc: true });
  const [limit, setLimit] = useState(200);
  const scope = scopeOf(info, query);
  const state = useAsync(async () => {
    const [data, stats] = await Promise.all([
      scopedPart(trace, scope, 'goroutineGroupPage', { name, sort: sort.key, desc: sort.desc, limit }),
      statsOf(trace),
    ]);
    return { data, stats };
  }, [trace, name, sort.key, sort.desc, limit, scope]);
  const data = state.data?.data;
  const columns = useMemo(
    () => goroutineColumns(data?.maxTotal ?? 1, trace.origin),
    [data],
  );
  const note = <ScopeNote info={info} route={route} scope={scope} what='goroutines of this group' />;
  const groupsHref = href('/goroutines', scopeQuery(query));
  if (!state.data) return <>{note}<Pending state={state} what='goroutines' /></>;
  if (!data) return <>{note}<p class='gt-error'>No goroutine group starts in “{name}”. <a href={groupsHref}>All groups</a></p></>;
  const { group, rows } = data;
  const end = state.data.stats.time.end;
  const t0 = data.first ?? state.data.stats.time.start;
  const t1 = data.last ?? end;
  const allRows = async () => (await scopedPart(trace, scope, 'goroutineGroup', name)).goroutines;
  return (
    <section class='gt-view' data-testid='group-view'>
      <header class='gt-view-head'>
        <h2><a href={groupsHref}>Goroutines</a> › <span data-testid='group-name'>{name || '(no start function)'}</span></h2>
        <span><b data-testid='group-count'>{formatCount(group.count)}</b> {group.count === 1 ? 'goroutine' : 'goroutines'}, {formatDuration(group.exec)} execution, {formatDuration(group.total)} in all</span>
        <CopyCSVButton columns={columns.filter((c) => c.key !== 'breakdown')} rows={allRows} name='the goroutines' />
        <a data-testid="profiles-of-group" href={href('/profiles/sync', { group: name })}>Profiles of this group</a>
        <a data-testid="timeline-of-group" href={timelineHref(t0, t1, { group: name })}>Timeline</a>
      </header>
      {note}
      <BreakdownLegend statsList={[group.stats]} />
      <SortableTable
        testid='group-goroutines'
        columns={columns}
        rows={rows}
        rowKey={(g) => g.id}
        remote={{ sort, onSort: setSort, total: data.count, onShowAll: () => setLimit(Infinity) }}
      />
    </section>
  );
}
