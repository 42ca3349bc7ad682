import { Fragment } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { formatCount, formatDuration, formatPercent, typeName } from '../../model/format.js';
import { cached } from '../../model/queries.js';
import { Pending, useAsync } from '../common/query.jsx';
import { SortableTable } from '../common/SortableTable.jsx';
import { chooseComparison, comparisonOf } from './comparison.js';
import { DiffFlame } from './DiffFlame.jsx';
import { HistogramOverlay, MmuOverlay } from './Overlays.jsx';

// Two traces of a program side by side ("Compare with…"): the figures of `gotrace diff`
// (Trace.diffFrom), this trace against the one chosen here as the baseline. Deltas are
// this trace minus the baseline.

const signed = (ns) => (ns > 0 ? `+${formatDuration(ns)}` : ns < 0 ? `−${formatDuration(-ns)}` : '0');
const signedCount = (n) => (n > 0 ? `+${formatCount(n)}` : n < 0 ? `−${formatCount(-n)}` : '0');
const relative = (d, before) => (before ? `${d >= 0 ? '+' : '−'}${formatPercent(Math.abs(d), before)}` : d ? 'new' : '');

function Delta({ d, before, count }) {
  const cls = d > 0 ? 'gt-up' : d < 0 ? 'gt-down' : '';
  return <span class={cls}>{count ? signedCount(d) : signed(d)} <small>{relative(d, before)}</small></span>;
}

// A change sorts by its size, either way (as `gotrace diff` orders groups and stacks): the
// largest decrease is as much news as the largest increase.
const BY_SIZE = 'Sort by the size of the change, increase or decrease';

function Groups({ groups }) {
  const stat = (key) => ({
    key, numeric: true, title: BY_SIZE, value: (g) => Math.abs(g.delta[key] ?? 0),
    render: (g) => <Delta d={g.delta[key] ?? 0} before={g.before[key] ?? 0} />,
  });
  const columns = [
    { key: 'name', label: 'Goroutine group', value: (g) => g.name, render: (g) => g.name || '(no start function)' },
    { key: 'count', label: 'Count', numeric: true, value: (g) => g.delta.count,
      render: (g) => <span>{formatCount(g.before.count)} → {formatCount(g.after.count)}</span> },
    { ...stat('exec'), label: 'Δ Execution' },
    { ...stat('sched_wait'), label: 'Δ Sched wait' },
    { ...stat('block'), label: 'Δ Blocked' },
    { ...stat('syscall'), label: 'Δ Syscall' },
    { ...stat('range:GC mark assist'), label: 'Δ GC assist' },
    { ...stat('total'), label: 'Δ Total' },
  ];
  const reasons = [...new Set(groups.flatMap((g) => Object.keys(g.delta).filter((k) => k.startsWith('block:'))))];
  for (const r of reasons) columns.splice(columns.length - 1, 0, { ...stat(r), label: `Δ ${r.slice(6) || 'blocked (no reason)'}` });
  return <SortableTable testid="diff-groups" columns={columns} rows={groups} initialSort="total" limit={100} />;
}

// Task or region types: counts (of tasks, those that do not end too: they have no
// duration) and the durations of those that end, before → after; a side with none, "—".
function Types({ rows, testid }) {
  const q = (side, k) => (r) => r[side].quantiles[k];
  const ended = (r, side) => r[side].quantiles.count;
  const dur = (r, side, k) => (ended(r, side) ? formatDuration(q(side, k)(r)) : '—');
  const pair = (k, label) => ({
    key: k, label, numeric: true, title: BY_SIZE, value: (r) => Math.abs(r.delta[k]),
    render: (r) => (
      <span>
        {dur(r, 'before', k)} → {dur(r, 'after', k)}{' '}
        {ended(r, 'before') > 0 && ended(r, 'after') > 0 && <Delta d={r.delta[k]} before={q('before', k)(r)} />}
      </span>
    ),
  });
  const all = (r, side) => ended(r, side) + (r.not_ended?.[side] ?? 0);
  const columns = [
    { key: 'name', label: 'Type', value: (r) => r.name, render: (r) => typeName(r.name) },
    { key: 'count', label: 'Count', numeric: true, value: (r) => all(r, 'after') - all(r, 'before'),
      render: (r) => (
        <span>
          {formatCount(all(r, 'before'))} → {formatCount(all(r, 'after'))}
          {(r.not_ended?.before > 0 || r.not_ended?.after > 0) && (
            <small class="muted" data-testid="not-ended"> ({formatCount(r.not_ended.before)} → {formatCount(r.not_ended.after)} not ended)</small>
          )}
        </span>
      ) },
    pair('p50', 'p50'), pair('p90', 'p90'), pair('p99', 'p99'), pair('max', 'Max'),
    { key: 'hist', label: 'Durations (outline: baseline)', sortable: false, value: () => 0,
      render: (r) => <HistogramOverlay before={r.before.histogram} after={r.after.histogram} /> },
  ];
  return <SortableTable testid={testid} columns={columns} rows={rows} initialSort="name" initialDesc={false} />;
}

function Gc({ gc }) {
  const { before: a, after: b } = gc;
  return (
    <div class="gt-diff-gc">
      <MmuOverlay before={a.mmu} after={b.mmu} />
      <table class="gt-table" data-testid="diff-gc">
        <thead><tr><th /><th>Baseline</th><th>This trace</th><th>Δ</th></tr></thead>
        <tbody>
          <tr><td>GC cycles</td><td>{formatCount(a.cycles)}</td><td>{formatCount(b.cycles)}</td><td><Delta d={b.cycles - a.cycles} before={a.cycles} count /></td></tr>
          <tr><td>Stops of the world</td><td>{formatCount(a.stw_count)}</td><td>{formatCount(b.stw_count)}</td><td><Delta d={b.stw_count - a.stw_count} before={a.stw_count} count /></td></tr>
          <tr><td>Stopped for</td><td>{formatDuration(a.stw_ns)}</td><td>{formatDuration(b.stw_ns)}</td><td><Delta d={b.stw_ns - a.stw_ns} before={a.stw_ns} /></td></tr>
          {a.mmu.map(([w, u], i) => (
            <tr key={w}><td>MMU over {formatDuration(w)}</td><td>{(100 * u).toFixed(1)}%</td><td>{b.mmu[i] ? `${(100 * b.mmu[i][1]).toFixed(1)}%` : '—'}</td><td /></tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Profiles({ trace, profiles }) {
  const save = async (type) => {
    const bytes = await trace.call('diffPprof', type);
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${type}-diff.pb.gz`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return Object.entries(profiles).map(([type, p]) => {
    const cpu = type === 'cpu';
    const v = (x) => (cpu ? x.count : x.ns);
    return (
      <section key={type} class="gt-diff-profile" data-testid={`diff-profile-${type}`}>
        <h3>
          {cpu ? 'CPU samples' : `${type} profile`}: {cpu ? formatCount(v(p.before)) : formatDuration(v(p.before))} → {cpu ? formatCount(v(p.after)) : formatDuration(v(p.after))}
          {' '}<Delta d={v(p.delta)} before={v(p.before)} count={cpu} />
          {p.stacks.length > 0 && <>{' '}<button type="button" data-testid={`diff-pprof-${type}`} onClick={() => save(type)}>Download the differential pprof</button></>}
        </h3>
        {p.stacks.length === 0 ? <p class="muted" data-testid={`diff-profile-none-${type}`}>None in either trace.</p> : <>
        <DiffFlame stacks={p.stacks} cpu={cpu} testid={`diff-flame-${type}`} />
        <SortableTable
          columns={[
            { key: 'stack', label: 'Stack (own frame, and callers where two read alike)', value: (s) => s.stack, render: (s) => <code title={s.stack.split(';').join('\n')}>{s.name}</code> },
            { key: 'before', label: 'Baseline', numeric: true, value: (s) => v(s.before), format: cpu ? formatCount : formatDuration },
            { key: 'after', label: 'This trace', numeric: true, value: (s) => v(s.after), format: cpu ? formatCount : formatDuration },
            { key: 'delta', label: 'Δ', numeric: true, title: BY_SIZE, value: (s) => Math.abs(v(s.delta)), render: (s) => <Delta d={v(s.delta)} before={v(s.before)} count={cpu} /> },
          ]}
          rows={p.stacks}
          initialSort="delta"
          limit={10}
        />
        </>}
      </section>
    );
  });
}

export function CompareView({ trace, info }) {
  const [base, setBase] = useState(() => comparisonOf(trace));
  const [reading, setReading] = useState(null);
  const input = useRef(null);
  const choose = async (file) => {
    if (!file) return;
    setReading({ name: file.name });
    try {
      setBase(await chooseComparison(trace, file));
      setReading(null);
    } catch (e) {
      setReading({ name: file.name, error: String(e.message ?? e) });
    }
  };
  const diff = useAsync(async () => (base ? cached(trace, `diff ${base.name} ${base.eventCount}`, () => trace.call('diff', 100000)) : null), [trace, base]);
  return (
    <section class="gt-view gt-compare" data-testid="compare-view">
      <h2>Compare with another trace</h2>
      <p>
        {base ? <Fragment>This trace against <strong data-testid="comparison-name">{base.name}</strong> ({formatCount(base.eventCount)} events), the baseline: deltas are this trace minus the baseline. </Fragment>
          : 'Choose a trace of the same program (before a change, a good run) to compare this one with. '}
        <button type="button" data-testid="choose-comparison" onClick={() => input.current?.click()}>{base ? 'Choose another…' : 'Compare with…'}</button>
        <input ref={input} type="file" hidden data-testid="comparison-input" onChange={(e) => choose(e.currentTarget.files[0])} />
      </p>
      {reading && !reading.error && <p class="gt-loading">Reading {reading.name}…</p>}
      {reading?.error && <p class="gt-error" role="alert">Could not read {reading.name}: {reading.error}</p>}
      {base?.partialError && <p class="gt-note">The baseline could be read only in part: {base.partialError}</p>}
      {base && !diff.data && <Pending state={diff} what="the comparison" />}
      {diff.data && (
        <Fragment>
          <h3>Goroutine groups</h3>
          <Groups groups={diff.data.groups} />
          {diff.data.tasks.length > 0 && <Fragment><h3>Task types</h3><Types rows={diff.data.tasks} testid="diff-tasks" /></Fragment>}
          {diff.data.regions.length > 0 && <Fragment><h3>Region types</h3><Types rows={diff.data.regions} testid="diff-regions" /></Fragment>}
          <h3>Garbage collection</h3>
          <Gc gc={diff.data.gc} />
          <h3>Profiles</h3>
          <Profiles trace={trace} profiles={diff.data.profiles} />
        </Fragment>
      )}
      {info?.partialError && <p class="gt-note">This trace was read only in part.</p>}
    </section>
  );
}
