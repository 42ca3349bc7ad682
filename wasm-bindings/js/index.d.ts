// Types of the gotrace npm package. All times and durations are trace times in
// nanoseconds (numbers: exact up to 2^53 ns, about 104 days).

export interface ReadProgress {
  /** 'reading': a Blob's bytes arriving before the parse (events is 0: a gzipped trace,
   *  or a Blob opened outside a worker); 'parsing': the reader at work, reading the
   *  file as it goes where it can (openTraceFile, a Blob in a worker). */
  phase: 'reading' | 'parsing';
  bytesDone: number;
  bytesTotal: number;
  events: number;
}

export interface OpenOptions {
  /** Called as a Blob's bytes arrive and as the reader finishes each part of the trace; return false to cancel. */
  onProgress?: (p: ReadProgress) => boolean | void;
  /** Resolve with the events read so far when the trace breaks off (see Trace.partialError). */
  allowPartial?: boolean;
}

export type EventKind =
  | 'Bad' | 'Sync' | 'Metric' | 'Label' | 'StackSample' | 'RangeBegin' | 'RangeActive' | 'RangeEnd'
  | 'TaskBegin' | 'TaskEnd' | 'RegionBegin' | 'RegionEnd' | 'Log' | 'StateTransition' | 'Experimental';

export declare const eventKinds: readonly EventKind[];

export interface TraceStats {
  /** null when the file has no trace header (then it has no events either). */
  format: { go_version: string | null; family: 'v1' | 'v2' | null };
  bytes: number;
  bytes_used: number;
  generations: number;
  events: number;
  events_by_kind: Partial<Record<EventKind, number>>;
  events_by_type: Record<string, number>;
  goroutines: number;
  procs: number;
  threads: number;
  gcs: number;
  stacks: number;
  strings: number;
  time: { start: number; end: number; duration: number };
  error: string | null;
}

export interface EventFilter {
  goroutine?: number;
  proc?: number;
  thread?: number;
  kinds?: EventKind[];
}

export interface EventPage {
  index: Float64Array;
  time: Float64Array;
  goroutine: Float64Array;
  proc: Float64Array;
  thread: Float64Array;
  /** Indexes into eventKinds. */
  kind: Uint8Array;
  /** Each event as Go's Event.String() prints it. */
  text: string[];
  /** Where the next page starts. */
  next: number;
}

// ---------------------------------------------------------------------------------------
// Goroutines, tasks, regions: the objects `gotrace goroutines|tasks|regions --json` print.

/** Go's GoroutineExecStats: "exec", "sched_wait", "syscall", "syscall_block", "total",
 *  "block:<reason>", "range:<name>" (ns); absent keys are 0. */
export type ExecStats = Record<string, number>;

export interface GoroutineSummary {
  id: number;
  /** Start function ("" if never seen with a stack). */
  name: string;
  pc: number;
  creation: number;
  /** First time running (0: never ran). */
  start: number;
  /** When it exited (0: did not). */
  end: number;
  stats: ExecStats;
  regions: RegionOfGoroutine[] | null;
}

export interface RegionOfGoroutine {
  task: number;
  name: string;
  start: number;
  end: number;
  stats: ExecStats;
}

/** Goroutines grouped by start function, most execution time first. */
export interface GoroutineGroup {
  name: string;
  count: number;
  exec: number;
  sched_wait: number;
  syscall: number;
  syscall_block: number;
  block: number;
  unknown: number;
  total: number;
  stats: ExecStats;
  /** Goroutine ids, longest total time first. */
  goroutines: number[];
}

export interface GoroutinesResult {
  groups: GoroutineGroup[];
  goroutines: GoroutineSummary[];
}

export interface DurationDistribution {
  histogram: { count: number; buckets: { min: number; count: number }[] };
  quantiles: { count: number; min: number; p50: number; p90: number; p99: number; max: number; total: number };
}

export interface TaskType {
  name: string;
  count: number;
  complete: number;
  durations: DurationDistribution;
}

export interface TaskInfo {
  id: number;
  name: string;
  parent: number | null;
  children: number[];
  start: number | null;
  end: number | null;
  complete: boolean;
  duration: number | null;
  goroutines: number[];
  logs: { time: number; goroutine: number; category: string; message: string }[];
  regions: { goroutine: number; name: string; start: number | null; end: number | null }[];
}

export interface TasksResult {
  types: TaskType[];
  tasks: TaskInfo[];
}

export interface RegionType {
  name: string;
  pc: number;
  func: string;
  file: string;
  line: number;
  count: number;
  durations: DurationDistribution;
}

export interface RegionInfo {
  goroutine: number;
  task: number;
  name: string;
  start: number | null;
  end: number | null;
  duration: number;
  stats: ExecStats;
}

export interface RegionsResult {
  types: RegionType[];
  regions: RegionInfo[];
}

// ---------------------------------------------------------------------------------------
// MMU

export interface MmuFlags {
  /** Stop-the-world phases count as GC work (default true). */
  stw?: boolean;
  /** Background mark workers (default true). */
  background?: boolean;
  /** Mark assists (default true). */
  assist?: boolean;
  /** Incremental sweeping (default true). */
  sweep?: boolean;
  /** One utilization series per P instead of one for all (default false). */
  perProc?: boolean;
}

export interface MmuWindow {
  /** Window length (ns) and as Go writes it ("1ms"). */
  window: number;
  label: string;
  /** Minimum mutator utilization over every window of this length (0 to 1). */
  mmu: number;
  /** The worst disjoint windows, worst first: start time and utilization. */
  worst: { time: number; util: number }[];
  /** Utilization below which these shares of windows fall (0, 0.1%, 1%, 5%). */
  mud: { quantile: number; util: number }[];
}

export interface MmuResult {
  /** "stw+background+assist+sweep" etc. */
  flags: string;
  series: number;
  points: number;
  windows: MmuWindow[];
  /** The MMU curve for drawing: 100 window lengths on a log scale. */
  curve: { window: Float64Array; mmu: Float64Array; xMin: number; xMax: number };
}

// ---------------------------------------------------------------------------------------
// Profiles

export type ProfileType = 'net' | 'sync' | 'syscall' | 'sched';

/** What a profile counts; all parts combine. Default: every goroutine, the whole trace. */
export interface ProfileFilter {
  /** Only these goroutines (each from its first run to its end). */
  goroutines?: number[];
  /** Only goroutines whose start function is this (a goroutine group's name). */
  group?: string;
  /** Only time inside user regions of this type. */
  region?: string;
  /** With `region`: only the regions begun at this pc (a region type's, from regionTypes()). */
  regionPc?: number;
  /** Only this part of the trace [t0, t1] (ns). */
  range?: [number, number];
}

/**
 * A flame graph: nodes in depth-first order, node 0 the root (every sample). A node's
 * subtree is the nodes after it with a greater depth; a node's children are in name order.
 */
export interface FlameGraph {
  /** Distinct function names; names[0] is "". */
  names: string[];
  /** Per node: index into names. */
  name: Uint32Array;
  /** Per node: its parent (-1 for the root). */
  parent: Int32Array;
  depth: Uint32Array;
  /** Delay (ns): in the node itself, and in it and its subtree. */
  self: Float64Array;
  value: Float64Array;
  /** Contentions: likewise. */
  selfCount: Float64Array;
  count: Float64Array;
}

// ---------------------------------------------------------------------------------------
// Timeline

export type SliceTrackKind = 'goroutine' | 'proc' | 'thread' | 'gc' | 'stw' | 'sweep' | 'assist';
/** 'heap-goal' is 0 where the runtime has none (GOGC=off: Go reports a huge sentinel). */
export type SeriesName =
  | 'goroutines-running' | 'goroutines-runnable' | 'goroutines-waiting' | 'goroutines-syscall'
  | 'procs-running' | 'heap-alloc' | 'heap-goal' | 'gomaxprocs';

/**
 * A track to query:
 * - slice tracks: `{ kind: 'goroutine' | 'proc' | 'thread' | 'sweep' | 'assist', id }`, `{ kind: 'gc' }`, `{ kind: 'stw' }`
 * - `{ kind: 'regions', id: goroutine }`, `{ kind: 'tasks' }`
 * - `{ kind: 'logs' | 'samples' | 'network' | 'syscalls', by?: 'proc' | 'goroutine' | 'thread' }`
 *   (default proc; network: goroutines blocked on the network made runnable, syscalls:
 *   ends of syscalls that had lost their proc, go tool trace's Network and Syscalls lanes)
 * - `{ kind: 'series', name }`
 * - `{ kind: 'edges', limit? }`: wake-ups (who unblocked whom), at most `limit` (default 2 per pixel)
 * - `{ kind: 'group', id }`: what the goroutines of group `id` (an index into
 *   `TrackList.goroutines.groups`) do, per pixel
 */
export type TrackRef =
  | { kind: SliceTrackKind; id?: number }
  | { kind: 'regions'; id: number }
  | { kind: 'tasks' }
  | { kind: 'logs' | 'samples' | 'network' | 'syscalls'; by?: 'proc' | 'goroutine' | 'thread' }
  | { kind: 'series'; name: SeriesName }
  | { kind: 'edges'; limit?: number }
  | { kind: 'group'; id: number };

/** Every track the trace has, for laying out the timeline. */
export interface TrackList {
  /** The trace's first and last event times. */
  start: number;
  end: number;
  procs: Float64Array;
  threads: Float64Array;
  /** Goroutines with a track, ascending, and their group (start function). */
  goroutines: {
    id: Float64Array;
    /** Per goroutine: index into groups. */
    group: Uint32Array;
    /** Start functions ("" for goroutines never seen with a stack). */
    groups: string[];
  };
  /** Whether the trace has GC mark phases / stop-the-world pauses. */
  gc: boolean;
  stw: boolean;
  /** Procs with incremental sweeps; goroutines with mark assists. */
  sweep: Float64Array;
  assist: Float64Array;
  /** Goroutines with user regions. */
  regions: Float64Array;
  /** Rows of the task layout (0: no tasks). */
  taskRows: number;
  /** How many user logs, CPU samples, network unblocks and blocked syscall exits there are. */
  logs: number;
  samples: number;
  network: number;
  syscalls: number;
  /** Series with a non-zero value somewhere. */
  series: SeriesName[];
}

/** SliceState codes of SliceRects.state. */
export declare const sliceStates: readonly ['running', 'runnable', 'waiting', 'syscall', 'active'];
/** Unblocked, created ("go"), or back from a syscall that lost its proc. */
export declare const wakeKinds: readonly ['unblock', 'go', 'exit blocked syscall'];

/**
 * Rectangles of a slice track. A rectangle with count 1 is one slice (clipped to the
 * view); with count > 1 it merges slices narrower than a pixel.
 */
export interface SliceRects {
  type: 'slices';
  start: Float64Array;
  end: Float64Array;
  /** Index into sliceStates (for merged rectangles, the state with most time). */
  state: Uint8Array;
  count: Uint32Array;
  /** proc / thread tracks: the goroutine run (-1 none); other tracks: -1. */
  goroutine: Float64Array;
  /** goroutine tracks: why it waits / is runnable; stw: the kind. Index into labels, -1: none. */
  label: Int32Array;
  labels: string[];
  /** Time in each state within the rectangle: timeIn[state][i]. */
  timeIn: Float64Array[];
}

/** User regions (row = nesting depth) or tasks (row = layout lane). */
export interface SpanRects {
  type: 'spans';
  start: Float64Array;
  end: Float64Array;
  row: Uint32Array;
  count: Uint32Array;
  task: Float64Array;
  /** Index into names: the region type / task name. */
  name: Uint32Array;
  names: string[];
}

/** Logs, CPU samples, network unblocks or blocked syscall exits by resource, merged per
 *  resource and pixel. */
export interface InstantMarks {
  type: 'instants';
  time: Float64Array;
  /** The goroutine / proc / thread (-1: none). */
  resource: Float64Array;
  count: Uint32Array;
  /** Event index of the first (use eventAt / events for the text). */
  event: Float64Array;
}

/** A generation's clock snapshot: trace time and monotonic clock (ns), and the wall
 *  clock as Go prints it (RFC 3339, UTC) and in ms since the Unix epoch. */
export interface ClockSnapshot {
  trace: number;
  mono: number;
  wall: string;
  wallMs: number;
}

export interface SeriesPoints {
  type: 'series';
  /** true: each point is a change (value holds from time on). false: one point per pixel. */
  exact: boolean;
  time: Float64Array;
  value: Float64Array;
  min: Float64Array;
  max: Float64Array;
}

export interface WakeEdges {
  type: 'edges';
  /** More starts than the limit: one per pixel was kept. */
  sampled: boolean;
  fromTime: Float64Array;
  toTime: Float64Array;
  /** Index into wakeKinds. */
  kind: Uint8Array;
  goroutine: Float64Array;
  fromGoroutine: Float64Array;
  fromProc: Float64Array;
  fromThread: Float64Array;
  toProc: Float64Array;
  toThread: Float64Array;
  /** Unblock: why it had blocked (index into reasons, -1 none). */
  reason: Int32Array;
  reasons: string[];
}

/** A goroutine group per pixel: how many of its goroutines are in each state there (on average over the pixel). */
export interface GroupActivity {
  type: 'activity';
  /** Pixel p covers from + p * step on. */
  from: number;
  step: number;
  /** Goroutines in the group. */
  size: number;
  running: Float64Array;
  runnable: Float64Array;
  waiting: Float64Array;
  syscall: Float64Array;
}

export type TimelineResult = SliceRects | SpanRects | InstantMarks | SeriesPoints | WakeEdges | GroupActivity;

export interface Frame {
  func: string;
  file: string;
  line: number;
  pc: number;
}

/** What the details panel shows for one slice of a slice track. */
export interface SliceDetails {
  track: { kind: SliceTrackKind; id: number };
  start: number;
  end: number;
  duration: number;
  state: (typeof sliceStates)[number];
  /** Why it waits / is runnable (goroutine tracks), the STW kind, the range's name. */
  label: string;
  /** The goroutine the slice is about (goroutine tracks: itself; proc/thread: the one run). -1: none */
  goroutine: number;
  /** The event that began the slice (index, Go's text of it) and its stack (leaf first). */
  event: number;
  eventText: string;
  stack: Frame[];
  /** The event that ended it (-1: still open at the end of the trace) and its stack. */
  endEvent: number;
  endStack: Frame[];
  /** For a running slice of a goroutine: who made it runnable. */
  wokenBy: { goroutine: number; time: number; event: number; kind: (typeof wakeKinds)[number]; stack: Frame[] } | null;
  /** The slice after it on the same track (-1 / null at the end). */
  next: { start: number; state: (typeof sliceStates)[number]; goroutine: number; label: string } | null;
}

export declare class Trace {
  /** Why reading stopped early ("" when the whole trace was read). */
  readonly partialError: string;
  readonly eventCount: number;
  stats(): TraceStats;
  events(options?: { from?: number; limit?: number; filter?: EventFilter }): EventPage;
  /** One event: its kind, time, resources and Go's text of it, and its stack (leaf first). */
  eventAt(index: number): {
    index: number; time: number; kind: EventKind; goroutine: number; proc: number; thread: number;
    text: string; stack: Frame[];
    /** For a Sync: its number in the stream, and the clock snapshot of the generation it begins. */
    sync?: { n: number; clock: ClockSnapshot | null };
  };
  /** The clock snapshot of each generation that has one (Go 1.25+ traces). */
  clockSnapshots(): (ClockSnapshot & { generation: number })[];

  /** `gotrace goroutines --json`: summaries and their grouping by start function. */
  goroutines(): GoroutinesResult;
  /** `gotrace tasks --json`. */
  tasks(): TasksResult;
  /** `gotrace regions --json`. */
  regions(): RegionsResult;
  /** The analyses prepare() and advance() build (see analyses()). */
  analyses(): AnalysisInfo[];
  /** An analysis of analyses() as its own result (for those that have one: goroutineGroups, taskTypes, regionTypes, ...). */
  analysis(name: string): unknown;
  /** Computes an analysis now (a name of analyses(), or `flame:${ProfileType}`), so that the calls needing it answer at once later. */
  prepare(what: string): void;
  /**
   * The next piece of a long analysis (one of analyses() with `piecewise`), about
   * `events` events' worth of work; true once it is complete ('mmu': the curve of the
   * default flags, see isDefaultMmuFlags). Other names of prepare() are computed whole.
   */
  advance(what: string, events: number): boolean;
  /** The groups of goroutines() without their goroutines' ids. */
  goroutineGroups(): { count: number; groups: Omit<GoroutineGroup, 'goroutines'>[] };
  /** One group's goroutines sorted by a column, a page of them (all when limit is omitted). */
  goroutineGroupPage(name: string, options?: { sort?: string; desc?: boolean; offset?: number; limit?: number }): {
    group: Omit<GoroutineGroup, 'goroutines'>;
    count: number;
    /** The largest total of its goroutines (at least 1). */
    maxTotal: number;
    /** The earliest start (or creation) of its goroutines, null if none. */
    first: number | null;
    /** The latest end of its goroutines, null while any is alive. */
    last: number | null;
    /** goroutines() entries with `regions` as their count. */
    rows: (Omit<GoroutineSummary, 'regions'> & { regions: number })[];
  } | null;
  /** One goroutine of goroutines() and the name of its group. */
  goroutine(id: number): { goroutine: GoroutineSummary; group: string } | null;
  /** The types of tasks(). */
  taskTypes(): { types: TaskType[] };
  /** The complete tasks of a type in the histogram bucket starting at `min` ns; with
   *  `min` null, every task of the type, complete or not. */
  tasksInBucket(name: string, min: number | null): TaskInfo[];
  /** One task of tasks(). */
  task(id: number): TaskInfo | null;
  /** The critical path of a task, a region or a goroutine (`gotrace critical-path --json`). */
  criticalPath(selection: PathSelection): CriticalPath;
  /** Every task or region of a type's critical path summed; pc (a RegionType's) only the regions begun there, min/max (ns) pick a histogram bucket, slowest a tail percentage. */
  criticalPaths(selection: ({ taskType: string } | { regionType: string; pc?: number }) & { min?: number; max?: number; slowest?: number }): PathAggregate;
  /** What changed from `before` to this trace (`gotrace diff --json`). */
  diffFrom(before: Trace, options?: { top?: number }): TraceDiff;
  /** The differential profile of a type from `before` to this trace, a gzipped pprof. */
  diffPprofFrom(before: Trace, type: 'net' | 'sync' | 'syscall' | 'sched' | 'cpu'): Uint8Array;
  /** The types of regions(). */
  regionTypes(): { types: RegionType[] };
  /** The regions named `name` in the histogram bucket starting at `min` ns; with `pc`
   *  (a RegionType's), only those begun there: that region type's own. */
  regionsInBucket(name: string, min: number, pc?: number): RegionInfo[];
  /** Task logs whose category or message contains `text` (ASCII case folded). */
  taskLogsMatching(text: string, limit?: number): { task: number; time: number; goroutine: number; category: string; message: string }[];
  /** The wake edges of timeline({kind: 'edges', limit}, t0, t1, pixels) that woke goroutine id or that it made, counted per goroutine. */
  goroutineWakeups(id: number, t0: number, t1: number, options?: { pixels?: number; limit?: number }): {
    wokenBy: { goroutine: number; count: number; first: number }[];
    woke: { goroutine: number; count: number; first: number }[];
    sampled: boolean;
  };
  /** Every wake edge that woke goroutine id or that it made in [t0, t1], counted per goroutine (goroutineWakeups() with no limit), from an index built on first use. */
  wakeups(id: number, t0: number, t1: number): {
    wokenBy: { goroutine: number; count: number; first: number }[];
    woke: { goroutine: number; count: number; first: number }[];
    sampled: false;
  };
  /** MMU for these window lengths (ns; default 1µs..1s by decades), worst windows and a curve. */
  mmu(windows?: number[], flags?: MmuFlags): MmuResult;

  /** The profile of `go tool trace -pprof=TYPE`, as a gzipped pprof protobuf. */
  pprof(type: ProfileType, filter?: ProfileFilter): Uint8Array;
  /** The same profile as a flame graph. */
  flame(type: ProfileType, filter?: ProfileFilter): FlameGraph;

  /** The SQL tables of the trace (docs/sql.md): names, columns and row counts. */
  sqlSchema(): SqlTableSchema[];
  /**
   * One SQL table's values, column by column (see SqlColumn). `traceId` fills the
   * trace_id column (default 0); `path` the traces table's path; `offset`/`limit` give a
   * slice of the rows; `raw` gives BIGINT as BigInt64Array and VARCHAR as a dictionary
   * and codes.
   */
  sqlTable(name: string, options?: SqlTableOptions & { raw?: false }): SqlTableData;
  sqlTable(name: string, options: SqlTableOptions & { raw: true }): SqlTableData<SqlRawValues>;
  /**
   * One SQL table as a Parquet file written by the core (BIGINTs delta-encoded, VARCHARs
   * dictionary-encoded, uncompressed). With `write`, the bytes go to it a row group at a
   * time (a view of the core's memory: copy or write it before returning); without, the
   * file is returned. `rows` limits events or g_transitions to rows [from, to) (to < 0:
   * to the end). The whole g_transitions, asked for before the other tables of the
   * goroutine summary, is written as the summary counts its intervals, which are not kept
   * (on a large trace, most of the summary's memory).
   */
  sqlParquet(name: string, options: { traceId?: number; path?: string; rows?: [number, number]; write: (bytes: Uint8Array) => void }): void;
  sqlParquet(name: string, options?: { traceId?: number; path?: string; rows?: [number, number] }): Uint8Array;

  /** Every track of the timeline (builds the timeline index on first use). */
  tracks(): TrackList;
  /** One track for [t0, t1) drawn in `pixels`: exact where wider than a pixel, merged below. */
  timeline(track: TrackRef, t0: number, t1: number, pixels: number): TimelineResult;
  /** The slice of a slice track at a time (null if none). */
  sliceDetails(track: { kind: SliceTrackKind; id?: number }, time: number): SliceDetails | null;

  dispose(): void;
}

/** Whether `flags` are mmu()'s defaults, the flags whose curve advance('mmu') builds. */
export declare function isDefaultMmuFlags(flags?: MmuFlags): boolean;

export declare function loadCore(): Promise<unknown>;

/** An analysis the core builds and keeps: its name, whether advance() builds it a piece at a time, and what it needs built first. */
export interface AnalysisInfo {
  name: string;
  piecewise: boolean;
  needs: string | null;
  /** Computed ahead of requests by a viewer (false: built on the first request that needs it). */
  ahead: boolean;
}

/** What a critical path is of: a task, a region ("NAME" or "NAME#N"), or a goroutine over its life or a range. */
export type PathSelection = { task: number } | { region: string } | { goroutine: number; from?: number; to?: number };
export interface PathSegment {
  goroutine: number;
  /** running, runnable, syscall, blocked, GC mark assist, GC sweep, stop-the-world, not in trace */
  state: string;
  /** Go's block reason, or the stop of the world's kind. */
  reason: string | null;
  start: number;
  end: number;
  /** The stack that explains it (0: none); its frames are in `stacks`. */
  stack: number;
  function: string;
}
export interface PathTotal {
  key: string;
  goroutine?: number;
  ns: number;
  /** Of the path's duration (or the instances' total time). */
  share: number;
}
export interface CriticalPath {
  goroutine: number;
  from: number;
  to: number;
  duration: number;
  handoffs: number;
  /** In time order; they cover [from, to] once. */
  segments: PathSegment[];
  by_category: PathTotal[];
  by_goroutine: PathTotal[];
  by_function: PathTotal[];
  stacks: Record<string, { func: string; file: string; line: number }[]>;
}
export interface PathAggregate {
  kind: 'task' | 'region';
  name: string;
  /** The regions' pc, when selected by it. */
  pc?: number;
  instances: number;
  durations: { min: number; p50: number; p90: number; p99: number; max: number; total: number };
  by_category: PathTotal[];
  by_function: PathTotal[];
}
/** `gotrace diff --json` (see its --help): every figure before, after and delta. */
export interface TraceDiff {
  before: { from: number; to: number };
  after: { from: number; to: number };
  groups: { name: string; before: Record<string, number>; after: Record<string, number>; delta: Record<string, number>; relative: Record<string, number | null> }[];
  /** Durations of the tasks that end; `not_ended`: the tasks begun that do not end, on each side. */
  tasks: { name: string; not_ended: { before: number; after: number }; before: unknown; after: unknown; delta: Record<string, number> }[];
  regions: { name: string; before: unknown; after: unknown; delta: Record<string, number> }[];
  gc: { before: GcFigures; after: GcFigures; delta: { cycles: number; stw_count: number; stw_ns: number } };
  profiles: Record<string, { before: { count: number; ns: number }; after: { count: number; ns: number }; delta: { count: number; ns: number }; /** The stacks whose figure changed most; `name`: the own frame, with callers where needed to tell the stacks listed apart. */ stacks: { stack: string; function: string; name: string; before: { count: number; ns: number }; after: { count: number; ns: number }; delta: { count: number; ns: number } }[] }>;
}
export interface GcFigures {
  cycles: number;
  stw_count: number;
  stw_ns: number;
  /** [window ns, MMU] at 1 µs .. 1 s. */
  mmu: [number, number][];
}
/** The analyses prepare() and advance() build, in the order to compute them ahead of requests (the core's one list). */
export declare function analyses(): Promise<AnalysisInfo[]>;
/** Bytes are copied into WebAssembly memory once; a Blob (a File) is read straight into it,
 *  and in a worker as it is parsed, a piece at a time (a Go 1.22+ trace's bytes are then
 *  never all in memory). */
export declare function openTrace(input: Uint8Array | ArrayBuffer | Blob, options?: OpenOptions): Promise<Trace>;
/** In Node: a trace file read as it is parsed, straight into WebAssembly memory (a Go
 *  1.22+ trace about a generation at a time: its bytes are never all in memory). */
export declare function openTraceFile(path: string, options?: OpenOptions): Promise<Trace>;

/** One generation of a trace (Go 1.22+ traces are cut into generations, each read on its own). */
export interface GenerationSpan {
  /** The generation's number in the trace (Go's). */
  number: number;
  /** The time of its first and last event, ns. */
  start: number;
  end: number;
  /** Its events (with its Sync) and the bytes of its batches. */
  events: number;
  bytes: number;
}

/**
 * A trace too large to hold whole, read once (streamed: about a generation in memory at
 * a time) for its stats and its generations; any run of the generations read so far then
 * opens as a Trace of its own, read again from the same bytes: the events the whole trace
 * has there, with the states it had where the run begins. The read may go on a few
 * generations at a time (advance), parts open meanwhile.
 */
export declare class TraceIndex {
  /** The error that stopped the read early ("" while none did). */
  readonly partialError: string;
  /** Whether the whole trace has been read. */
  readonly complete: boolean;
  /** The generations read; while the read goes on, the last one read waits for the next. */
  readonly generations: GenerationSpan[];
  /** Reads up to `generations` more generations (1 by default): false once the whole trace is read. */
  advance(generations?: number): boolean;
  /** The whole trace's stats (as Trace.stats()); while the read goes on, of what was read. */
  stats(): TraceStats;
  /** Generations [first, last] (indices into `generations`) as a Trace; throws a
   *  RangeError for generations not read. */
  openPart(first: number, last: number, options?: OpenOptions): Trace;
  /** Goroutine `id`, seen in generations [first, last], over its whole life: as the whole
   *  trace's Trace.goroutine(id) gives it, its generations (`generations`: those read)
   *  read again one at a time. Null if those generations do not name it. While the trace
   *  is being read, a life that goes on past the generations read throws ("still being
   *  read"); one that ends in them is answered. */
  goroutine(id: number, first: number, last: number):
    { goroutine: GoroutineSummary; group: string; generations: [number, number] } | null;
  // The whole trace's goroutine, task and region views, summarized as the index read it:
  // each answers as a Trace of the whole trace does, once the read is over (or broke off:
  // of what was read); while it goes on, each throws ("still being read").
  goroutineGroups(): ReturnType<Trace['goroutineGroups']>;
  goroutineGroupPage(name: string, options?: Parameters<Trace['goroutineGroupPage']>[1]): ReturnType<Trace['goroutineGroupPage']>;
  /** Why the whole trace's summaries were let go, past their budget ("" while kept). */
  readonly summaryError: string;
  /**
   * What the whole trace's summaries take: `archived` when they are put away as each
   * ended (~40 bytes a goroutine), which the index does where the first generation
   * foretells that summaries held in arrays would pass `summaryBytes`.
   */
  readonly summaryMemory: { bytes: number; archived: boolean };
  /** The whole trace's MMU, of the default flags only (others throw): as Trace.mmu(). */
  mmu(...args: Parameters<Trace['mmu']>): ReturnType<Trace['mmu']>;
  /** The whole trace's timeline zoomed out (proc, thread, gc, stw, sweep tracks, the series
   *  and the goroutine groups, {kind: 'group', name}), at timelineExtent().bucket ns of
   *  detail: as Trace.timeline(). */
  timeline(...args: Parameters<Trace['timeline']>): ReturnType<Trace['timeline']>;
  /** The whole timeline's span and detail (ns), its bytes, its goroutine groups' names and
   *  the ids of its proc, thread and sweep tracks (ascending). */
  timelineExtent(): {
    start: number;
    end: number;
    bucket: number;
    bytes: number;
    groups: string[];
    procs: number[];
    threads: number[];
    sweep: number[];
  };
  /** Reads up to `generations` more of the second read that makes the whole trace's
   *  profiles, once the first read is over: false once they are made (or cannot be). */
  advanceProfiles(generations?: number): boolean;
  /** Reads ahead what the next advance() or advanceProfiles() reads, where the source can
   *  (a Blob in a worker: through a stream into one buffer, leaving no garbage behind).
   *  Await it between them. */
  readAhead(): Promise<void>;
  /** The whole trace's task logs whose category or message holds `text`: as Trace.taskLogsMatching(). */
  taskLogsMatching(...args: Parameters<Trace['taskLogsMatching']>): ReturnType<Trace['taskLogsMatching']>;
  /** The whole trace's profile of a type, once made: as Trace.flame(type) with no filter. */
  flame(type: ProfileType): ReturnType<Trace['flame']>;
  /** The whole trace's profile of a type, once made: as Trace.pprof(type) with no filter. */
  pprof(type: ProfileType): ReturnType<Trace['pprof']>;
  goroutineSummary(id: number): ReturnType<Trace['goroutine']>;
  taskTypes(): ReturnType<Trace['taskTypes']>;
  tasksInBucket(name: string, min: number | null): ReturnType<Trace['tasksInBucket']>;
  task(id: number): ReturnType<Trace['task']>;
  regionTypes(): ReturnType<Trace['regionTypes']>;
  regionsInBucket(name: string, min: number, pc?: number): ReturnType<Trace['regionsInBucket']>;
  /** Frees the index (and closes the file it reads, where it opened one); parts opened from it stay open. */
  dispose(): void;
}
/** Reads a Go 1.22+ trace for its TraceIndex: a Blob (a File) in a worker, a file's path
 *  in Node (kept open until disposed), or bytes; the whole trace before it resolves, or
 *  with `generations` that many generations at least (index.advance() reads on). Rejects
 *  for an older trace (it has no generations: openTrace reads it whole) and when no
 *  generation could be read. The whole trace's goroutine, task and region summaries are
 *  made as it reads, in at most `summaryBytes` (default 640 MiB): held in arrays where the
 *  first generation foretells that they take at most `heldSummaryBytes` (default 64 MiB),
 *  else put away as each ends (~40 bytes each, a fifth of the arrays'; `archiveSummaries`:
 *  so whatever is foretold); past it they are let go, and those answers throw, saying so.
 *  The trace is read `readBytes` (default 8 MiB) at a time at least; a Blob in a worker,
 *  twice that ahead (TraceIndex.readAhead). */
export declare function openTraceIndex(
  input: string | Uint8Array | ArrayBuffer | Blob,
  options?: Pick<OpenOptions, 'onProgress'> & {
    generations?: number; summaryBytes?: number; heldSummaryBytes?: number; archiveSummaries?: boolean; readBytes?: number;
  },
): Promise<TraceIndex>;

export type SqlType = 'BIGINT' | 'INTEGER' | 'DOUBLE' | 'VARCHAR' | 'BOOLEAN';

/** A SQL table of a trace: its name, row count and columns (`values`: the closed set a
 *  VARCHAR column's strings come from, where they do). */
export interface SqlTableSchema {
  name: string;
  rows: number;
  columns: { name: string; type: SqlType; values?: string[] }[];
}

export interface SqlTableOptions {
  /** The trace_id column's value (default 0). */
  traceId?: number;
  /** The traces table's path column. */
  path?: string;
  /** The first row to give (default 0). */
  offset?: number;
  /** At most this many rows (default: all). */
  limit?: number;
}

/**
 * A column's values: BIGINT (times in ns, ids) as Float64Array, INTEGER as Int32Array,
 * BOOLEAN as Uint8Array, VARCHAR as strings (null where missing).
 */
export type SqlValues = Float64Array | Int32Array | Uint8Array | (string | null)[];
/** With `raw`: BIGINT as BigInt64Array, VARCHAR as each string once and a code per row. */
export type SqlRawValues = BigInt64Array | Int32Array | Uint8Array | Float64Array | { dictionary: string[]; codes: Int32Array };

export interface SqlColumn<V = SqlValues> {
  name: string;
  type: SqlType;
  values: V;
  /** Present when some values are missing (SQL NULL): 1 = NULL. */
  nulls?: Uint8Array;
}

export interface SqlTableData<V = SqlValues> {
  name: string;
  rows: number;
  columns: SqlColumn<V>[];
}

/**
 * The SQL tables every trace has and their columns (trace.sqlSchema() adds row counts);
 * `values` lists the strings a VARCHAR column can hold when they are a closed set (event
 * kinds and types, states, resources), which a database may keep as an ENUM.
 */
export declare function sqlTables(): Promise<{ name: string; columns: { name: string; type: SqlType; values?: string[] }[] }[]>;
