import { Fragment } from 'preact';
import { useMemo } from 'preact/hooks';
import { SortableTable } from '../common/SortableTable.jsx';
import { countOf, formatCount, formatDuration, typeName } from '../../model/format.js';
import { useAsync } from '../common/query.jsx';
import { bucketUpper } from './buckets.js';
import { criticalPathHref } from '../common/links.js';
import { regionTypeLabel, sharedNames } from '../../model/regionTypes.js';
import { Histogram } from './Histogram.jsx';

// Types (of tasks or regions) with their duration distribution. A click on a histogram
// bar lists the instances whose duration falls in that bucket; `instanceColumns` is the
// columns of that list, or a function of the instances listed that gives them.
// `criticalPaths`: whether the instances' critical paths can be asked for (of the trace
// or part open: not of a whole trace opened in parts). The bar picked is the address's
// (`picked`: { name, pc, min }; `onPick(type, min)` changes it, min null for none): Back
// and a reload bring its list back. Of tasks, the count lists every task of the type, the
// incomplete ones too (min ALL), which no bar holds.
export function DurationTable({ kind, types, label, instancesOf, instanceColumns, extraColumns = [], testid, highlight, picked, onPick, criticalPaths = true }) {
  const pick = useMemo(() => {
    if (picked?.min == null) return null;
    const type = types.find((t) => t.name === picked.name && (picked.pc == null || t.pc === picked.pc));
    return type ? { type, min: picked.min } : null;
  }, [types, picked?.name, picked?.pc, picked?.min]);
  // A type with no complete instance has no durations: "–" (as the CLI's "-"), sorted last.
  const q = (key) => (t) => (t.durations.quantiles.count ? t.durations.quantiles[key] ?? 0 : -1);
  const duration = (v) => (v < 0 ? '–' : formatDuration(v));
  const columns = [
    { key: 'name', label, value: (t) => t.name, render: (t) => <span data-testid="type-name" class={t.name === highlight ? 'gt-hl' : ''} ref={t.name === highlight ? scrollTo : undefined}>{typeName(t.name)}{t.func ? <small> {t.func}:{t.line}</small> : ''}</span> },
    {
      key: 'count', label: 'Count', numeric: true, value: (t) => t.count,
      render: (t) => (kind === 'task'
        ? <button type="button" class="link-button" data-testid="type-count" title="List every task of this type, complete or not" onClick={() => onPick(t, ALL)}>{formatCount(t.count)}</button>
        : <span data-testid="type-count">{formatCount(t.count)}</span>),
    },
    ...(kind === 'task' ? [{ key: 'complete', label: 'Complete', numeric: true, value: (t) => t.complete, format: formatCount }] : []),
    { key: 'total', label: 'Total', numeric: true, value: q('total'), format: duration },
    { key: 'min', label: 'Min', numeric: true, value: q('min'), format: duration },
    { key: 'p50', label: 'Median', numeric: true, value: q('p50'), format: duration },
    { key: 'p99', label: 'p99', numeric: true, value: q('p99'), format: duration },
    { key: 'max', label: 'Max', numeric: true, value: q('max'), format: duration },
    {
      key: 'hist', label: 'Durations (click a bar)', sortable: false, value: () => 0,
      render: (t) => (
        <Histogram
          histogram={t.durations.histogram}
          selected={pick && pick.type === t ? pick.min : null}
          onPick={(b) => onPick(t, b.min)}
        />
      ),
    },
    ...extraColumns,
  ];
  const listed = useAsync(async () => ({ pick, rows: pick ? await instancesOf(pick.type, pick.min) : [] }), [pick]);
  // Region types that share a name are told apart by their pc in links, their function in labels.
  const shared = useMemo(() => (kind === 'region' ? sharedNames(types) : new Set()), [kind, types]);
  const byPc = pick && shared.has(pick.type.name);
  const pathsHref = pick && criticalPathHref({
    [kind === 'task' ? 'taskType' : 'regionType']: pick.type.name, ...(byPc ? { pc: pick.type.pc } : {}), min: pick.min, max: bucketUpper(pick.min),
  });
  const ready = listed.data?.pick === pick;
  const instances = ready ? listed.data.rows : [];
  return (
    <Fragment>
      <SortableTable testid={testid} columns={columns} rows={types} initialSort="total" rowKey={(t) => `${t.name}\u0000${t.pc ?? ''}`} />
      {pick && (
        <div class="gt-instances" data-testid={ready ? 'instances' : 'instances-loading'}>
          <h3>
            {byPc ? regionTypeLabel(pick.type) : typeName(pick.type.name)}: {countOf(instances.length, kind === 'task' ? 'task' : 'region')}{pick.min === ALL ? ', complete or not' : ` of ${formatDuration(pick.min)} to ${formatDuration(bucketUpper(pick.min))}`}
            {criticalPaths && pick.min !== ALL && <>{' '}<a data-testid="bucket-critical-paths" href={pathsHref}>their critical paths</a></>}
            {' '}<button type="button" onClick={() => onPick(pick.type, null)}>close</button>
          </h3>
          <SortableTable columns={typeof instanceColumns === 'function' ? instanceColumns(instances) : instanceColumns} rows={instances} initialSort="duration" limit={200} />
        </div>
      )}
    </Fragment>
  );
}

/** The pick of every instance of a type (in the address: bucket=all). */
export const ALL = 'all';

const scrollTo = (el) => el && el.scrollIntoView({ block: 'center' });
