// The timeline: a canvas of every track, zoomed and panned by the person, fed by
// level-of-detail queries for the visible rows only. The view (t0, t1, selection) lives
// in the URL hash.
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { navigate } from '../../model/router.js';
import { createStripCache, drawFrame, hitTest, MIN_LABEL_WIDTH } from '../../render/draw.js';
import { AXIS_HEIGHT, layoutRows, stickyHeader, TASKS_GROUP, trackKey } from '../../render/layout.js';
import { useCanvasTheme } from '../../render/theme.js';
import { Details } from './Details.jsx';
import { Legend } from './Legend.jsx';
import { EventDetails } from './EventDetails.jsx';
import { RangeStats } from './RangeStats.jsx';
import { ClockToggle, useWallClock } from './ClockToggle.jsx';
import { clampSpan, formatSel, num, parseQueryNow, parseSel } from './view.js';
import { arrowsFor, flowArrows } from './arrows.js';
import { useUrlSync } from './urlSync.js';
import { savedLabelWidth, saveLabelWidth } from './labelWidth.js';
import { tipLines } from './tooltip.js';
import { spanLane } from '../../render/content.js';
import { OutsidePart, ScopeNote, scopeOf } from '../common/scope.jsx';
import { generationAt } from '../../model/parts.js';
import { formatDuration } from '../../model/format.js';
import { typingIn } from '../common/typing.js';
import { openKeyboardHelp } from '../shell/KeyboardHelp.jsx';

const tracksOf = new WeakMap();
// What one instant of each instants row is, in the details panel.
const INSTANT_NAMES = { logs: 'Log', samples: 'CPU sample', network: 'Network unblock', syscalls: 'Blocked syscall exit' };
/** The trace's TrackList, asked for once per open trace. */
export function trackList(trace) {
  let p = tracksOf.get(trace);
  if (!p) {
    p = trace.tracks();
    tracksOf.set(trace, p);
    p.catch(() => tracksOf.delete(trace));
  }
  return p;
}

// Of a trace opened in parts and read, the timeline is the whole trace's: the part open in
// full detail, the rest zoomed out (the index's buckets, for the proc, thread, GC, STW and
// sweep tracks, the counters and the goroutine groups); zoomed in on the rest further than
// its buckets allow (a bucket wider than ZOOMED_IN_PIXELS), the part there opens in place
// of this one.
const ZOOMED_IN_PIXELS = 4;

export function Timeline({ trace, query, info, openPart, route }) {
  const [list, setList] = useState(null);
  const [error, setError] = useState(null);
  // The whole trace's timeline: {start, end, bucket}, or false where it cannot be had
  // (the part is shown then, as before the trace is read).
  const [extent, setExtent] = useState(null);
  const whole = scopeOf(info, query, { summaries: false }) === 'whole' && extent !== false;
  useEffect(() => {
    let live = true;
    setExtent(null);
    if (whole) {
      trace.call('whole', 'timelineExtent')
        .then((e) => live && setExtent(e))
        .catch(() => live && setExtent(false));
    }
    return () => {
      live = false;
    };
  }, [trace, info?.parts?.complete, query.scope]);
  // Of a trace opened in parts, a link may name a range of another part: kept once seen
  // (the canvas then writes the range it shows, this part's, into the address), until
  // another part opens or the person stays in this one.
  const [outside, setOutside] = useState(null);
  const [stayed, setStayed] = useState(null);  // the range the person chose to stay in this part rather than see
  const [t0, t1] = [num(query.t0), num(query.t1)];
  const same = (r) => r?.[0] === t0 && r?.[1] === t1;
  if (stayed && !same(stayed)) setStayed(null);  // the address moved on: a link there offers the part again
  if (list && info?.parts && !whole && t0 !== null && t1 !== null && !clampSpan(t0, t1, list.start, Math.max(list.end, list.start + 1)) &&
      !same(outside) && !same(stayed)) {
    setOutside([t0, t1]);
  }
  // The rest read meanwhile, the whole trace's timeline shows the range asked for (and,
  // zoomed in that far, opens the part that holds it).
  useEffect(() => {
    if (!whole || !extent || !outside) return;
    navigate('/timeline', { ...parseQueryNow(), t0: Math.round(outside[0]), t1: Math.round(outside[1]) }, { replace: true });
    setOutside(null);
  }, [whole, extent, outside]);
  useEffect(() => {
    let live = true;
    trackList(trace)
      .then((l) => live && setList(l))
      .catch((e) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [trace]);
  // The part open, where the whole trace's timeline has every track in full.
  const part = useMemo(() => (whole && list && extent ? { start: list.start, end: list.end, bucket: extent.bucket } : null), [whole, list, extent]);
  // The whole trace's procs and threads, some of which the part may not have.
  const shown = useMemo(
    () => (part ? {
      ...list,
      start: extent.start,
      end: extent.end,
      procs: union(list.procs, extent.procs),
      threads: union(list.threads, extent.threads),
      sweep: union(list.sweep, extent.sweep),
      goroutines: withWholeGroups(list.goroutines, extent.groups),
      goroutinesOfPart: true,
    } : list),
    [part, list, extent],
  );
  if (error) return <div class="page warning">The timeline could not be built: {error}</div>;
  if (!list || (whole && !extent)) return <div class="page muted">Building the timeline…</div>;
  // Zoomed in on time outside the part: the part that begins there opens, the view kept.
  const openPartAt = (a, b) => openPart(generationAt(info.parts.generations, a), null, { timeline: [a, b] });
  return (
    <>
      {info?.parts && (
        <ScopeNote info={info} route={route} scope={whole ? 'whole' : 'open'} what="timeline" summaries={false} />
      )}
      {whole && (
        <p class="gt-scope muted" data-testid="timeline-overview-note">
          Outside this part (shaded) the timeline shows the procs, threads, GC, STW, sweeps, counters and goroutine
          groups at {formatDuration(extent.bucket)} a step (a goroutine's own lane, tasks, logs and samples: in its
          part); zoomed in there, the part that holds the time opens.
        </p>
      )}
      {outside && !whole && (
        <OutsidePart
          info={info}
          t0={outside[0]}
          t1={outside[1]}
          what="The range asked for"
          openPart={(first, last) => openPart(first, last, { timeline: outside })}
          onDismiss={() => {
            setStayed(outside);
            setOutside(null);
          }}
        />
      )}
      <TimelineCanvas key={whole ? 'whole' : 'part'} trace={trace} list={shown} query={query} part={part} onOutside={openPartAt} />
    </>
  );
}

// The bar of a spans row (tasks, regions) at time t (within slop) in the lane at height
// `y` of the row, or -1.
function spanAt(d, row, t, slop, y) {
  if (!d || d.type !== 'spans') return -1;
  for (let i = 0; i < d.start.length; i++) {
    if (d.start[i] - slop > t || d.end[i] + slop < t) continue;
    const { top, height } = spanLane(row, d.row[i]);
    if (y >= top - 1 && y <= top + height + 1) return i;
  }
  return -1;
}

// The part's goroutines, with the whole trace's groups that none of them is in after the
// part's own (their lanes drawn from the index throughout: `partGroups` counts the part's).
function withWholeGroups(goroutines, names) {
  const have = new Set(goroutines.groups);
  const more = names.filter((n) => !have.has(n));
  return more.length ? { ...goroutines, groups: [...goroutines.groups, ...more], partGroups: goroutines.groups.length } : goroutines;
}

// The ids of both lists, ascending, once each.
function union(a = [], b = []) {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

function TimelineCanvas({ trace, list, query, part, onOutside }) {
  const origin = trace.origin;  // where the ruler and the panels count from
  const start = list.start;
  const end = Math.max(list.end, list.start + 1);
  const scrollRef = useRef(null);
  const canvasRef = useRef(null);
  const tipRef = useRef(null);
  const [size, setSize] = useState({ width: 800, height: 400 });
  const sizeRef = useRef(size);
  sizeRef.current = size;
  const [openGroups, setOpenGroups] = useState(() => new Set());
  const [details, setDetails] = useState(null);
  const [range, setRange] = useState(() => clampSpan(num(query.r0), num(query.r1), start, end));
  // Every wake-up in view drawn as an arrow (flows=1 in the URL), not only the selected
  // goroutine's.
  const [flows, setFlows] = useState(query.flows === '1');
  const [status, setStatus] = useState('');
  const theme = useCanvasTheme();
  const themeRef = useRef(theme);
  themeRef.current = theme;
  const { clock, wall } = useWallClock(trace, query);
  const wallClock = wall ? clock : null;
  const clockRef = useRef(wallClock);
  clockRef.current = wallClock;
  const at = wallClock ? (t) => wallClock.format(t) : null;  // the panels' times

  // Mutable view state: pan and zoom redraw without re-rendering the component.
  const v = useRef(null);
  if (!v.current) {
    // Of the whole trace opened in parts, the part open at first.
    const [t0, t1] = clampSpan(num(query.t0), num(query.t1), start, end) ?? (part ? [part.start, part.end] : [start, end]);
    v.current = {
      t0,
      t1,
      range,
      task: null, // the task marked in the Tasks row
      marked: null, // the key of the goroutine lane the address names (?g=)
      data: new Map(), // trackKey → result
      cover: new Map(), // trackKey → { t0, t1, nsPerPx }
      inFlight: false,
      dirty: true,
      frame: 0,
      selection: null, // { rowKey, start, end, goroutine, track }
      arrows: [],
      edges: null,
      hoverX: null,
      drag: null,
      labelWidth: savedLabelWidth(),
      frameTimes: [],
      // A strip drawn in the worker arriving asks for a frame (requestDraw, set below).
      strips: createStripCache({ onReady: () => v.current.onStrip?.() }),
    };
  }
  const layout = useMemo(() => layoutRows(list, openGroups), [list, openGroups]);
  const rowsRef = useRef(layout);
  rowsRef.current = layout;

  const labelWidth = () => Math.min(v.current.labelWidth, sizeRef.current.width - 200);
  const plotWidth = () => Math.max(1, sizeRef.current.width - labelWidth());

  // Scrolls a goroutine's lane into view once its group is open and the box measured.
  const pendingReveal = useRef(null);
  const measured = useRef(false);
  const revealPending = () => {
    const g = pendingReveal.current;
    const el = scrollRef.current;
    if (g === null || !el || !measured.current) return;
    const row = rowsRef.current.rows.find((r) => r.key === 'goroutine:' + g);
    if (!row) return;
    pendingReveal.current = null;
    const h = el.clientHeight;
    if (row.y < el.scrollTop || row.y + row.height > el.scrollTop + h - AXIS_HEIGHT) {
      el.scrollTop = Math.max(0, row.y - (h - AXIS_HEIGHT) / 3);
    }
  };

  // ---- drawing ----
  const draw = useCallback(() => {
    const s = v.current;
    s.frame = 0;
    const canvas = canvasRef.current;
    if (!canvas) return;
    revealPending();
    const dpr = window.devicePixelRatio || 1;
    const ctx = canvas.getContext('2d');
    const t = performance.now();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const { rows } = rowsRef.current;
    const { width, height } = sizeRef.current;
    const scrollY = scrollRef.current?.scrollTop ?? 0;
    s.arrows = s.flows ? flowArrows(s, rowsRef.current, [scrollY, scrollY + height - AXIS_HEIGHT]) : arrowsFor(s, rowsRef.current);
    const { pending, axes, ruler } = drawFrame(ctx, {
      width,
      height,
      dpr,
      t0: s.t0,
      t1: s.t1,
      start,
      origin,
      end,
      rows,
      scrollY: scrollRef.current?.scrollTop ?? 0,
      data: s.data,
      selection: s.selection,
      marked: s.marked,
      task: s.task,
      range: s.range,
      arrows: s.arrows,
      hoverX: s.hoverX,
      cache: s.strips,
      labelWidth: labelWidth(),
      theme: themeRef.current,
      clock: clockRef.current,
      detail: part && [part.start, part.end],
    });
    s.axes = axes;
    s.ruler = ruler;
    s.frameTimes.push(performance.now() - t);
    // Strips left for later frames (each frame draws a few within its budget).
    if (pending) s.frame = requestAnimationFrame(draw);
    if (s.frameTimes.length > 2000) s.frameTimes.splice(0, 1000);
    canvas.dataset.painted = String((Number(canvas.dataset.painted) || 0) + 1);
  }, [start, end, origin]);

  const requestDraw = useCallback(() => {
    const s = v.current;
    if (!s.frame) s.frame = requestAnimationFrame(draw);
  }, [draw]);
  v.current.onStrip = requestDraw;
  useEffect(requestDraw, [wallClock]);  // the ruler's clock changed
  useEffect(() => () => v.current.strips.dispose(), []);

  // ---- queries: visible rows at the screen's level of detail ----
  const fetchVisible = useCallback(async () => {
    const s = v.current;
    if (s.inFlight) {
      s.dirty = true;
      return;
    }
    s.dirty = false;
    const pw = plotWidth();
    const span = s.t1 - s.t0;
    const nsPerPx = span / pw;
    const top = scrollRef.current?.scrollTop ?? 0;
    const bottom = top + sizeRef.current.height;
    const want = [];
    // Fetch a margin of half a screen on each side, so that panning finds data ready.
    const q0 = Math.max(start, s.t0 - span / 2);
    const q1 = Math.min(end, s.t1 + span / 2);
    const px = Math.max(1, Math.round((q1 - q0) / nsPerPx));
    const seen = new Set();
    const visible = [];
    for (const row of rowsRef.current.rows) {
      if (row.y + row.height < top - 200 || row.y > bottom + 200) continue;
      visible.push(row);
    }
    for (const row of visible) {
      for (const ref of row.tracks) {
        const key = trackKey(ref);
        if (seen.has(key)) continue;
        seen.add(key);
        const c = s.cover.get(key);
        const fine = c && c.nsPerPx <= nsPerPx * 1.3 && c.nsPerPx >= nsPerPx / 4;
        if (c && fine && c.t0 <= Math.max(start, s.t0) && c.t1 >= Math.min(end, s.t1)) continue;
        want.push([ref, q0, q1, px]);
      }
    }
    const selG = s.selection?.goroutine;
    if (s.flows || (selG !== undefined && selG >= 0)) {
      const c = s.cover.get('edges');
      if (!c || c.t0 > s.t0 || c.t1 < s.t1 || c.nsPerPx > nsPerPx * 1.3 || c.nsPerPx < nsPerPx / 4) {
        want.push([{ kind: 'edges' }, q0, q1, px]);
      }
    }
    if (!want.length) return;
    s.inFlight = true;
    setStatus('loading');
    try {
      // Goroutine lanes need the goroutine lanes of the index (built on their first
      // query), and a folded group is a query of each of its goroutines (a group of
      // 300,000 takes a second): the other rows are asked for first, then the goroutines,
      // then one group at a time, and what is left is dropped once the view has moved on
      // (the next fetch asks again for what it shows then).
      const kind = (k) => want.filter(([ref]) => (ref.kind === 'goroutine' || ref.kind === 'group' ? ref.kind : '') === k);
      const batches = [kind(''), kind('goroutine'), ...kind('group').map((w) => [w])];
      for (const batch of batches) {
        if (!batch.length) continue;
        if (s.dirty && batch[0][0].kind === 'group') break;
        const res = await trace.timelines(batch, Boolean(part));
        for (let i = 0; i < batch.length; i++) {
          const key = trackKey(batch[i][0]);
          s.data.set(key, res[i]);
          s.cover.set(key, { t0: q0, t1: q1, nsPerPx: (q1 - q0) / px });
        }
        requestDraw();
      }
      setStatus('');
    } catch (e) {
      setStatus(`query failed: ${e.message}`);
    } finally {
      s.inFlight = false;
    }
    requestDraw();
    if (s.dirty) fetchVisible();
  }, [trace, start, end, requestDraw]);

  // ---- URL ----
  const { sync: syncUrl, isEcho: isOwnUrl } = useUrlSync(v);

  // Of the whole trace opened in parts, once the view settles: zoomed in on time mostly
  // outside the part, further than the whole trace's buckets show, the part there opens.
  const partInView = useCallback(() => {
    const s = v.current;
    clearTimeout(s.partTimer);
    if (!part) return;
    s.partTimer = setTimeout(() => {
      const inPart = Math.max(0, Math.min(s.t1, part.end) - Math.max(s.t0, part.start));
      const nsPerPixel = (s.t1 - s.t0) / plotWidth();
      if (inPart < (s.t1 - s.t0) / 2 && part.bucket > nsPerPixel * ZOOMED_IN_PIXELS) {
        onOutside(Math.max(s.t0, start), Math.min(s.t1, end));
      }
    }, 400);
  }, [part, onOutside, start, end]);

  const setView = useCallback(
    (t0, t1) => {
      const s = v.current;
      const minSpan = 1000;
      let span = Math.max(minSpan, Math.min(t1 - t0, (end - start) * 1.2));
      let a = t0;
      if (span !== t1 - t0) a = (t0 + t1) / 2 - span / 2;
      const lo = start - (end - start) * 0.1;
      const hi = end + (end - start) * 0.1;
      if (a < lo) a = lo;
      if (a + span > hi) a = hi - span;
      s.t0 = a;
      s.t1 = a + span;
      requestDraw();
      fetchVisible();
      syncUrl();
      partInView();
    },
    [start, end, requestDraw, fetchVisible, syncUrl, partInView],
  );
  useEffect(() => {
    partInView();  // a view of another part's time in the address (a reload, a link)
    return () => clearTimeout(v.current.partTimer);
  }, []);

  const zoom = useCallback(
    (factor, atX) => {
      const s = v.current;
      const pw = plotWidth();
      const fx = atX == null ? 0.5 : Math.min(1, Math.max(0, (atX - labelWidth()) / pw));
      const at = s.t0 + (s.t1 - s.t0) * fx;
      const span = (s.t1 - s.t0) * factor;
      setView(at - span * fx, at - span * fx + span);
    },
    [setView, size],
  );

  const pan = useCallback(
    (fraction) => {
      const s = v.current;
      const d = (s.t1 - s.t0) * fraction;
      setView(s.t0 + d, s.t1 + d);
    },
    [setView],
  );

  const fit = useCallback(() => setView(start, end), [setView, start, end]);

  // ---- selection ----
  const select = useCallback(
    async (track, time, goroutineHint) => {
      const s = v.current;
      try {
        const d = await trace.sliceDetails(track, time);
        if (!d) {
          s.selection = null;
          setDetails(null);
        } else {
          s.selection = {
            rowKey: trackKey(d.track.kind === 'gc' || d.track.kind === 'stw' ? { kind: d.track.kind } : d.track),
            track: d.track.kind === 'gc' || d.track.kind === 'stw' ? { kind: d.track.kind } : d.track,
            time,
            start: d.start,
            end: d.end,
            goroutine: d.goroutine,
            wokenBy: d.wokenBy,
          };
          setDetails(d);
          const g = goroutineHint ?? (d.track.kind === 'goroutine' ? d.track.id : undefined);
          if (g !== undefined) revealGoroutine(g);
          // Keep the slice on screen.
          if (d.end < s.t0 || d.start > s.t1) {
            const span = s.t1 - s.t0;
            const mid = (d.start + Math.max(d.start, d.end)) / 2;
            setView(mid - span / 2, mid + span / 2);
          }
        }
      } catch (e) {
        setStatus(`details failed: ${e.message}`);
      }
      s.cover.delete('edges');
      requestDraw();
      fetchVisible();
      syncUrl();
    },
    [trace, requestDraw, fetchVisible, syncUrl, setView],
  );

  const openGroup = (group) =>
    setOpenGroups((prev) => {
      if (prev.has(group)) return prev;
      const n = new Set(prev);
      n.add(group);
      return n;
    });

  const revealGoroutine = useCallback(
    (g) => {
      const group = layout.groupOf.get(g);
      if (group === undefined) return;
      pendingReveal.current = g;
      openGroup(group);
    },
    [layout],
  );

  // Layout, size or groups changed: draw and query.
  useEffect(() => {
    requestDraw();
    fetchVisible();
  }, [layout, size, requestDraw, fetchVisible]);
  useEffect(requestDraw, [theme]);

  // The view follows the URL: on mount (a deep link, a reload) and when a link in the
  // page changes it (a goroutine's lane, a range's zoom). What syncUrl wrote is what is
  // shown already, and changes nothing.
  const shownFromUrl = useRef({});
  const followUrl = () => {
    const s = v.current;
    const shown = shownFromUrl.current;
    // The address syncUrl wrote: the view may have moved on since (its next write is
    // pending), and is not put back.
    const own = isOwnUrl(query);
    const span = clampSpan(num(query.t0), num(query.t1), start, end);
    if (!own && span && (span[0] !== Math.round(s.t0) || span[1] !== Math.round(s.t1))) setView(span[0], span[1]);
    const r = clampSpan(num(query.r0), num(query.r1), start, end);
    const rounded = (x) => x && x.map(Math.round).join();
    if (!own && rounded(r) !== rounded(s.range)) {
      s.range = r;
      setRange(r);
    }
    const sel = parseSel(query.sel);
    const selShown = s.selection ? formatSel(s.selection.track, s.selection.time) : undefined;
    if (!own && sel && query.sel !== selShown) select(sel.track, sel.time);
    if (query.g !== shown.g && query.g !== undefined) revealGoroutine(Number(query.g));
    s.marked = query.g !== undefined ? trackKey({ kind: 'goroutine', id: Number(query.g) }) : null;
    if (query.group !== shown.group && query.group !== undefined) openGroup(query.group);
    if (query.task !== shown.task) {
      s.task = num(query.task);
      if (s.task !== null) openGroup(TASKS_GROUP);
    }
    if (s.flows !== (query.flows === '1')) {
      s.flows = query.flows === '1';
      setFlows(s.flows);
      fetchVisible();
    }
    shownFromUrl.current = { g: query.g, group: query.group, task: query.task };
    // A link out of the trace's span: the address says what is shown instead.
    if (!own && query.t0 !== undefined && (Number(query.t0) !== Math.round(s.t0) || Number(query.t1) !== Math.round(s.t1))) syncUrl();
    requestDraw();
  };
  const urlKey = ['t0', 't1', 'r0', 'r1', 'sel', 'g', 'group', 'task', 'flows'].map((k) => query[k] ?? '').join('|');
  useEffect(followUrl, [urlKey]);

  // Size of the canvas follows its box.
  useEffect(() => {
    const el = scrollRef.current;
    const ro = new ResizeObserver(() => {
      const r = el.getBoundingClientRect();
      measured.current = true;
      setSize({ width: Math.max(300, Math.floor(r.width)), height: Math.max(200, Math.floor(r.height)) });
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    const c = canvasRef.current;
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(size.width * dpr);
    c.height = Math.round(size.height * dpr);
    c.style.width = `${size.width}px`;
    c.style.height = `${size.height}px`;
    draw();
  }, [size, draw]);

  // ---- input ----
  useEffect(() => {
    const onKey = (e) => {
      if (typingIn(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const k = e.key.toLowerCase();
      if (k === 'w') zoom(0.8);
      else if (k === 's') zoom(1.25);
      else if (k === 'a') pan(-0.1);
      else if (k === 'd') pan(0.1);
      else if (k === 'f' || k === '0') fit();
      else if (k === 'escape') {
        v.current.selection = null;
        v.current.range = null;
        setDetails(null);
        setRange(null);
        requestDraw();
        syncUrl();
      } else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [zoom, pan, fit, requestDraw, syncUrl]);

  useEffect(() => {
    const el = scrollRef.current;
    const onWheel = (e) => {
      const scale = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? size.height : 1;
      const dy = e.deltaY * scale;
      const dx = e.deltaX * scale;
      if (e.shiftKey) {
        el.scrollTop += dy || dx;
        e.preventDefault();
        return;
      }
      e.preventDefault();
      const rect = el.getBoundingClientRect();
      if (Math.abs(dx) > Math.abs(dy)) pan(dx / plotWidth());
      else zoom(Math.exp(dy * 0.0015), e.clientX - rect.left);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [zoom, pan, size]);

  const rowAt = (y) => {
    const top = scrollRef.current.scrollTop;
    const cy = y - AXIS_HEIGHT + top;
    if (y < AXIS_HEIGHT) return null;
    const sticky = stickyHeader(rowsRef.current.rows, top);
    if (sticky && y < AXIS_HEIGHT + sticky.height) return sticky;
    for (const r of rowsRef.current.rows) if (cy >= r.y && cy < r.y + r.height) return r;
    return null;
  };
  const timeAt = (x) => {
    const s = v.current;
    return s.t0 + ((x - labelWidth()) / plotWidth()) * (s.t1 - s.t0);
  };
  const local = (e) => {
    const r = canvasRef.current.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };

  const onPointerDown = (e) => {
    if (e.button !== 0) return;
    const [x, y] = local(e);
    const s = v.current;
    const resize = Math.abs(x - labelWidth()) <= 4;
    s.drag = { x0: x, y0: y, t0: s.t0, t1: s.t1, moved: false, select: !resize && (e.shiftKey || y < AXIS_HEIGHT), resize, width0: labelWidth(), id: e.pointerId };
    canvasRef.current.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e) => {
    const [x, y] = local(e);
    const s = v.current;
    const d = s.drag;
    if (d) {
      if (Math.abs(x - d.x0) > 3) d.moved = true;
      if (!d.moved) return;
      hideTip();
      if (d.resize) {
        s.labelWidth = Math.max(MIN_LABEL_WIDTH, Math.min(sizeRef.current.width - 200, d.width0 + x - d.x0));
        requestDraw();
        return;
      }
      if (d.select) {
        const a = timeAt(Math.min(d.x0, x));
        const b = timeAt(Math.max(d.x0, x));
        s.range = [a, b];
        requestDraw();
      } else {
        const dt = ((x - d.x0) / plotWidth()) * (d.t1 - d.t0);
        setView(d.t0 - dt, d.t1 - dt);
      }
      return;
    }
    s.hoverX = x;
    canvasRef.current.style.cursor = Math.abs(x - labelWidth()) <= 4 ? 'col-resize' : '';
    requestDraw();
    showTip(x, y);
  };
  const onPointerUp = (e) => {
    const [x, y] = local(e);
    const s = v.current;
    const d = s.drag;
    s.drag = null;
    if (!d) return;
    if (d.moved) {
      if (d.resize) {
        saveLabelWidth(s.labelWidth);
        fetchVisible();
        return;
      }
      if (d.select && s.range) {
        setRange(s.range);
        syncUrl();
      }
      return;
    }
    const row = rowAt(y);
    if (!row) return;
    if (row.type === 'group') {
      setOpenGroups((prev) => {
        const n = new Set(prev);
        if (n.has(row.group)) n.delete(row.group);
        else n.add(row.group);
        return n;
      });
      return;
    }
    if (x < labelWidth()) return;
    if (row.type === 'instants') {
      const dd = s.data.get(trackKey(row.tracks[0]));
      const i = hitTest(dd, timeAt(x), ((s.t1 - s.t0) / plotWidth()) * 3);
      if (i < 0) return;
      s.selection = null;
      const what = INSTANT_NAMES[row.tracks[0].kind];
      trace
        .eventAt(dd.event[i])
        .then((event) => setDetails({ kind: 'event', event, what, merged: dd.count[i] }))
        .catch((err) => setStatus(`details failed: ${err.message}`));
      requestDraw();
      return;
    }
    if (row.type === 'spans') {
      // A task's bar opens its page, a region's its goroutine's (or its task's); bars
      // merged at this zoom are zoomed in on.
      const dd = s.data.get(trackKey(row.tracks[0]));
      const inRow = y - AXIS_HEIGHT + scrollRef.current.scrollTop - row.y;
      const i = spanAt(dd, row, timeAt(x), ((s.t1 - s.t0) / plotWidth()) * 2, inRow);
      if (i < 0) return;
      if (dd.count[i] > 1) {
        const pad = (dd.end[i] - dd.start[i]) * 0.05;
        setView(dd.start[i] - pad, dd.end[i] + pad);
      } else if (row.tracks[0].kind === 'tasks' || dd.task[i] > 0) {
        navigate(`/task/${dd.task[i]}`);
      } else {
        navigate(`/goroutine/${row.tracks[0].id}`);
      }
      return;
    }
    if (row.type === 'slices') {
      const t = timeAt(x);
      const dd = s.data.get(row.key);
      const i = hitTest(dd, t, ((s.t1 - s.t0) / plotWidth()) * 2);
      if (i >= 0) {
        const inside = Math.min(Math.max(t, dd.start[i]), dd.end[i]);
        select(row.tracks[0], dd.count[i] > 1 ? inside : (dd.start[i] + dd.end[i]) / 2);
      } else {
        s.selection = null;
        setDetails(null);
        requestDraw();
        syncUrl();
      }
    }
  };
  const onLeave = () => {
    v.current.hoverX = null;
    hideTip();
    requestDraw();
  };

  const hideTip = () => {
    if (tipRef.current) tipRef.current.style.display = 'none';
  };
  const showTip = (x, y) => {
    const tip = tipRef.current;
    const row = rowAt(y);
    if (!tip || !row) return hideTip();
    const s = v.current;
    const t = timeAt(x);
    const slop = ((s.t1 - s.t0) / plotWidth()) * 2;
    // Over the label column: the whole label (a long one is cut there).
    const lines = x < labelWidth() ? [row.label.trim()] : tipLines(row, s.data, t, slop, start);
    if (!lines.length) return hideTip();
    tip.textContent = lines.join('\n');
    tip.style.display = 'block';
    const w = tip.offsetWidth;
    tip.style.left = `${Math.min(x + 14, size.width - w - 4)}px`;
    tip.style.top = `${y + scrollRef.current.scrollTop + 14}px`;
  };

  const onScroll = () => {
    requestDraw();
    fetchVisible();
  };

  const frameStats = () => v.current.frameTimes;
  // Exposed for the benchmark script (frame times of drawFrame).
  useEffect(() => {
    window.__gotraceTimeline = {
      frameStats,
      zoom,
      pan,
      fit,
      view: () => ({ t0: v.current.t0, t1: v.current.t1 }),
      range: () => v.current.range,
      markedTask: () => v.current.task,
      markedLane: () => v.current.marked,
      arrows: () => v.current.arrows ?? [],
      labelWidth: () => labelWidth(),
      axes: () => v.current.axes,
      ruler: () => v.current.ruler,
      // What the last query of a track answered (typed arrays), for checks.
      data: (key) => v.current.data.get(key) ?? null,
      stickyHeader: () => stickyHeader(rowsRef.current.rows, scrollRef.current?.scrollTop ?? 0)?.label ?? null,
      rowLabels: () => rowsRef.current.rows.map((r) => r.label),
      rowKeys: () => rowsRef.current.rows.map((r) => r.key),
      idle: () => !v.current.inFlight && !v.current.dirty && !v.current.frame && !v.current.strips.busy(),
      // Where a row is on the canvas (CSS pixels), or null when it is not laid out.
      rowRect: (key) => {
        const r = rowsRef.current.rows.find((x) => x.key === key);
        if (!r) return null;
        return { x: labelWidth(), y: AXIS_HEIGHT + r.y - (scrollRef.current?.scrollTop ?? 0), width: plotWidth(), height: r.height, lanes: r.rowsOf ?? 1 };
      },
    };
    return () => {
      delete window.__gotraceTimeline;
    };
  }, [zoom, pan, fit, size]);

  return (
    <div class="timeline">
      <div class="timeline-bar">
        <button type="button" onClick={fit} title="Fit (F)">
          Fit
        </button>
        <button type="button" onClick={() => zoom(0.5)} title="Zoom in (W)">
          +
        </button>
        <button type="button" onClick={() => zoom(2)} title="Zoom out (S)">
          −
        </button>
        <label class="flows-toggle" title="Arrows for every wake-up in view: who made each goroutine runnable">
          <input
            type="checkbox"
            data-testid="flows-toggle"
            checked={flows}
            onChange={(e) => navigate('/timeline', { ...parseQueryNow(), flows: e.currentTarget.checked ? '1' : undefined }, { replace: true })}
          />{' '}
          Flows
        </label>
        <Legend />
        <ClockToggle clock={clock} wall={wall} />
        <button type="button" class="link-button muted help" data-testid="timeline-keys" onClick={openKeyboardHelp}
          title="Wheel or W/S: zoom · drag or A/D: pan · shift+drag or drag the ruler: select a range · click: details · Esc: clear">
          <kbd>?</kbd> keys
        </button>
        <span class="spacer" />
        <span class="muted" data-testid="timeline-status">
          {status}
        </span>
      </div>
      <div class="timeline-body">
        <div class="timeline-scroll" ref={scrollRef} onScroll={onScroll} data-testid="timeline">
          <canvas
            ref={canvasRef}
            class="timeline-canvas"
            data-testid="timeline-canvas"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerLeave={onLeave}
          />
          <div style={{ height: `${Math.max(0, layout.height + AXIS_HEIGHT - size.height)}px` }} />
          <div ref={tipRef} class="tooltip" data-testid="tooltip" />
        </div>
        {(details || range) && (
          <aside class="side">
            {details?.kind === 'event' && (
              <EventDetails
                event={details.event}
                what={details.what}
                merged={details.merged}
                start={origin}
                at={at}
                onClose={() => setDetails(null)}
              />
            )}
            {details && details.kind !== 'event' && (
              <Details
                details={details}
                start={origin}
                at={at}
                query={parseQueryNow()}
                onSelect={(track, time, g) => select(track, time, g)}
                onClose={() => {
                  v.current.selection = null;
                  setDetails(null);
                  requestDraw();
                  syncUrl();
                }}
              />
            )}
            {range && (
              <RangeStats
                trace={trace}
                list={list}
                range={range}
                goroutine={details && details.kind !== 'event' && details.goroutine >= 0 ? details.goroutine : undefined}
                start={origin}
                at={at}
                part={part}
                onOpenPart={onOutside}
                onClose={() => {
                  v.current.range = null;
                  setRange(null);
                  requestDraw();
                  syncUrl();
                }}
              />
            )}
          </aside>
        )}
      </div>
    </div>
  );
}
