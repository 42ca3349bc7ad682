// The goroutine, task and region analyses are large on a large trace (hundreds of
// thousands of summaries): the engine keeps them, once computed, and each part a view
// shows (the groups, a page of one group, one goroutine, a histogram bar) is cut out
// there and sent as small JSON.
import { search } from '../model/searchIndex.js';

// The small answers worth keeping here: every view of their kind asks for them.
const cache = new WeakMap();

function kept(trace, key, compute) {
  let c = cache.get(trace);
  if (!c) cache.set(trace, (c = new Map()));
  if (!c.has(key)) c.set(key, compute());
  return c.get(key);
}

const groups = (trace) => kept(trace, 'goroutineGroups', () => trace.goroutineGroups());
const taskTypes = (trace) => kept(trace, 'taskTypes', () => trace.taskTypes());
const regionTypes = (trace) => kept(trace, 'regionTypes', () => trace.regionTypes());

// What searchIndex.search reads, answered by the engine: goroutines and tasks by id,
// the types, and only the task logs that match (`trace`: a Trace, or a TraceIndex of the
// whole trace; `goroutineOf(id)`: its goroutine `id`'s {goroutine, group}).
function searchSources(trace, goroutineOf, text, limit) {
  const byId = (get) => {
    const seen = new Map();
    const one = (id) => {
      if (!seen.has(id)) seen.set(id, get(id));
      return seen.get(id);
    };
    return { has: (id) => one(id) != null, get: one };
  };
  const logs = trace.taskLogsMatching(text.trim(), limit);
  const tasks = [];
  for (const l of logs) {
    if (tasks.at(-1)?.id !== l.task) tasks.push({ id: l.task, logs: [] });
    tasks.at(-1).logs.push(l);
  }
  return {
    goroutines: { byId: byId((id) => goroutineOf(id)?.goroutine), groups: groups(trace).groups },
    tasks: { byId: byId((id) => trace.task(id)), types: taskTypes(trace).types, tasks },
    regions: regionTypes(trace),
  };
}

export function analysisPart(trace, what, arg) {
  switch (what) {
    case 'goroutineGroups':
      return groups(trace);
    case 'goroutine':
      return trace.goroutine(arg);
    case 'goroutineWakeups':
      return trace.goroutineWakeups(arg.id, arg.t0, arg.t1);
    case 'wakeups':
      return trace.wakeups(arg.id, arg.t0, arg.t1);
    case 'taskTypes':
      return taskTypes(trace);
    case 'regionTypes':
      return regionTypes(trace);
    case 'search':
      return search(arg, searchSources(trace, (id) => trace.goroutine(id), arg, 30));
    default:
      return pageOf(trace, what, arg);
  }
}

// The same parts of the whole trace, for a trace opened in parts: answered by its index
// (TraceIndex), which summarized the whole trace as it read it (and profiled it in a
// second read); an Error while the read goes on, or where the summaries were let go
// (too large for the tab).
export function wholeTracePart(index, what, arg) {
  switch (what) {
    case 'goroutineGroups':
      return index.goroutineGroups();
    case 'goroutine':
      return index.goroutineSummary(arg);
    case 'taskTypes':
      return index.taskTypes();
    case 'regionTypes':
      return index.regionTypes();
    case 'mmu':
      return index.mmu(arg.windows, arg.flags);
    case 'timelineExtent':
      return index.timelineExtent();
    case 'flame':
      return index.flame(arg);
    case 'pprof':
      return index.pprof(arg);
    case 'search':
      return search(arg, searchSources(index, (id) => index.goroutineSummary(id), arg, 30));
    default:
      return pageOf(index, what, arg);
  }
}

// The pages both answer alike (a Trace, or a TraceIndex of the whole trace).
function pageOf(source, what, arg) {
  switch (what) {
    case 'goroutineGroup': {
      const page = source.goroutineGroupPage(arg);
      return page && { group: page.group, goroutines: page.rows };
    }
    case 'goroutineGroupPage': {
      const limit = Number.isFinite(arg.limit) ? arg.limit : undefined;
      return source.goroutineGroupPage(arg.name, { sort: arg.sort, desc: arg.desc, limit });
    }
    case 'tasksInBucket':
      return source.tasksInBucket(arg.name, arg.min);
    case 'task':
      return source.task(arg);
    case 'regionsInBucket':
      return source.regionsInBucket(arg.name, arg.min, arg.pc);
    default:
      throw new Error(`unknown analysis part ${what}`);
  }
}

/** Events per piece of a long analysis: some tens of milliseconds of work. */
export const PIECE_EVENTS = 1 << 19;

// The parts kept here that an analysis of the same name answers.
const partsOf = { goroutineGroups: groups, taskTypes, regionTypes };

/**
 * The analyses the engine lists (trace.analyses()) to build ahead, in its order,
 * computed ahead of a request. A step that returns false is not done: it is called
 * again (the long analyses, a piece of pieceEvents() events at a time).
 */
export function backgroundSteps(trace, pieceEvents = () => PIECE_EVENTS) {
  return trace.analyses().filter((a) => a.ahead).map(({ name, piecewise }) => (piecewise
    ? () => trace.advance(name, pieceEvents())
    : () => {
      partsOf[name]?.(trace);
      trace.prepare(name);
    }));
}
