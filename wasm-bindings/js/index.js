// gotrace: read Go execution traces in JavaScript — the gotrace C++ core compiled to
// WebAssembly. Works in browsers (page or Worker) and in Node >= 18.
import createGotraceCore from './gotrace-core.mjs';

let corePromise = null;

const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;

async function instantiate() {
  const options = {};
  if (isNode) {
    // Node has no fetch of file: URLs: hand the module its bytes.
    const fsName = 'node:fs/promises';
    const fs = await import(/* @vite-ignore */ fsName);
    options.wasmBinary = await fs.readFile(new URL('./gotrace-core.wasm', import.meta.url));
  }
  return createGotraceCore(options);
}

/** Loads the WebAssembly core once (openTrace does this for you). */
export function loadCore() {
  if (!corePromise) corePromise = instantiate();
  return corePromise;
}

/**
 * The analyses prepare() and advance() build, in the order to compute them ahead of
 * requests: [{ name, piecewise, needs, ahead }] (needs: what is built first, or null;
 * ahead: whether a viewer builds it ahead of requests). The core's one list of them.
 */
export async function analyses() {
  return (await loadCore()).analyses();
}

/**
 * The SQL tables every trace has (docs/sql.md) and their columns, without a trace:
 * [{ name, columns: [{ name, type, values? }] }] (values: the closed set of strings a
 * VARCHAR column holds, where it is one). trace.sqlSchema() adds each table's rows.
 */
export async function sqlTables() {
  return (await loadCore()).sqlTables();
}

const KINDS = [
  'Bad', 'Sync', 'Metric', 'Label', 'StackSample', 'RangeBegin', 'RangeActive', 'RangeEnd',
  'TaskBegin', 'TaskEnd', 'RegionBegin', 'RegionEnd', 'Log', 'StateTransition', 'Experimental',
];

/** The event kinds of Go's trace model, indexed as in `events().kind`. */
export const eventKinds = Object.freeze([...KINDS]);

/** The states of timeline slices, indexed as in `SliceRects.state`. */
export const sliceStates = Object.freeze(['running', 'runnable', 'waiting', 'syscall', 'active']);
/** Why a goroutine started running, indexed as in `WakeEdges.kind`. */
export const wakeKinds = Object.freeze(['unblock', 'go', 'exit blocked syscall']);
// The instant tracks, grouped by the resource `by` names: user logs, CPU samples, network
// unblocks and blocked syscall exits.
const INSTANT_KINDS = new Set(['logs', 'samples', 'network', 'syscalls']);

const PROFILE_TYPES = ['net', 'sync', 'syscall', 'sched'];
const SLICE_TRACKS = ['goroutine', 'proc', 'thread', 'gc', 'stw', 'sweep', 'assist'];
const DEFAULT_WINDOWS = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];
const MMU_FLAG_BITS = { stw: 1, background: 2, assist: 4, sweep: 8, perProc: 16 };

function mmuFlags(flags = {}) {
  let bits = 0;
  for (const [name, bit] of Object.entries(MMU_FLAG_BITS)) {
    const on = flags[name] ?? name !== 'perProc';
    if (on) bits |= bit;
  }
  return bits;
}

/**
 * Whether `flags` are the default ones (those of mmu() without flags), whose curve
 * advance('mmu') builds a piece at a time.
 */
export function isDefaultMmuFlags(flags = {}) {
  return mmuFlags(flags) === mmuFlags();
}

function checkTime(name, t) {
  if (typeof t !== 'number' || !Number.isFinite(t)) throw new Error(`${name} must be a finite number of ns`);
}

// A position or a count (an event's index, a page's offset or size): a whole number of at
// least 0. Beyond the 2^32 - 1 rows a wasm32 core can hold it is past the end, not wrapped.
function checkCount(name, n) {
  if (!Number.isSafeInteger(n) || n < 0) throw new TypeError(`${name} must be a whole number of at least 0, not ${n}`);
  return Math.min(n, 2 ** 32 - 1);
}

function profileSelection(type, filter) {
  if (!PROFILE_TYPES.includes(type)) throw new Error(`unknown profile type ${type} (net, sync, syscall or sched)`);
  if (filter == null) return undefined;
  if (typeof filter !== 'object') throw new TypeError('a profile filter is an object');
  const sel = {};
  if (filter.goroutines != null) {
    if (!Array.isArray(filter.goroutines) && !ArrayBuffer.isView(filter.goroutines)) {
      throw new TypeError('filter.goroutines must be an array of goroutine ids');
    }
    sel.goroutines = Array.from(filter.goroutines, Number);
  }
  if (filter.group != null) sel.group = String(filter.group);
  if (filter.region != null) sel.region = String(filter.region);
  if (filter.regionPc != null) {
    if (filter.region == null) throw new TypeError('filter.regionPc narrows filter.region: give the region type\'s name too');
    if (!(Number.isSafeInteger(filter.regionPc) && filter.regionPc >= 0)) {
      throw new TypeError(`filter.regionPc is a whole number of at least 0 (regionTypes() gives it), not ${filter.regionPc}`);
    }
    sel.regionPc = filter.regionPc;
  }
  if (filter.range != null) {
    const [t0, t1] = filter.range;
    checkTime('filter.range[0]', t0);
    checkTime('filter.range[1]', t1);
    sel.range = [t0, t1];
  }
  return sel;
}

// The answers a Trace and the whole trace of a TraceIndex give alike (the goroutine,
// task and region views', the MMU's): their arguments checked, their JSON read (`h`: the
// WebAssembly object).
const summaryViews = {
  goroutineGroups: (h) => JSON.parse(unwrap(h.goroutineGroups())),
  goroutineGroupPage: (h, name, { sort = 'total', desc = true, offset = 0, limit } = {}) =>
    JSON.parse(unwrap(h.goroutineGroupPage(String(name), String(sort), Boolean(desc), offset, limit ?? -1))),
  taskTypes: (h) => JSON.parse(unwrap(h.taskTypes())),
  tasksInBucket: (h, name, min) => {
    if (min !== null) checkTime('min', min);
    return JSON.parse(unwrap(h.tasksInBucket(String(name), min)));
  },
  task: (h, id) => {
    if (typeof id !== 'number') throw new TypeError('a task id is a number');
    return JSON.parse(unwrap(h.task(id)));
  },
  regionTypes: (h) => JSON.parse(unwrap(h.regionTypes())),
  regionsInBucket: (h, name, min, pc) => {
    checkTime('min', min);
    if (pc !== undefined && pc !== null && !(Number.isSafeInteger(pc) && pc >= 0)) {
      throw new TypeError(`a region type's pc is a whole number of at least 0 (regionTypes() gives it), not ${pc}`);
    }
    return JSON.parse(unwrap(h.regionsInBucket(String(name), min, pc ?? null)));
  },
  mmu: (h, windows, flags, worst) => {
    if (!Array.isArray(windows)) throw new TypeError('mmu windows must be an array of ns');
    for (const w of windows) checkTime('an MMU window', w);
    const { mmu, plot } = JSON.parse(unwrap(h.mmu(windows, mmuFlags(flags), worst)));
    mmu.curve = {
      window: Float64Array.from(plot.curve, (p) => p[0]),
      mmu: Float64Array.from(plot.curve, (p) => p[1]),
      xMin: plot.x_min,
      xMax: plot.x_max,
    };
    return mmu;
  },
};

function unwrap(result) {
  if (result !== null && typeof result === 'object' && typeof result.error === 'string') {
    throw new Error(result.error);
  }
  return result;
}

function toBytes(input) {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError('openTrace expects a Uint8Array, an ArrayBuffer or a Blob');
}

export class Trace {
  #core;
  #handle;
  /** The error that stopped reading early ("" when the whole trace was read). */
  partialError;

  constructor(core, handle) {
    this.#core = core;
    this.#handle = handle;
    this.partialError = handle.error();
  }

  #live() {
    if (!this.#handle) throw new Error('this trace has been disposed');
    return this.#handle;
  }

  /** Format, size, generations, events by kind, goroutines, procs, threads, time span
   *  (the object `gotrace stats --json` prints). */
  stats() {
    return JSON.parse(unwrap(this.#live().stats()));
  }

  /** The number of events read. */
  get eventCount() {
    return this.#live().eventCount();
  }

  /**
   * A page of events, in order: at most `limit` events with index >= `from`, optionally
   * only those of one goroutine, proc or thread, or of some kinds. Columns are typed
   * arrays; `text` holds each event as Go's Event.String() prints it. Continue with
   * `from: page.next`.
   */
  events({ from = 0, limit = 1000, filter = {} } = {}) {
    const any = -2;
    let mask = 0;
    for (const k of filter.kinds ?? []) {
      const i = KINDS.indexOf(k);
      if (i < 0) throw new Error(`unknown event kind ${k}`);
      mask |= 1 << i;
    }
    const id = (name, v) => {
      if (v == null) return any;
      if (!Number.isSafeInteger(v)) throw new TypeError(`filter.${name} must be an integer id, not ${v}`);
      return v;
    };
    return unwrap(this.#live().events(checkCount('from', from), checkCount('limit', limit), id('goroutine', filter.goroutine),
      id('proc', filter.proc), id('thread', filter.thread), mask));
  }

  /** One event: its columns, Go's text of it and its stack (leaf first). */
  eventAt(index) {
    const e = unwrap(this.#live().eventAt(checkCount('an event index', index)));
    e.kind = KINDS[e.kind];
    return e;
  }

  /** The clock snapshot of each generation that has one (Go 1.25+ traces): trace time,
   *  monotonic clock and wall clock, to put trace times on the wall clock. */
  clockSnapshots() {
    return unwrap(this.#live().clockSnapshots());
  }

  /** Goroutine summaries and their groups by start function (`gotrace goroutines --json`). */
  goroutines() {
    return JSON.parse(unwrap(this.#live().goroutines()));
  }

  /** User tasks by type and one by one (`gotrace tasks --json`). */
  tasks() {
    return JSON.parse(unwrap(this.#live().tasks()));
  }

  /** User regions by type and one by one (`gotrace regions --json`). */
  regions() {
    return JSON.parse(unwrap(this.#live().regions()));
  }

  /** The analyses prepare() and advance() build (see analyses()). */
  analyses() {
    return this.#core.analyses();
  }

  /**
   * Computes an analysis now so that the calls needing it answer at once later: a name
   * of analyses() ('summary' for goroutines, tasks and regions, 'timeline' for tracks()
   * and timeline(), 'wakes' for wakeups(), 'mmu' for mmu()'s default flags...), or
   * 'flame:TYPE' (the whole trace's flame() of a profile type, kept).
   */
  prepare(what) {
    unwrap(this.#live().prepare(String(what)));
  }

  /**
   * The next piece of a long analysis (one of analyses() with `piecewise`), about
   * `events` events' worth of work (a million is some tens of milliseconds); true once
   * it is complete. Any other name prepare() knows is computed whole. A caller with
   * other work to do (a worker answering requests) can do it between pieces.
   */
  advance(what, events) {
    return unwrap(this.#live().advance(String(what), Number(events)));
  }

  /**
   * An analysis of analyses() as its own JSON result, for those that have one
   * (goroutineGroups, taskTypes, regionTypes, ...); throws for the others.
   */
  analysis(name) {
    return JSON.parse(unwrap(this.#live().analysis(String(name))));
  }

  /** The goroutine groups by start function, without their goroutines: { count, groups }. */
  goroutineGroups() {
    return summaryViews.goroutineGroups(this.#live());
  }

  /**
   * One group's goroutines sorted by a column (id, start, total, exec, sched_wait, block,
   * syscall, syscall_block, unknown, 'range:GC mark assist', breakdown), `limit` of them
   * from `offset` (all when limit is omitted): { group, count, maxTotal, first, last,
   * rows }, or null for no such group.
   */
  goroutineGroupPage(name, options) {
    return summaryViews.goroutineGroupPage(this.#live(), name, options);
  }

  /** One goroutine's summary and its group's name: { goroutine, group }, or null. */
  goroutine(id) {
    if (typeof id !== 'number') throw new TypeError('a goroutine id is a number');
    return JSON.parse(unwrap(this.#live().goroutine(id)));
  }

  /** The task types with their duration distributions: { types } (as in tasks()). */
  taskTypes() {
    return summaryViews.taskTypes(this.#live());
  }

  /** The complete tasks of a type in the histogram bucket whose lower bound is `min` (ns). */
  tasksInBucket(name, min) {
    return summaryViews.tasksInBucket(this.#live(), name, min);
  }

  /** One task as tasks() lists it, or null. */
  task(id) {
    return summaryViews.task(this.#live(), id);
  }

  /**
   * The critical path of a task, a region or a goroutine (`gotrace critical-path --json`):
   * { task: ID } | { region: 'NAME' or 'NAME#N' } | { goroutine: G, from?, to? } (times in
   * ns). Walking back from its end along the wake-ups: { goroutine, from, to, duration,
   * handoffs, segments: [{ goroutine, state, reason, start, end, stack, function }],
   * by_category, by_goroutine, by_function: [{ key, ns, share }], stacks }.
   */
  criticalPath(selection) {
    const s = selection ?? {};
    const kinds = ['task', 'region', 'goroutine'].filter((k) => s[k] !== undefined);
    if (kinds.length !== 1) throw new TypeError('criticalPath wants one of { task }, { region }, { goroutine }');
    const kind = kinds[0];
    if ((s.from !== undefined || s.to !== undefined) && kind !== 'goroutine') {
      throw new TypeError('from and to go with a goroutine');
    }
    if (s.from !== undefined) checkTime('from', s.from);
    if (s.to !== undefined) checkTime('to', s.to);
    return JSON.parse(unwrap(this.#live().criticalPath(kind, String(s[kind]), s.from ?? NaN, s.to ?? NaN)));
  }

  /**
   * The critical paths of every task or region of a type summed (`gotrace critical-path
   * --task-type|--region-type --json`): { taskType: NAME } | { regionType: NAME, pc? } (pc:
   * a region type's, the regions begun there), with optionally `min`/`max` (ns: a histogram
   * bucket) and `slowest` (a percentage: 1 is the p99 tail). { kind, name, pc?, instances,
   * durations, by_category, by_function }.
   */
  criticalPaths(selection) {
    const s = selection ?? {};
    const kind = s.taskType !== undefined ? 'task' : s.regionType !== undefined ? 'region' : null;
    if (!kind || (s.taskType !== undefined && s.regionType !== undefined)) {
      throw new TypeError('criticalPaths wants { taskType } or { regionType }');
    }
    if (s.pc != null) {
      if (kind !== 'region') throw new TypeError('a pc selects among region types: { regionType, pc }');
      if (!(Number.isSafeInteger(s.pc) && s.pc >= 0)) {
        throw new TypeError(`a region type's pc is a whole number of at least 0 (regionTypes() gives it), not ${s.pc}`);
      }
    }
    return JSON.parse(unwrap(this.#live().criticalPaths(kind, String(kind === 'task' ? s.taskType : s.regionType),
      s.pc ?? NaN, s.min ?? 0, s.max ?? Infinity, s.slowest ?? 100)));
  }

  /**
   * What changed from `before` (another open Trace) to this trace (`gotrace diff --json`):
   * goroutine groups, task and region types, GC and the five profiles, each with before,
   * after and delta; `top` bounds the profile stacks listed (default 20).
   */
  diffFrom(before, { top = 20 } = {}) {
    if (!(before instanceof Trace)) throw new TypeError('diffFrom wants another Trace');
    return JSON.parse(unwrap(this.#live().diffFrom(before.#live(), top)));
  }

  /** The differential profile of a type (net, sync, syscall, sched, cpu) from `before` to
   *  this trace, as a gzipped pprof (`gotrace diff --pprof=TYPE`): pprof's -base. */
  diffPprofFrom(before, type) {
    if (!(before instanceof Trace)) throw new TypeError('diffPprofFrom wants another Trace');
    return unwrap(this.#live().diffPprofFrom(before.#live(), String(type)));
  }

  /** The region types with their duration distributions: { types } (as in regions()). */
  regionTypes() {
    return summaryViews.regionTypes(this.#live());
  }

  /** The regions of a type in the histogram bucket whose lower bound is `min` (ns). */
  regionsInBucket(name, min, pc) {
    return summaryViews.regionsInBucket(this.#live(), name, min, pc);
  }

  /** Task logs whose category or message contains `text` (ASCII case folded), at most `limit`. */
  taskLogsMatching(text, limit = 30) {
    return JSON.parse(unwrap(this.#live().taskLogsMatching(String(text), limit)));
  }

  /**
   * Who woke goroutine `id` and whom it woke over [t0, t1]: the wake edges that
   * timeline({ kind: 'edges', limit }, t0, t1, pixels) gives, counted per goroutine:
   * { wokenBy: [{ goroutine, count, first }], woke: [...], sampled }, most first.
   */
  goroutineWakeups(id, t0, t1, { pixels = 10_000, limit = 2_000_000 } = {}) {
    if (typeof id !== 'number') throw new TypeError('a goroutine id is a number');
    checkTime('t0', t0);
    checkTime('t1', t1);
    return JSON.parse(unwrap(this.#live().goroutineWakeups(id, t0, t1, pixels, limit)));
  }

  /**
   * Who woke goroutine `id` and whom it woke over [t0, t1]: every wake edge, never
   * sampled (goroutineWakeups() with no limit), from an index of the trace's wake edges
   * built on first use: { wokenBy: [{ goroutine, count, first }], woke: [...], sampled: false }.
   */
  wakeups(id, t0, t1) {
    if (typeof id !== 'number') throw new TypeError('a goroutine id is a number');
    checkTime('t0', t0);
    checkTime('t1', t1);
    return JSON.parse(unwrap(this.#live().wakeups(id, t0, t1)));
  }

  /**
   * Minimum mutator utilization for each window length (ns), the worst windows, the
   * utilization quantiles, and the MMU curve for drawing. Flags say what counts as GC
   * work (default: stw, background, assist and sweep; perProc off).
   */
  mmu(windows = DEFAULT_WINDOWS, flags = {}, { worst = 3 } = {}) {
    return summaryViews.mmu(this.#live(), windows, flags, worst);
  }

  /** A profile of `go tool trace -pprof=TYPE` as gzipped pprof protobuf (a .pb.gz file). */
  pprof(type, filter) {
    return unwrap(this.#live().pprof(type, profileSelection(type, filter)));
  }

  /** The same profile as a flame graph in typed arrays. */
  flame(type, filter) {
    return unwrap(this.#live().flame(type, profileSelection(type, filter)));
  }

  /**
   * The SQL tables of the trace (docs/sql.md): each table's name, row count and columns
   * ({ name, type }, type one of BIGINT, INTEGER, DOUBLE, VARCHAR, BOOLEAN).
   */
  sqlSchema() {
    return unwrap(this.#live().sqlSchema());
  }

  /**
   * One SQL table's values, column by column: BIGINT as Float64Array (exact below 2^53),
   * INTEGER as Int32Array, BOOLEAN as Uint8Array, VARCHAR as an array of strings (null
   * where missing). A column with missing values has `nulls` (Uint8Array, 1 = NULL).
   * Options: `traceId` (the trace_id column, default 0), `path` (the traces table's
   * path), `offset` and `limit` (a slice of the rows: a large trace's events a piece at
   * a time), `raw` (BIGINT as BigInt64Array and VARCHAR as { dictionary, codes } — each
   * string once, codes an Int32Array — the fastest shape to hand to a database).
   */
  sqlTable(name, { traceId = 0, path = '', offset = 0, limit = -1, raw = false } = {}) {
    if (typeof name !== 'string') throw new TypeError('a table name is a string');
    if (!Number.isSafeInteger(traceId)) throw new TypeError('traceId must be an integer');
    const rows = limit == null || limit === -1 ? -1 : checkCount('limit', limit);
    const t = unwrap(this.#live().sqlTable(name, traceId, String(path), checkCount('offset', offset), rows, raw));
    for (const c of t.columns) {
      if (c.int64 !== undefined) {
        c.values = new BigInt64Array(c.int64.buffer, c.int64.byteOffset, c.int64.byteLength / 8);
        delete c.int64;
      } else if (c.type === 'VARCHAR') {
        if (raw) {
          c.values = { dictionary: c.dictionary, codes: c.codes };
        } else {
          const { dictionary, codes, nulls } = c;
          const values = new Array(codes.length);
          for (let i = 0; i < codes.length; i++) values[i] = nulls && nulls[i] ? null : dictionary[codes[i]];
          c.values = values;
        }
        delete c.dictionary;
        delete c.codes;
      }
    }
    return t;
  }

  /**
   * One SQL table as a Parquet file (docs/sql.md), written by the core: BIGINTs
   * delta-encoded, VARCHARs dictionary-encoded, uncompressed, row groups of 262,144 rows.
   * With `write`, the file goes to it a row group at a time (a Uint8Array to use before
   * returning: it views the core's memory) and nothing is returned; without, the whole
   * file comes back as one Uint8Array. Options as sqlTable's, and `rows: [from, to]` to
   * write only those rows of events or g_transitions (a large trace's events shared
   * between workers).
   */
  sqlParquet(name, { traceId = 0, path = '', rows = null, write = null } = {}) {
    if (typeof name !== 'string') throw new TypeError('a table name is a string');
    if (!Number.isSafeInteger(traceId)) throw new TypeError('traceId must be an integer');
    const [from, to] = rows ?? [0, -1];
    if (!(Number.isSafeInteger(from) && from >= 0 && Number.isSafeInteger(to))) throw new TypeError('rows is [from, to], integers');
    const parts = [];
    const sink = write ?? ((view) => parts.push(view.slice()));
    unwrap(this.#live().sqlParquet(name, traceId, String(path), from, to, sink));
    if (write) return undefined;
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  /** Every track of the timeline (the timeline index is built on first use). */
  tracks() {
    return unwrap(this.#live().tracks());
  }

  /**
   * One track over [t0, t1) drawn in `pixels`: what is at least a pixel wide comes back
   * exactly, narrower things merged per pixel. Columns are typed arrays.
   */
  timeline(track, t0, t1, pixels) {
    if (track == null || typeof track.kind !== 'string') throw new TypeError('a track is an object with a kind');
    checkTime('t0', t0);
    checkTime('t1', t1);
    if (!Number.isInteger(pixels) || pixels < 1) throw new Error('pixels must be a positive integer');
    const { kind } = track;
    let arg = '';
    if (kind === 'series') arg = String(track.name ?? '');
    else if (INSTANT_KINDS.has(kind)) arg = String(track.by ?? 'proc');
    const id = track.id ?? 0;
    if (typeof id !== 'number') throw new TypeError('a track id is a number');
    return unwrap(this.#live().timeline(kind, id, arg, t0, t1, pixels, kind === 'edges' ? (track.limit ?? -1) : -1));
  }

  /** What the details panel shows for the slice of a slice track at a time (null: none). */
  sliceDetails(track, time) {
    if (track == null || !SLICE_TRACKS.includes(track.kind)) {
      throw new Error(`sliceDetails wants a slice track (${SLICE_TRACKS.join(', ')})`);
    }
    checkTime('time', time);
    return unwrap(this.#live().sliceAt(track.kind, track.id ?? 0, time));
  }

  /** Frees the trace's memory in the WebAssembly module. */
  dispose() {
    if (this.#handle) {
      this.#handle.delete();
      this.#handle = null;
    }
  }
}

const isBlob = (input) => typeof Blob !== 'undefined' && input instanceof Blob;

// `size` bytes of WebAssembly memory, or 0 when there is no room (malloc returns 0 or
// throws, depending on how the memory failed to grow).
function tryMalloc(core, size) {
  try {
    return core._malloc(size) || 0;
  } catch {
    return 0;
  }
}

// Allocates `size` bytes of WebAssembly memory for a trace, or throws a clear Error.
function allocate(core, size) {
  const address = tryMalloc(core, Math.max(size, 1));
  if (!address) throw new Error(`out of memory: cannot hold a ${size}-byte trace`);
  return address;
}

// Reading a file leaves the engine waiting for most of the time. That time prepares the
// memory the analyses allocate after the parse: the first write to a page of
// WebAssembly memory costs a page fault (about 1 ms per MiB in Chromium: a sixth of the
// goroutine summary of a large trace), so as each chunk of the file arrives, as many
// bytes of a spare block (up to the file's size) are written too. The block is held
// while the trace is parsed, which allocates around it, and freed after, where the
// summary's records then go. Not for files so large that the parse itself may need
// every byte of the 4 GB.
const SPARE_LIMIT = 128 * 2 ** 20;
const SPARE_LARGEST_FILE = 512 * 2 ** 20;

class SpareMemory {
  #core;
  #address = 0;
  #size = 0;
  #touched = 0;

  constructor(core, size) {
    this.#core = core;
    const want = size <= SPARE_LARGEST_FILE ? Math.min(size, SPARE_LIMIT) : 0;
    this.#address = want > 0 ? tryMalloc(core, want) : 0;  // none: nothing is lost
    if (this.#address) this.#size = want;
  }

  // Writes the next n bytes of the block.
  touch(n) {
    const from = this.#touched;
    this.#touched = Math.min(this.#size, from + n);
    if (this.#touched > from) this.#core.HEAPU8.fill(0, this.#address + from, this.#address + this.#touched);
  }

  free() {
    if (this.#address) this.#core._free(this.#address);
    this.#address = 0;
  }
}

// A Blob's bytes (a File's) streamed straight into WebAssembly memory: no copy of the
// trace in JavaScript memory. The address of the copy (the caller frees it).
async function readBlob(core, blob, spare, onProgress) {
  const size = blob.size;
  const address = allocate(core, size);
  let done = 0;
  try {
    const reader = blob.stream().getReader();
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      if (done + value.length > size) throw new Error(`the file is longer than the ${size} bytes it had when opened`);
      core.HEAPU8.set(value, address + done);  // HEAPU8 is replaced when memory grows: read it each time
      done += value.length;
      spare.touch(value.length);
      if (onProgress?.({ phase: 'reading', bytesDone: done, bytesTotal: size, events: 0 }) === false) {
        throw new Error('cancelled');
      }
    }
    if (done !== size) throw new Error(`the file ended after ${done} of its ${size} bytes`);
  } catch (e) {
    core._free(address);
    throw e instanceof Error ? e : new Error(String(e));
  }
  return address;
}

/**
 * Reads a Go execution trace (as Go 1.5 to Go 1.27 write them): bytes, copied into
 * WebAssembly memory once, or a Blob (a File), read straight into it (in a worker, as it
 * is parsed, a window at a time). Rejects with an
 * Error naming what is wrong and where (byte offset, generation, event). With
 * `allowPartial`, a trace that breaks off after some events resolves instead, with the
 * reason in `trace.partialError`.
 */
export async function openTrace(input, { onProgress, allowPartial = false } = {}) {
  const blob = isBlob(input) ? input : null;
  const bytes = blob ? null : toBytes(input);
  const core = await loadCore();
  // In a worker a Blob is read as it is parsed, a piece at a time (FileReaderSync): a
  // Go 1.22+ trace's bytes are never all in memory.
  if (blob && typeof FileReaderSync === 'function') {
    return traceOf(core, parseFrom(core, blob.size, blobReadInto(core, blob), onProgress), allowPartial);
  }
  const size = blob ? blob.size : bytes.length;
  const spare = blob ? new SpareMemory(core, size) : null;
  let handle;
  try {
    let address;
    if (blob) {
      address = await readBlob(core, blob, spare, onProgress);
    } else {
      address = allocate(core, size);
      core.HEAPU8.set(bytes, address);
    }
    handle = parse(core, address, size, onProgress);
  } finally {
    spare?.free();
  }
  return traceOf(core, handle, allowPartial);
}

/**
 * In Node: reads a trace file as it is parsed, a piece at a time, straight into
 * WebAssembly memory (a Go 1.22+ trace's bytes are never all in memory), then as
 * openTrace does.
 */
export async function openTraceFile(file, { onProgress, allowPartial = false } = {}) {
  if (!isNode) throw new Error('openTraceFile reads a file in Node; in a browser, give openTrace a File');
  const fsName = 'node:fs';
  const fs = await import(/* @vite-ignore */ fsName);
  const core = await loadCore();
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    return traceOf(core, parseFrom(core, size, fileReadInto(core, fs, fd), onProgress), allowPartial);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A trace too large to hold whole, read once (streamed: about a generation in memory at
 * a time) for its stats and its generations; any run of the generations read so far then
 * opens as a Trace of its own, read again from the same bytes: the events the whole trace
 * has there, with the states it had when the run begins. The read may go on a few
 * generations at a time (advance), a part open meanwhile. Go 1.22+ traces only.
 */
export class TraceIndex {
  #core;
  #handle;
  #close;
  #generations = null;
  #readAhead;

  constructor(core, handle, close, readAhead) {
    this.#core = core;
    this.#handle = handle;
    this.#close = close;
    this.#readAhead = readAhead;
  }

  #live() {
    if (!this.#handle) throw new Error('this trace index has been disposed');
    return this.#handle;
  }

  // Throws a RangeError unless generations [first, last] have been read.
  #checkRun(first, last) {
    const n = this.generations.length;
    if (!Number.isInteger(first) || !Number.isInteger(last) || first < 0 || last < first || last >= n) {
      throw new RangeError(`no generations ${first} to ${last}: ${this.complete ? 'the trace has' : 'read so far:'} ${n}`);
    }
  }

  /** The error that stopped the read early ("" while none did). */
  get partialError() {
    return this.#live().error();
  }

  /** Whether the whole trace has been read. */
  get complete() {
    return this.#live().complete();
  }

  /** Each generation read: {number, start, end (its first and last event's time, ns),
   *  events, bytes}. While the read goes on, the last one read waits for the next. */
  get generations() {
    this.#generations ??= this.#live().generations();
    return this.#generations;
  }

  /**
   * Reads ahead what the next advance() or advanceProfiles() will read, where the source
   * can (a Blob in a worker: through a stream into one buffer, which leaves no garbage
   * behind as reading piece by piece does). Await it between them; they read whatever
   * it has not.
   */
  async readAhead() {
    const at = this.#live().readOffset();
    if (this.#readAhead && at >= 0) await this.#readAhead(at);
  }

  /** Reads up to `generations` more generations: false once the whole trace is read. */
  advance(generations = 1) {
    this.#generations = null;
    return this.#live().advance(generations);
  }

  /** The whole trace's stats (as Trace.stats()); while the read goes on, of what was read. */
  stats() {
    return JSON.parse(this.#live().stats());
  }

  /**
   * Generations [first, last] (indices into `generations`) as a Trace. `allowPartial`: a
   * run that ends with the trace's last generation, where the read broke off, resolves
   * with the events before the problem.
   */
  openPart(first, last, { onProgress, allowPartial = false } = {}) {
    this.#checkRun(first, last);
    return traceOf(this.#core, this.#live().openPart(first, last, parseProgress(onProgress)), allowPartial);
  }

  /**
   * Goroutine `id`, seen in generations [first, last] (a part open, say), over its whole
   * life: {goroutine, group, generations: [first, last] read} — the goroutine as the whole
   * trace's Trace.goroutine(id) gives it (figures, times, regions), its generations read
   * again from the source one at a time. Null if those generations do not name it. While
   * the trace is being read, a life that ends in the generations read is answered; one
   * that goes on past them is an Error ("still being read") until the read gets there.
   */
  goroutine(id, first, last) {
    this.#checkRun(first, last);
    const answer = JSON.parse(this.#live().goroutineLife(id, first, last));
    if (answer?.error) throw new Error(answer.error);
    return answer;
  }

  // The whole trace's goroutine, task and region views, summarized as the index read it:
  // the same answers as a Trace of the whole trace gives. Each throws while the read goes
  // on ("still being read"); once it is over (or broke off: of what was read), answers.

  /** Why the whole trace's summaries were let go, past their budget ("" while kept). */
  get summaryError() {
    return this.#live().summaryGivenUp();
  }

  /**
   * What the whole trace's summaries take: {bytes, archived} (archived: put away as each
   * ended, ~40 bytes a goroutine, where the first generation foretold that summaries held
   * in arrays would pass `summaryBytes`).
   */
  get summaryMemory() {
    const h = this.#live();
    return { bytes: h.summaryBytes(), archived: h.summaryArchived() };
  }

  /** The whole trace's MMU, of the default flags only: as Trace.mmu(). */
  mmu(windows = DEFAULT_WINDOWS, flags = {}, { worst = 3 } = {}) {
    return summaryViews.mmu(this.#live(), windows, flags, worst);
  }

  /**
   * The whole trace's timeline zoomed out, made as the index read it: Trace.timeline()'s
   * answer for the proc, thread, gc, stw and sweep tracks, the series and the goroutine
   * groups (a track {kind: 'group', name}: the start function, as tracks() names the
   * groups; at most 512 groups are kept, and `size` is 0), at the detail of
   * timelineExtent().bucket ns (a rectangle or a point per bucket in view, or per pixel
   * where buckets are narrower; the times in each state are the whole trace's over each
   * bucket). Other tracks (goroutines, tasks, instants, wake-ups) are an Error: a
   * part of the trace (openPart) has them. An Error while the read goes on.
   */
  timeline(track, t0, t1, pixels) {
    if (track == null || typeof track.kind !== 'string') throw new TypeError('a track is an object with a kind');
    checkTime('t0', t0);
    checkTime('t1', t1);
    if (!Number.isInteger(pixels) || pixels < 1) throw new Error('pixels must be a positive integer');
    const id = track.id ?? 0;
    if (typeof id !== 'number') throw new TypeError('a track id is a number');
    const arg = track.kind === 'series' || track.kind === 'group' ? String(track.name ?? '') : '';
    return unwrap(this.#live().timeline(track.kind, id, arg, t0, t1, pixels));
  }

  /** {start, end, bucket, bytes, groups, procs, threads, sweep}: the whole timeline's first
   *  and last event's time (ns), the width of its buckets (ns), the bytes it holds, its
   *  goroutine groups' names and the ids of its proc, thread and sweep tracks (ascending);
   *  an Error while the read goes on. */
  timelineExtent() {
    return unwrap(this.#live().timelineExtent());
  }

  /**
   * The whole trace's profiles are made by a second read of it once the first is over (a
   * profile counts goroutines from their first run to their end, which the first read's
   * summaries tell): this reads up to `generations` more of it, false once they are made
   * or cannot be (the summaries let go: flame() and pprof() say why).
   */
  advanceProfiles(generations = 1) {
    return this.#live().advanceProfiles(generations);
  }

  /** The whole trace's profile of a type as a flame graph: as Trace.flame(type). */
  flame(type) {
    profileSelection(type, null);
    return unwrap(this.#live().flame(type));
  }

  /** The whole trace's profile of a type, a gzipped pprof: as Trace.pprof(type). */
  pprof(type) {
    profileSelection(type, null);
    return unwrap(this.#live().pprof(type));
  }

  /** The whole trace's goroutine groups: as Trace.goroutineGroups(). */
  goroutineGroups() {
    return summaryViews.goroutineGroups(this.#live());
  }

  /** A group's goroutines over the whole trace: as Trace.goroutineGroupPage(). */
  goroutineGroupPage(name, options) {
    return summaryViews.goroutineGroupPage(this.#live(), name, options);
  }

  /** One goroutine of the whole trace and its group's name: as Trace.goroutine(id). */
  goroutineSummary(id) {
    if (typeof id !== 'number') throw new TypeError('a goroutine id is a number');
    return JSON.parse(unwrap(this.#live().goroutineSummary(id)));
  }

  /** The whole trace's task types: as Trace.taskTypes(). */
  taskTypes() {
    return summaryViews.taskTypes(this.#live());
  }

  /** The whole trace's tasks of a type in a histogram bucket: as Trace.tasksInBucket(). */
  tasksInBucket(name, min) {
    return summaryViews.tasksInBucket(this.#live(), name, min);
  }

  /** One task of the whole trace, its logs included: as Trace.task(). */
  task(id) {
    return summaryViews.task(this.#live(), id);
  }

  /** The whole trace's task logs whose category or message holds `text`: as Trace.taskLogsMatching(). */
  taskLogsMatching(text, limit = 30) {
    return JSON.parse(unwrap(this.#live().taskLogsMatching(String(text), limit)));
  }

  /** The whole trace's region types: as Trace.regionTypes(). */
  regionTypes() {
    return summaryViews.regionTypes(this.#live());
  }

  /** The whole trace's regions of a type in a histogram bucket: as Trace.regionsInBucket(). */
  regionsInBucket(name, min, pc) {
    return summaryViews.regionsInBucket(this.#live(), name, min, pc);
  }

  dispose() {
    if (this.#handle) {
      this.#handle.delete();
      this.#handle = null;
      this.#close?.();
    }
  }
}

/**
 * Reads a Go 1.22+ trace for its TraceIndex: a Blob (a File) in a worker (read a piece
 * at a time, again for each part opened), or in Node a file's path (kept open until the
 * index is disposed), or bytes. Reads the whole trace before it resolves, or with
 * `generations` that many generations at least (index.advance() reads on). The whole
 * trace's goroutine, task and region summaries are made as it reads, in at most
 * `summaryBytes` (640 MiB): held in arrays where the first generation foretells that
 * they take at most `heldSummaryBytes` (64 MiB; ~190 bytes a goroutine, region or task),
 * else put away as each ends (~40 bytes: the 925 MB trace's 5.25 million goroutines, 2.9
 * million tasks and 2.9 million regions in ~620 MB at most while read, ~490 MB after);
 * past it, they are let go and those answers throw, saying so (`archiveSummaries`: put
 * away as each ends whatever the first generation foretells). The trace is read
 * `readBytes` (8 MiB) at a time at least; a Blob, twice that ahead (readAhead()). Rejects for an
 * older trace (no generations: openTrace reads it whole) and when no generation could be
 * read.
 */
export async function openTraceIndex(
  input,
  {
    onProgress, generations = Infinity, summaryBytes = 640 * 2 ** 20, heldSummaryBytes = 64 * 2 ** 20, archiveSummaries = false,
    readBytes = DEFAULT_READ_BYTES,
  } = {},
) {
  const core = await loadCore();
  const { size, readInto, readAhead, close } = await sourceOf(core, input, readBytes);
  let handle;
  try {
    handle = core.WasmTraceIndex.fromSource(size, guardedRead(readInto), parseProgress(onProgress), summaryBytes, heldSummaryBytes,
      Boolean(archiveSummaries), readBytes);
    // One more than asked for: the last generation read is known once the next begins.
    for (let read = 0; read <= generations && handle.advance(1); read++);
  } catch (e) {
    handle?.delete();
    close?.();
    throw e;
  }
  const legacy = handle.error() === '' && JSON.parse(handle.stats()).format?.family === 'v1';
  if (legacy || handle.generations().length === 0) {
    const message = legacy ? 'the trace has no generations (Go 1.21 or older): open it whole'
      : handle.error() === '' ? 'the trace has no events (a header alone): nothing to read in parts' : handle.error();
    handle.delete();
    close?.();
    throw new Error(message);
  }
  return new TraceIndex(core, handle, close, readAhead);
}

// What a TraceSource reads, from bytes, a Blob in a worker, or a file's path in Node:
// {size, readInto(offset, n, address), close?}.
async function sourceOf(core, input, readBytes = DEFAULT_READ_BYTES) {
  if (typeof input === 'string') {
    if (!isNode) throw new Error('a trace index of a path reads a file in Node; in a browser, give it a File');
    const fsName = 'node:fs';
    const fs = await import(/* @vite-ignore */ fsName);
    const fd = fs.openSync(input, 'r');
    const size = fs.fstatSync(fd).size;
    return { size, readInto: fileReadInto(core, fs, fd), close: () => fs.closeSync(fd) };
  }
  if (isBlob(input)) {
    if (typeof FileReaderSync !== 'function') throw new Error('a trace index of a Blob reads it in a worker (FileReaderSync)');
    const ahead = new BlobReadAhead(core, input, 2 * readBytes);
    return { size: input.size, readInto: (offset, n, address) => ahead.readInto(offset, n, address), readAhead: (at) => ahead.fill(at) };
  }
  const bytes = toBytes(input);
  const readInto = (offset, n, address) => {
    if (offset + n > bytes.length) return false;
    core.HEAPU8.set(bytes.subarray(offset, offset + n), address);
    return true;
  };
  return { size: bytes.length, readInto };
}

// readInto for a Blob, in a worker: each piece read as it is needed.
function blobReadInto(core, blob) {
  const reader = new FileReaderSync();
  return (offset, n, address) => {
    const piece = reader.readAsArrayBuffer(blob.slice(offset, offset + n));
    if (piece.byteLength !== n) return false;
    core.HEAPU8.set(new Uint8Array(piece), address);  // HEAPU8 is replaced when memory grows: read it each time
    return true;
  };
}

// What the core asks a source for at a time, at least (TraceSource::read_ahead).
const DEFAULT_READ_BYTES = 8 * 2 ** 20;

// A Blob read forward, in a worker: what the next read will ask for is read ahead (fill,
// awaited between reads) into one buffer through a byte stream, which fills the same
// memory each time. FileReaderSync gives each piece an ArrayBuffer of its own, and
// reading a trace of a gigabyte so left hundreds of MiB of them to the collector at once
// (the 925 MB trace's tab: ~370 MiB above its heap while read). A read outside what was
// read ahead (the start, a part read again) goes through FileReaderSync.
class BlobReadAhead {
  #core;
  #blob;
  #readPiece;  // through FileReaderSync
  #bytes;  // the buffer's: two of the core's reads
  #buffer;
  #start = 0;  // the file's bytes [start, start + filled) are the buffer's first
  #filled = 0;
  #stream = null;  // a reader of the file from streamAt on
  #streamAt = 0;
  #filling = null;  // the fill under way: the buffer is the stream's until it ends

  constructor(core, blob, bytes) {
    this.#core = core;
    this.#blob = blob;
    this.#readPiece = blobReadInto(core, blob);
    this.#bytes = bytes;
    this.#buffer = new ArrayBuffer(bytes);
  }

  readInto(offset, n, address) {
    if (this.#filling || offset < this.#start || offset + n > this.#start + this.#filled) return this.#readPiece(offset, n, address);
    // HEAPU8 is replaced when memory grows: read it each time.
    this.#core.HEAPU8.set(new Uint8Array(this.#buffer, offset - this.#start, n), address);
    return true;
  }

  // Reads ahead the bytes from `at` on, as many as the buffer holds (or to the end).
  fill(at) {
    const previous = this.#filling ?? Promise.resolve();
    const filling = previous.then(() => this.#fillFrom(at)).finally(() => {
      if (this.#filling === filling) this.#filling = null;
    });
    this.#filling = filling;
    return filling;
  }

  async #fillFrom(at) {
    const bytes = new Uint8Array(this.#buffer);
    const end = this.#start + this.#filled;
    if (at >= this.#start && at <= end) {
      bytes.copyWithin(0, at - this.#start, this.#filled);  // keep what is read ahead of `at`
      this.#filled = end - at;
    } else {
      this.#filled = 0;
    }
    this.#start = at;
    const want = Math.min(this.#buffer.byteLength, this.#blob.size - at);
    if (this.#filled >= want) return;
    const from = at + this.#filled;
    if (!this.#stream || this.#streamAt !== from) {
      this.#stream?.cancel().catch(() => {});
      this.#stream = this.#blob.slice(from).stream().getReader({ mode: 'byob' });
      this.#streamAt = from;
    }
    try {
      while (this.#filled < want) {
        const { value, done } = await this.#stream.read(new Uint8Array(this.#buffer, this.#filled, this.#buffer.byteLength - this.#filled));
        if (done) break;
        this.#buffer = value.buffer;  // the same memory, handed back
        this.#filled += value.byteLength;
        this.#streamAt += value.byteLength;
      }
    } catch {
      // Unreadable here: the reads go through FileReaderSync, which says why.
      this.#buffer = new ArrayBuffer(this.#bytes);  // the stream's may be detached
      this.#filled = 0;
      this.#stream = null;
    }
  }
}

// readInto for an open file in Node.
function fileReadInto(core, fs, fd) {
  return (offset, n, address) => {
    for (let done = 0; done < n;) {
      // HEAPU8 is replaced when memory grows: read it each time.
      const k = fs.readSync(fd, core.HEAPU8, address + done, n - done, offset + done);
      if (k === 0) return false;
      done += k;
    }
    return true;
  };
}

// Parse progress reported as onProgress's 'parsing' phase.
function parseProgress(onProgress) {
  return onProgress
    ? (done, total, events) => onProgress({ phase: 'parsing', bytesDone: done, bytesTotal: total, events }) !== false
    : undefined;
}

// Reads the `size` bytes at `address` (the handle takes them, and frees them once read).
function parse(core, address, size, onProgress) {
  return new core.WasmTrace(address, size, parseProgress(onProgress));
}

// Reads `size` bytes as they are parsed: readInto(offset, n, address) copies n bytes of
// the trace at `offset` into the core's memory at `address` (false: it could not; the
// read then fails naming the offset).
function parseFrom(core, size, readInto, onProgress) {
  return core.WasmTrace.fromSource(size, guardedRead(readInto), parseProgress(onProgress));
}

// readInto for the core: nothing may be thrown through it (a failure is false).
function guardedRead(readInto) {
  return (offset, n, address) => {
    try {
      return readInto(offset, n, address);
    } catch {
      return false;
    }
  };
}

// The trace a handle read, or its error (a trace read in part, with `allowPartial`).
function traceOf(core, handle, allowPartial) {
  // Go 1.27 lists a Sync before an error that stops the first generation: a trace read
  // up to such an error holds Syncs alone, nothing to show.
  const onlySyncs = () => {
    const st = JSON.parse(unwrap(handle.stats()));
    return st.events === (st.events_by_kind?.Sync ?? 0);
  };
  const failed =
    handle.error() !== '' && (!allowPartial || !handle.usable() || handle.eventCount() === 0 || onlySyncs());
  if (failed) {
    const message = handle.error();
    handle.delete();
    throw new Error(message);
  }
  return new Trace(core, handle);
}
