import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { SortableTable } from '../common/SortableTable.jsx';
import { countOf, formatCount, formatDuration, formatPercent, timelineHref, typeName } from '../../model/format.js';
import { cached, groupsOf, regionTypesOf, scopedPart } from '../../model/queries.js';
import { regionTypeLabel } from '../../model/regionTypes.js';
import { Pending, useAsync } from '../common/query.jsx';
import { ScopeNote, scopeOf } from '../common/scope.jsx';
import { layout, maxDepth, topFunctions } from './flameLayout.js';
import { drawFlame, pick, ROW } from './flameRender.js';

export const PROFILE_TYPES = [
  { type: 'net', label: 'Network blocking' },
  { type: 'sync', label: 'Sync blocking' },
  { type: 'syscall', label: 'Syscalls' },
  { type: 'sched', label: 'Scheduler latency' },
];

/** The filter of a profile route's query: group, region (with pc: one of the types of that name), goroutine, t0/t1. */
export function filterOf(query) {
  const f = {};
  if (query.get('group') != null) f.group = query.get('group');
  if (query.get('region') != null) f.region = query.get('region');
  if (f.region != null && query.get('pc') != null) f.regionPc = Number(query.get('pc'));
  if (query.get('goroutine') != null) f.goroutines = [Number(query.get('goroutine'))];
  if (query.get('t0') != null && query.get('t1') != null) f.range = [Number(query.get('t0')), Number(query.get('t1'))];
  return f;
}

// The select option of no filter: a value no group or region type can have.
const ANY = '\u0000any';
const orNull = (value) => (value === ANY ? null : value);

// The region select's options: each name, and where several types share it (begun at
// several places, as Go tells region types apart), each of those types by its pc.
const byName = (name) => `n:${name}`;
const byType = (name, pc) => `t:${pc}:${name}`;
function regionOptions(types) {
  const names = new Map();
  for (const t of types) names.set(t.name, [...(names.get(t.name) ?? []), t]);
  const out = [];
  for (const [name, of] of names) {
    out.push({ value: byName(name), label: of.length > 1 ? `${typeName(name)} (all ${of.length} types)` : typeName(name) });
    if (of.length > 1) for (const t of of) out.push({ value: byType(name, t.pc), label: regionTypeLabel(t) });
  }
  return out;
}
const regionValue = (filter) => (filter.region == null ? ANY : filter.regionPc != null ? byType(filter.region, filter.regionPc) : byName(filter.region));
function regionOf(value) {
  if (value === ANY) return { region: null, pc: null };
  if (value.startsWith('n:')) return { region: value.slice(2), pc: null };
  const colon = value.indexOf(':', 2);
  return { region: value.slice(colon + 1), pc: value.slice(2, colon) };
}

export function profileHref(type, query) {
  const q = query.toString();
  return `#/profiles/${type}${q ? `?${q}` : ''}`;
}

function FlameGraph({ flame, highlight }) {
  const ref = useRef(null);
  const boxes = useRef([]);
  const [focus, setFocus] = useState(0);
  const [hover, setHover] = useState(-1);
  const x = useMemo(() => layout(flame), [flame]);
  const rows = useMemo(() => maxDepth(flame) + 1, [flame]);
  useEffect(() => setFocus(0), [flame]);
  useEffect(() => {
    const canvas = ref.current;
    const draw = () => { boxes.current = drawFlame(canvas, flame, x, focus, highlight); };
    draw();
    const ro = new ResizeObserver(draw);
    ro.observe(canvas);
    return () => ro.disconnect();
  }, [flame, x, focus, highlight]);
  const at = (e) => {
    const box = e.currentTarget.getBoundingClientRect();
    return pick(boxes.current, e.clientX - box.left, e.clientY - box.top);
  };
  const total = flame.value[0];
  const h = hover >= 0 ? hover : -1;
  return (
    <div class="gt-flame">
      <canvas
        ref={ref}
        data-testid="flame-canvas"
        style={{ height: `${Math.max(3, rows) * ROW}px` }}
        onMouseMove={(e) => setHover(at(e))}
        onMouseLeave={() => setHover(-1)}
        onClick={(e) => { const n = at(e); if (n >= 0) setFocus(n === focus ? Math.max(0, flame.parent[n]) : n); }}
      />
      <div class="gt-flame-info" data-testid="flame-hover">
        {h >= 0
          ? `${h === 0 ? 'all' : flame.names[flame.name[h]]}: ${formatDuration(flame.value[h])} (${formatPercent(flame.value[h], total)}), self ${formatDuration(flame.self[h])}, ${countOf(flame.count[h], 'event')}`
          : focus ? 'Click a frame to zoom in, click it again to zoom out.' : 'Click a frame to zoom in.'}
      </div>
    </div>
  );
}

// Of a trace opened in parts, the whole trace's profile (its index's, made in a second
// read) when nothing narrows it, else the part's (common/scope.jsx).
export function ProfilesView({ trace, type = 'sync', query = new URLSearchParams(), info, route }) {
  const filter = filterOf(query);
  const key = JSON.stringify(filter);
  const filtered = key !== '{}';
  const scope = filtered ? 'open' : scopeOf(info, Object.fromEntries(query));
  const [highlight, setHighlight] = useState('');
  const state = useAsync(async () => {
    const flame = scope === 'whole'
      ? await scopedPart(trace, scope, 'flame', type)
      : await cached(trace, `flame ${type} ${key}`, () => trace.flame(type, filter));
    return { shown: `${type} ${key}`, flame, scope };
  }, [trace, type, key, scope]);
  // The choices of the filters need the goroutine and region analyses: asked for only
  // when a filter is used, so that the profile itself opens fast.
  const [choices, setChoices] = useState(null);
  const loadChoices = () => {
    if (choices) return;
    setChoices({ groups: [], regionTypes: [] });
    Promise.all([groupsOf(trace), regionTypesOf(trace)]).then(([goroutines, regions]) => setChoices({
      groups: goroutines.groups.map((g) => g.name),
      regionTypes: regionOptions(regions.types),
    }));
  };
  // A filter already chosen (a link followed, a reload) is named as the list names it.
  useEffect(() => { if (filter.group != null || filter.region != null) loadChoices(); }, [trace, filter.group, filter.region]);
  const groups = choices?.groups.length ? choices.groups : filter.group != null ? [filter.group] : [];
  // Until the choices come, the filter's own (a type by its pc alone).
  const regionTypes = choices?.regionTypes.length ? choices.regionTypes
    : filter.region != null ? [{ value: regionValue(filter), label: filter.regionPc != null ? `${typeName(filter.region)} @ 0x${filter.regionPc.toString(16)}` : typeName(filter.region) }] : [];
  const [download, setDownload] = useState(null);
  useEffect(() => () => download && URL.revokeObjectURL(download.url), [download]);
  useEffect(() => setDownload(null), [type, key]);
  const top = useMemo(() => (state.data ? topFunctions(state.data.flame) : []), [state.data]);
  // value null: no such filter ('' is a name: the group of goroutines with no start
  // function, regions with no name).
  const set = (name, value) => {
    const q = new URLSearchParams(query);
    if (value == null) q.delete(name);
    else q.set(name, value);
    location.hash = profileHref(type, q);
  };
  const setRegion = (value) => {
    const { region, pc } = regionOf(value);
    const q = new URLSearchParams(query);
    q.delete('region');
    q.delete('pc');
    if (region != null) q.set('region', region);
    if (pc != null) q.set('pc', pc);
    location.hash = profileHref(type, q);
  };
  const tabs = (
    <nav class="gt-tabs" data-testid="profile-tabs">
      {PROFILE_TYPES.map((p) => (
        <a key={p.type} href={profileHref(p.type, query)} class={p.type === type ? 'on' : ''} data-type={p.type}>{p.label}</a>
      ))}
    </nav>
  );
  const note = (
    <ScopeNote info={info} route={route} scope={scope} what="profile"
      unavailable={filtered ? "A narrowed profile is the part's (the whole trace's is of every goroutine over all of it)." : null} />
  );
  if (!state.data) return <section class="gt-view">{tabs}{note}<Pending state={state} what="the profile" /></section>;
  const { flame } = state.data;
  const total = flame.value[0];
  const columns = [
    { key: 'name', label: 'Function', value: (r) => r.name },
    { key: 'flat', label: 'Flat', numeric: true, value: (r) => r.flat, format: formatDuration },
    { key: 'flatp', label: 'Flat %', numeric: true, value: (r) => r.flat, format: (v) => formatPercent(v, total) },
    { key: 'cum', label: 'Cum', numeric: true, value: (r) => r.cum, format: formatDuration },
    { key: 'cump', label: 'Cum %', numeric: true, value: (r) => r.cum, format: (v) => formatPercent(v, total) },
    { key: 'count', label: 'Count', numeric: true, value: (r) => r.count, format: formatCount },
  ];
  const saveAs = async () => {
    const bytes = scope === 'whole' ? await trace.call('whole', 'pprof', type) : await trace.pprof(type, filter);
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
    setDownload({ url, size: bytes.length });
    const a = document.createElement('a');
    a.href = url;
    a.download = `${type}.pb.gz`;
    document.body.appendChild(a);
    a.click();
    a.remove();
  };
  const range = filter.range;
  return (
    <section class="gt-view" data-testid="profiles-view" data-shown={state.data.shown} data-scope={state.data.scope} data-loading={state.loading ? 1 : 0}>
      <header class="gt-view-head">
        <h2>Profiles</h2>
        {tabs}
      </header>
      {note}
      <div class="gt-filters">
        <label>Goroutine group{' '}
          <select data-testid="filter-group" onFocus={loadChoices} onMouseDown={loadChoices} value={filter.group ?? ANY} onChange={(e) => set('group', orNull(e.currentTarget.value))}>
            <option value={ANY}>all goroutines</option>
            {groups.map((g) => <option key={g} value={g}>{g || '(no start function)'}</option>)}
          </select>
        </label>
        <label>Region type{' '}
          <select data-testid="filter-region" onFocus={loadChoices} onMouseDown={loadChoices} value={regionValue(filter)} onChange={(e) => setRegion(e.currentTarget.value)}>
            <option value={ANY}>anywhere</option>
            {regionTypes.map((r) => <option key={r.value} value={r.value}>{r.label}</option>)}
          </select>
        </label>
        {filter.goroutines && <span>goroutine G{filter.goroutines[0]} <button type="button" onClick={() => set('goroutine', null)}>×</button></span>}
        {range ? (
          <span>
            time {formatDuration(range[0] - trace.origin)} – {formatDuration(range[1] - trace.origin)}{' '}
            <a href={timelineHref(range[0], range[1])}>timeline</a>{' '}
            <button type="button" onClick={() => { const q = new URLSearchParams(query); q.delete('t0'); q.delete('t1'); location.hash = profileHref(type, q); }}>whole trace</button>
          </span>
        ) : <span>{info?.parts && scope !== 'whole' ? 'all of this part' : 'whole trace'} (select a range on the timeline to narrow it)</span>}
        <label>Find <input type="search" value={highlight} onInput={(e) => setHighlight(e.currentTarget.value)} placeholder="function" /></label>
        <button type="button" data-testid="download-pprof" onClick={saveAs}>Download pprof</button>
        {download && <span data-testid="pprof-size">{formatCount(download.size)} bytes</span>}
      </div>
      <p class="gt-total">
        Total <b data-testid="flame-total" data-ns={total}>{formatDuration(total)}</b> in {countOf(flame.count[0], 'event')}, {countOf(flame.parent.length - 1, 'frame')}
      </p>
      {total === 0 ? <p>Nothing of this kind happened here.</p> : <FlameGraph flame={flame} highlight={highlight} />}
      <h3>Top functions</h3>
      <SortableTable testid="top-functions" columns={columns} rows={top} initialSort="flat" limit={100} rowKey={(r) => r.name} />
    </section>
  );
}
