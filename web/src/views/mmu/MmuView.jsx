import { useEffect, useRef, useState } from 'preact/hooks';
import { formatDuration, timelineHref } from '../../model/format.js';
import { cached, scopedPart, statsOf } from '../../model/queries.js';
import { ScopeNote, scopeOf } from '../common/scope.jsx';
import { Pending, useAsync } from '../common/query.jsx';
import { chartGeometry, drawMmu } from './mmuChart.js';

// A worst window's start, to a precision of about its length: windows of 1 µs that begin
// 16 µs apart 13 ms in read "13.563 ms" and "13.579 ms", not both "13.6 ms".
function startLabel(ns, window) {
  const digits = ns > 0 && window > 0 ? Math.ceil(Math.log10(ns / window)) + 1 : 3;
  return formatDuration(ns, Math.min(15, Math.max(3, digits)));
}

const FLAGS = [
  { key: 'stw', label: 'STW', def: true },
  { key: 'background', label: 'Background workers', def: true },
  { key: 'assist', label: 'Mark assists', def: true },
  { key: 'sweep', label: 'Sweeping', def: true },
  { key: 'perProc', label: 'Per proc', def: false },
];

/** Window lengths from 1µs to the trace's length, by decades, the length itself last. */
export function windowsFor(duration) {
  const out = [];
  for (let w = 1e3; w < duration; w *= 10) out.push(w);
  out.push(Math.max(1e3, Math.floor(duration)));
  return out;
}

/** Window i's length, with the digits that tell it from the one before (the trace's
 *  length, last, may round to the decade before it: 1.002 s after 1 s). */
function windowLabel(windows, i) {
  let digits = 3;
  const label = (k) => formatDuration(windows[k].window, digits);
  while (i > 0 && digits < 10 && label(i) === label(i - 1)) digits++;
  return label(i);
}

/** The engine's curve stops where the MMU stops changing; the windows computed for the
 *  table carry it on to the trace's length, so the axis spans 1µs to the whole trace. */
export function fullCurve(mmu, duration) {
  const points = new Map();
  for (let i = 0; i < mmu.curve.window.length; i++) points.set(mmu.curve.window[i], mmu.curve.mmu[i]);
  for (const w of mmu.windows) points.set(w.window, w.mmu);
  const sorted = [...points].sort((a, b) => a[0] - b[0]);
  return {
    window: Float64Array.from(sorted, (p) => p[0]),
    mmu: Float64Array.from(sorted, (p) => p[1]),
    xMin: Math.min(1e3, sorted[0]?.[0] ?? 1e3),
    xMax: Math.max(duration, sorted[sorted.length - 1]?.[0] ?? duration),
  };
}

function flagsOf(query) {
  const f = {};
  for (const { key, def } of FLAGS) f[key] = query.has(key) ? query.get(key) === '1' : def;
  return f;
}

// Of a trace opened in parts, the whole trace's MMU (its index's curve, of the default
// flags) or the part's (common/scope.jsx).
export function MmuView({ trace, query = new URLSearchParams(), info, route }) {
  const flags = flagsOf(query);
  const picked = query.get('window') ? Number(query.get('window')) : null;
  const defaultFlags = FLAGS.every(({ key, def }) => flags[key] === def);
  const scope = defaultFlags ? scopeOf(info, Object.fromEntries(query), { summaries: false }) : 'open';
  const state = useAsync(async () => {
    const stats = scope === 'whole' ? info.parts.stats : await statsOf(trace);
    const windows = windowsFor(stats.time.duration);
    if (picked && !windows.includes(picked)) windows.push(picked);
    windows.sort((a, b) => a - b);
    const mmu = scope === 'whole'
      ? await scopedPart(trace, scope, 'mmu', { windows, flags })
      : await cached(trace, `mmu ${JSON.stringify(flags)} ${windows}`, () => trace.mmu(windows, flags));
    return { stats, mmu, curve: fullCurve(mmu, stats.time.duration) };
  }, [trace, JSON.stringify(flags), picked, scope]);
  const ref = useRef(null);
  const [hover, setHover] = useState(null);
  const mmu = state.data?.mmu;
  const curve = state.data?.curve;
  useEffect(() => {
    if (!mmu) return undefined;
    const canvas = ref.current;
    const draw = () => drawMmu(canvas, curve, picked);
    draw();
    const ro = new ResizeObserver(draw);
    ro.observe(canvas);
    return () => ro.disconnect();
  }, [mmu, picked]);
  const setQuery = (change) => {
    const q = new URLSearchParams(query);
    for (const [k, v] of Object.entries(change)) {
      if (v == null) q.delete(k);
      else q.set(k, v);
    }
    const s = q.toString();
    location.hash = `#/mmu${s ? `?${s}` : ''}`;
  };
  const head = (
    <header class="gt-view-head">
      <h2>Minimum mutator utilization</h2>
      <div class="gt-filters" data-testid="mmu-flags">
        {FLAGS.map(({ key, label }) => (
          <label key={key}>
            <input type="checkbox" data-flag={key} checked={flags[key]} onChange={(e) => setQuery({ [key]: e.currentTarget.checked ? '1' : '0' })} /> {label}
          </label>
        ))}
      </div>
      <a href="#/timeline">Timeline</a>
    </header>
  );
  const note = (
    <ScopeNote info={info} route={route} scope={scope} what="MMU" summaries={false}
      unavailable={defaultFlags ? null : "The whole trace's is of the default flags (every kind of GC work but per-proc)."} />
  );
  if (!mmu) return <section class="gt-view">{head}{note}<Pending state={state} what="the MMU" /></section>;
  const windowAt = (e) => {
    const box = e.currentTarget.getBoundingClientRect();
    const g = chartGeometry(box.width, box.height, curve.xMin, curve.xMax);
    const w = g.windowAt(e.clientX - box.left);
    return w >= curve.xMin && w <= curve.xMax * 1.0001 ? w : null;
  };
  const curveAt = (w) => {
    const c = curve;
    let best = 0;
    for (let i = 1; i < c.window.length; i++) if (Math.abs(Math.log(c.window[i] / w)) < Math.abs(Math.log(c.window[best] / w))) best = i;
    return { window: c.window[best], mmu: c.mmu[best] };
  };
  // Under the pointer, or else the window picked (the address keeps it, whatever the flags).
  const shownPoint = hover ?? mmu.windows.find((w) => w.window === picked) ?? null;
  return (
    <section class="gt-view" data-testid="mmu-view">
      {head}
      {note}
      <p>GC work counted: <b data-testid="mmu-flags-text">{mmu.flags}</b>{mmu.series > 1 ? `, ${mmu.series} series (one per proc)` : ''}. Click the chart to list the worst windows of that length.</p>
      <canvas
        ref={ref}
        class="gt-mmu-chart"
        data-testid="mmu-chart"
        onMouseMove={(e) => { const w = windowAt(e); setHover(w ? curveAt(w) : null); }}
        onMouseLeave={() => setHover(null)}
        onClick={(e) => { const w = windowAt(e); if (w) setQuery({ window: String(Math.round(curveAt(w).window)) }); }}
      />
      <div class="gt-flame-info" data-testid="mmu-readout">{shownPoint ? `window ${formatDuration(shownPoint.window)}: MMU ${(shownPoint.mmu * 100).toFixed(1)}%` : '\u00a0'}</div>
      <table class="gt-table" data-testid="mmu-windows">
        <thead>
          <tr><th class="num">Window</th><th class="num">MMU</th><th class="num">0.1%ile</th><th class="num">1%ile</th><th class="num">5%ile</th><th>Worst windows (since trace start: utilization)</th></tr>
        </thead>
        <tbody>
          {mmu.windows.map((w, i) => (
            <tr key={w.window} class={picked === w.window ? 'sel' : ''}>
              <td class="num" data-testid="mmu-window" title={`${w.label} (as Go writes it)`}>{windowLabel(mmu.windows, i)}</td>
              <td class="num">{(w.mmu * 100).toFixed(2)}%</td>
              {[1, 2, 3].map((k) => <td key={k} class="num">{w.mud[k] ? `${(w.mud[k].util * 100).toFixed(2)}%` : ''}</td>)}
              <td>
                {w.worst.map((x, i) => (
                  <a key={i} class="gt-worst" data-testid="worst-window" href={timelineHref(x.time, x.time + w.window, { r0: Math.round(x.time), r1: Math.round(x.time + w.window) })}>
                    {startLabel(x.time - trace.origin, w.window)}: {(x.util * 100).toFixed(2)}%
                  </a>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
