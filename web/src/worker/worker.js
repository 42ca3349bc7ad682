// The Web Worker that hosts the WebAssembly core. One trace at a time.
//
// Protocol (see ../model/client.js):
//   page → worker  { id, method, args, trace? }
//   worker → page  { id, progress }         while `open` reads and parses
//                  { id, result }           typed arrays in result are transferred
//                  { id, error }            the Error's message
//                  { id, error, cancelled } the request's trace is no longer open
// `open` takes a Blob (a File, or a fetched body); gzip is recognised by its magic bytes
// and inflated here. The trace open before stays open until the new one is read (a file
// that is no trace leaves it open); the result's `trace` numbers the new one. A request
// that names a `trace` is refused once another is open. A Go 1.22+ file larger than
// partBytes() opens in parts: its first generations as soon as they are read (result.parts:
// the generations read, their times and events, the part's [first, last], the stats of
// what was read), the rest read in the background; `partsInfo()` says how far that is,
// and `openPart(first, last)` opens another part as a new trace. Every other method
// calls the Trace method of the same name.
// Cancelling is done by the page: it terminates this worker and starts a new one (the
// parser runs synchronously, so no message could reach it before it finishes).
//
// Once a trace is open, and whenever no request has come for a moment, the analyses
// the views need are computed in the background, one step at a time: a request that
// arrives meanwhile waits for the step under way only.
// The long analyses (the summary, the timeline index, its goroutine lanes, the wake
// index, the MMU curve of the default flags) are built a piece at a time, in the
// background and for a request that needs one still under way alike, so that no request
// waits long behind another's analysis.
import { openTrace, openTraceIndex, loadCore, isDefaultMmuFlags } from 'gotrace';
import { inflateBlob, isGzip } from './read.js';
import { analysisPart, backgroundSteps, wholeTracePart, PIECE_EVENTS } from './analysis-parts.js';
import { nextTurn } from './next-turn.js';
import { partFrom, partTo } from '../model/parts.js';

let trace = null;
let traceId = 0;  // the number of the open trace (open's result.trace)
let core = null;
// A trace too large to hold whole is shown a part at a time: `index` reads it once (its
// stats, its generations), and `trace` is then the part open, generations [first, last].
let index = null;
let openInfo = null;  // what open or openPart returned for the open trace
// Files larger than this are opened in parts of at most partEvents() events (tests make
// both small): the timeline, goroutine, task, region, profile and MMU views show the whole
// trace once it is read, the part in full detail. A part of 1 M events (about 2 s of a busy
// server's trace) shows in about a second: the 94 MB trace (16.8 M events) so takes
// about 590 MiB in all, where held whole it took 1 GB and five seconds.
const partBytes = () => self.gotracePartBytes ?? 48 * 2 ** 20;
const partEvents = () => self.gotracePartEvents ?? 1e6;

// The part that begins at generation `first`, read on until its generations hold more
// than a part's events (the last one read waits for the next), or all are read.
function wholePartFrom(traceIndex, first) {
  let events = 0;
  let counted = first;
  for (;;) {
    const gens = traceIndex.generations;
    for (; counted < gens.length; counted++) events += gens[counted].events;
    if (traceIndex.complete || events > partEvents()) return partFrom(traceIndex.generations, first, partEvents());
    traceIndex.advance(1);
  }
}

// Requests being answered (open awaits while reading), and the background work left.
let inFlight = 0;
let background = null;
// A second trace the open one is compared with ("Compare with…"), kept until another is
// chosen or the open trace changes.
let comparison = null;
let backgroundTimer = null;
let backgroundTurn = 0;  // the next background step scheduled for a turn, if it is this
const QUIET_MS = 150;
const PRIME_EVENTS = 1 << 16;  // one slice of the summary's loop (gotrace/event_slices.h)

// The next background step after `ms` (0: at the next turn of the event loop).
function scheduleBackground(ms) {
  clearTimeout(backgroundTimer);
  backgroundTimer = null;
  const turn = ++backgroundTurn;
  if (!background?.steps.length || inFlight) return;
  if (ms > 0) {
    backgroundTimer = setTimeout(backgroundStep, ms);
  } else {
    nextTurn().then(() => turn === backgroundTurn && backgroundStep());
  }
}

// A step may be async (reading the trace's bytes ahead): requests are answered while it
// waits, and no other step begins before it ends.
let stepping = false;
async function backgroundStep() {
  backgroundTimer = null;
  if (stepping || !background || background.trace !== trace || inFlight) return;
  const current = background;
  let done = true;
  stepping = true;
  try {
    done = (await current.steps[0]()) !== false;
  } catch {
    // A failing analysis is reported to the view that asks for it.
  } finally {
    stepping = false;
  }
  if (done && current === background) current.steps.shift();
  scheduleBackground(0);
}

// The long analyses a request needs before it is answered.
const SUMMARY = ['summary'];
const TIMELINE = ['timeline'];
const needs = {
  goroutines: SUMMARY, tasks: SUMMARY, regions: SUMMARY, pprof: SUMMARY, flame: SUMMARY,
  tracks: TIMELINE, sliceDetails: TIMELINE,
  timeline: TIMELINE,
  timelines: TIMELINE,
  part: SUMMARY,
  criticalPath: SUMMARY, criticalPaths: SUMMARY,
};
function analysesFor(method, args) {
  if (method === 'part' && args[0] === 'wakeups') return ['wakes'];
  if (method === 'part' && args[0] === 'goroutineWakeups') return [];
  if (method === 'mmu') {
    // The curve of the default flags is built a piece at a time; others at once.
    return isDefaultMmuFlags(args[1] ?? {}) ? ['mmu'] : [];
  }
  const goroutineTrack = (track) => track?.kind === 'goroutine' || track?.kind === 'group';
  if ((method === 'timeline' && goroutineTrack(args[0])) ||
      (method === 'timelines' && args[0]?.some?.(([track]) => goroutineTrack(track)))) {
    return ['goroutineLanes'];  // the timeline first, then its goroutine lanes
  }
  return needs[method] ?? [];
}

// Events per piece (tests make pieces small).
const pieceEvents = () => self.gotracePieceEvents ?? PIECE_EVENTS;

// Requests the page gave up on ({ abandon: id }): what they wait for is built no further.
const abandoned = new Set();

// Builds what request `id` needs a piece at a time, letting other requests in between.
async function ready(t, analyses, id) {
  for (const what of analyses) {
    while (!t.advance(what, pieceEvents())) {
      await nextTurn();
      if (t !== trace) throw new Error('the trace was closed');
      if (abandoned.has(id)) throw new Error('cancelled');
    }
  }
}

// How many background steps are left (for benchmarks, which read it in the worker).
self.gotraceBackgroundLeft = () => (background && background.trace === trace ? background.steps.length : 0);

// The WebAssembly heap (for benchmarks): its size, which is its peak (it never shrinks),
// and what its allocator holds in use and free now.
self.gotraceHeap = () => (core ? { bytes: core.HEAPU8.length, ...core.heapUse() } : null);

const methods = {
  async warm(_id, { partBytes, partEvents } = {}) {
    if (partBytes !== undefined) self.gotracePartBytes = partBytes;
    if (partEvents !== undefined) self.gotracePartEvents = partEvents;
    core = await loadCore();
    return null;
  },
  // `whole`: a trace over partBytes() opened whole all the same (the person asked).
  async open(id, blob, { whole = false } = {}) {
    // A gzipped trace is inflated here; any other is streamed by openTrace straight into
    // the engine's memory.
    const input = (await isGzip(blob))
      ? await inflateBlob(blob, (p) => post({ id, progress: { phase: 'reading', ...p } }))
      : blob;
    core = await loadCore();
    const onProgress = progressPoster(id);
    if (input instanceof Blob && input.size > partBytes() && !whole) {
      let newIndex = null;
      try {
        // The whole trace's summaries within the package's budget (tests make it small).
        newIndex = await openTraceIndex(input, { onProgress, generations: 1, summaryBytes: self.gotraceSummaryBytes });
      } catch (e) {
        if (!/no generations/.test(e.message)) throw e;  // an older trace: read whole below
      }
      if (newIndex) {
        // The first part is shown as soon as its generations are read; the rest of the
        // trace is read in the background (indexStep).
        const [first, last] = wholePartFrom(newIndex, 0);
        const t = newIndex.openPart(first, last, { allowPartial: true, onProgress });
        index?.dispose();
        index = newIndex;
        return adopt(t, input.size, { first, last });
      }
    }
    const t = await openTrace(input, { allowPartial: true, onProgress });
    index?.dispose();
    index = null;
    return adopt(t, input.size ?? input.length, null);
  },
  // Another part of a trace opened in parts: generations [first, last]; with `last` null,
  // the part that begins at `first`, with `first` null the one that ends at `last`, chosen
  // here from the generations read (more than the page may know of: the rest of the trace
  // is read meanwhile), reading on until the part is whole.
  openPart(id, first, last) {
    if (!index) throw new Error('the trace open is not opened in parts');
    if (last === null) {
      [first, last] = wholePartFrom(index, first);
    } else if (first === null) {
      [first, last] = partTo(index.generations, last, partEvents());
    }
    // The part open goes first: two parts at once would need twice the memory (and the
    // memory WebAssembly takes it keeps). If the new part cannot be read, none is open.
    trace?.dispose();
    trace = null;
    background = null;
    const t = index.openPart(first, last, { allowPartial: true, onProgress: progressPoster(id) });
    return adopt(t, openInfo.bytes, { first, last });
  },
  // Of a trace opened in parts: goroutine `goid` of the part open, over its whole life
  // (the whole trace's figures, times and regions: TraceIndex.goroutine reads its
  // generations again, one at a time). A life that ends in the generations read is
  // answered at once; one that goes on, once the read has got past its end.
  goroutineLife(id, goid) {
    if (!index || !openInfo?.parts) throw new Error('the trace open is not opened in parts');
    const { first, last } = openInfo.parts;
    for (;;) {
      try {
        return index.goroutine(goid, first, last);
      } catch (e) {
        if (index.complete || !/still being read/.test(e.message)) throw e;
      }
      index.advance(8);
    }
  },
  // Of a trace opened in parts: a part of the whole trace's goroutine, task, region and
  // MMU views (as `part` gives the part's), or a profile of it ('flame', 'pprof'), once
  // the read is over. The profiles are made by a second read (TraceIndex.advanceProfiles),
  // a generation at a time between other requests, if the background has not made them.
  async whole(id, what, arg) {
    const ix = index;
    if (!ix) throw new Error('the trace open is not opened in parts');
    if ((what === 'flame' || what === 'pprof') && ix.complete) {
      for (;;) {
        await ix.readAhead();
        if (ix !== index) throw new Error('the trace was closed');
        if (abandoned.has(id)) throw new Error('cancelled');
        if (!ix.advanceProfiles(1)) break;
        await nextTurn();
      }
    }
    return wholeTracePart(ix, what, arg);
  },
  // Of a trace opened in parts: its generations and stats as read so far.
  partsInfo() {
    if (!index) throw new Error('the trace open is not opened in parts');
    return partsOf(openInfo.parts);
  },
  async openComparison(id, blob) {
    if (!trace) throw new Error('no trace is open');
    const input = (await isGzip(blob)) ? await inflateBlob(blob, () => {}) : blob;
    core = await loadCore();
    const t = await openTrace(input, { allowPartial: true });
    comparison?.dispose();
    comparison = t;
    return { stats: t.stats(), partialError: t.partialError, eventCount: t.eventCount };
  },
  diff(id, top) {
    if (!trace || !comparison) throw new Error('no trace to compare with');
    return trace.diffFrom(comparison, { top });
  },
  diffPprof(id, type) {
    if (!trace || !comparison) throw new Error('no trace to compare with');
    return trace.diffPprofFrom(comparison, type);
  },
  // Timeline queries of the trace open; with `whole`, of a trace opened in parts and read,
  // the whole trace's: the part's answer within the part, the index's zoomed-out timeline
  // around it (for the tracks it has; the others show the part alone).
  timelines(id, requests, whole = false) {
    if (!trace) throw new Error('no trace is open');
    if (whole && !(index?.complete && openInfo?.parts)) throw new Error('the whole trace is still being read');
    return requests.map((r) => (whole ? wholeTimeline(r) : trace.timeline(...r)));
  },
  part(id, what, arg) {
    if (!trace) throw new Error('no trace is open');
    return analysisPart(trace, what, arg);
  },
  // The SQL view's tables (views/sql): the schema without values, then one table's
  // columns, their buffers transferred to the page (a column that is a view of the
  // engine's memory is copied out first, rather than the whole memory cloned with it).
  sqlSchema() {
    if (!trace) throw new Error('no trace is open');
    return trace.sqlSchema();
  },
  sqlTable(id, name, options) {
    if (!trace) throw new Error('no trace is open');
    const table = trace.sqlTable(name, options);
    const own = (a) => (a && a.buffer === core?.HEAPU8.buffer ? a.slice() : a);
    for (const c of table.columns) {
      if (ArrayBuffer.isView(c.values)) c.values = own(c.values);
      else if (c.values?.codes) c.values.codes = own(c.values.codes);
      c.nulls = own(c.nulls);
    }
    return table;
  },
  close() {
    if (trace) trace.dispose();
    trace = null;
    index?.dispose();
    index = null;
    openInfo = null;
    comparison?.dispose();
    comparison = null;
    background = null;
    return null;
  },
};

// The tracks the index's zoomed-out timeline has (TraceIndex.timeline).
const OVERVIEW_TRACKS = new Set(['proc', 'thread', 'gc', 'stw', 'sweep', 'series', 'group']);

// The part's goroutine groups' names (a group track's id numbers them; the index names them).
const partGroups = new WeakMap();
function groupName(t, id) {
  if (!partGroups.has(t)) partGroups.set(t, t.tracks().goroutines.groups);
  return partGroups.get(t)[id];
}

// One timeline query of the whole trace opened in parts: before and after the part open,
// the index's; within it, the part's. The part's bounds are put on the view's pixels, so
// that a group's activity (a column per pixel) lines up.
function wholeTimeline([track, t0, t1, pixels]) {
  if (!OVERVIEW_TRACKS.has(track.kind)) return trace.timeline(track, t0, t1, pixels);
  const gens = index.generations;
  const { first, last } = openInfo.parts;
  const perPixel = (t1 - t0) / pixels;
  const pixelOf = (t) => Math.min(pixels, Math.max(0, Math.round((t - t0) / perPixel)));
  const [inPart, pastPart] = [pixelOf(gens[first].start), pixelOf(gens[last].end + 1)];
  // A group track names its group where the part has no goroutine in it (the index's
  // throughout), and numbers one of the part's groups otherwise.
  const elsewhere = track.kind === 'group' && track.name !== undefined;
  const ofIndex = track.kind === 'group' ? { kind: 'group', name: track.name ?? groupName(trace, track.id) } : track;
  const pieces = [];
  const piece = (source, asked, a, b) => {
    if (b > a) pieces.push(source.timeline(asked, t0 + a * perPixel, t0 + b * perPixel, b - a));
  };
  piece(index, ofIndex, 0, inPart);
  piece(elsewhere ? index : trace, elsewhere ? ofIndex : track, inPart, pastPart);
  piece(index, ofIndex, pastPart, pixels);
  const joined = joinTimelines(pieces);
  // An activity's figures: the part's group size, over the whole view's pixels.
  if (joined.type === 'activity') Object.assign(joined, { from: t0, step: perPixel, size: Math.max(...pieces.map((p) => p.size)) });
  return joined;
}

// Answers of one track over consecutive times as one: their columns end to end, the
// labels of each renumbered into one table.
function joinTimelines(pieces) {
  if (pieces.length === 1) return pieces[0];
  const join = (columns) => {
    if (!ArrayBuffer.isView(columns[0])) return columns.flatMap((c) => [...c]);
    const out = new columns[0].constructor(columns.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of columns) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  };
  const out = { ...pieces[0] };
  for (const [key, value] of Object.entries(out)) {
    if (key === 'exact') out.exact = pieces.every((p) => p.exact);
    else if (key === 'timeIn') out.timeIn = value.map((_, k) => join(pieces.map((p) => p.timeIn[k])));
    else if (key === 'label') {
      const labels = [];
      out.label = join(pieces.map((p) => {
        const base = labels.length;
        labels.push(...p.labels);
        return p.label.map((l) => (l >= 0 ? l + base : l));
      }));
      out.labels = labels;
    } else if (key !== 'labels' && (ArrayBuffer.isView(value) || Array.isArray(value))) {
      out[key] = join(pieces.map((p) => p[key]));
    }
  }
  return out;
}

// Reports a read's progress to the page, at most every 50 ms (and at each phase's change and end).
function progressPoster(id) {
  let last = 0;
  let lastPhase = '';
  return (p) => {
    const now = performance.now();
    if (now - last > 50 || p.bytesDone === p.bytesTotal || p.phase !== lastPhase) {
      last = now;
      lastPhase = p.phase;
      post({ id, progress: p });
    }
  };
}

// Makes `t` the open trace (a part of index's trace where `range` says which): what open
// and openPart return.
function adopt(t, bytes, range) {
  trace?.dispose();
  trace = t;
  comparison?.dispose();
  comparison = null;
  traceId++;
  background = { trace: t, steps: [...backgroundSteps(t, pieceEvents), ...(range ? [indexStep, profilesStep] : [])] };
  // The summary's first slice before the stats: the engine then compiles the summary's
  // loop to optimized code while the stats are computed, where the background's first
  // pieces would otherwise run in baseline code (in Chromium the first two took twice
  // as long as the rest).
  t.advance('summary', Math.min(pieceEvents(), PRIME_EVENTS));
  openInfo = {
    trace: traceId, stats: t.stats(), partialError: t.partialError, eventCount: t.eventCount, bytes,
    parts: range && partsOf(range),
  };
  return openInfo;
}

// What the page shows of a trace opened in parts: the part open, and the trace's
// generations and stats as read so far.
function partsOf({ first, last }) {
  return {
    first, last, generations: index.generations, complete: index.complete, stats: index.stats(),
    partialError: index.partialError, partEvents: partEvents(), summaryError: index.summaryError,
  };
}

// A background step that reads on in the trace opened in parts, for about 50 ms: done
// once the whole trace is read. Each generation's bytes are read ahead first
// (TraceIndex.readAhead). Tests hold the reading to act while the rest is unread: the
// step then waits, answering requests meanwhile, and reads on once let go.
async function indexStep() {
  if (self.gotraceHoldReading) {
    await new Promise((resume) => setTimeout(resume, 100));
    return false;
  }
  return readingOn(index, (ix) => ix.advance(1));
}

// A background step that makes the whole trace's profiles (a second read of it, once the
// first is over), for about 50 ms: done once they are made, or at once while the first
// read is held or unfinished (a request for them then makes them).
function profilesStep() {
  if (!index.complete) return true;
  return readingOn(index, (ix) => ix.advanceProfiles(1));
}

// advance(ix) (false once the read is over) for about 50 ms, its bytes read ahead each
// time: true once the read is over, false when there is more (or a request came, or
// the index was closed, while the bytes were read).
async function readingOn(ix, advance) {
  const until = performance.now() + 50;
  while (performance.now() < until) {
    await ix.readAhead();
    if (ix !== index || inFlight) return false;
    if (!advance(ix)) return true;
  }
  return false;
}

function post(message, transfer = []) {
  self.postMessage(message, transfer);
}

// The buffers of typed arrays in a result, to transfer rather than copy. Views on the
// WebAssembly memory itself are never transferred (that would detach the heap).
function transferables(value, out = new Set(), depth = 0) {
  if (value == null || typeof value !== 'object' || depth > 4) return out;
  if (ArrayBuffer.isView(value)) {
    const b = value.buffer;
    if (b instanceof ArrayBuffer && !(core && b === core.HEAPU8.buffer)) out.add(b);
    return out;
  }
  if (value instanceof ArrayBuffer) {
    out.add(value);
    return out;
  }
  const items = Array.isArray(value) ? value : Object.values(value);
  if (items.length > 10000) return out;
  for (const v of items) transferables(v, out, depth + 1);
  return out;
}

self.onmessage = async (e) => {
  if (e.data.abandon !== undefined) {
    abandoned.add(e.data.abandon);
    return;
  }
  const { id, method, args = [], trace: forTrace } = e.data;
  inFlight++;
  clearTimeout(backgroundTimer);
  try {
    let result;
    if (forTrace !== undefined && forTrace !== traceId) throw new Error('another trace is open');
    if (trace && !['open', 'openPart', 'partsInfo', 'close'].includes(method)) await ready(trace, analysesFor(method, args), id);
    if (Object.hasOwn(methods, method)) {
      result = await methods[method](id, ...args);
    } else {
      if (!trace) throw new Error('no trace is open');
      const fn = trace[method];
      if (typeof fn !== 'function' || method.startsWith('_') || method === 'dispose') {
        throw new Error(`unknown method ${method}`);
      }
      result = await fn.apply(trace, args);
    }
    post({ id, result }, [...transferables(result)]);
  } catch (err) {
    const cancelled = forTrace !== undefined && forTrace !== traceId;  // replaced meanwhile
    post({ id, error: String(err && err.message ? err.message : err), ...(cancelled && { cancelled }) });
  } finally {
    abandoned.delete(id);
    inFlight--;
    // Right after a trace is opened the background starts at once (a request that comes
    // meanwhile waits for one piece at most); after other requests, once they are quiet.
    scheduleBackground(method === 'open' ? 0 : QUIET_MS);
  }
};
