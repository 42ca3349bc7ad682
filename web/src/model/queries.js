// The queries the views make of the opened trace (an OpenedTrace: one per open), their
// answers kept per opened trace: the views ask again every time they open, the worker is
// asked once. The big analyses stay in the worker (worker/analysis-parts.js); the views
// ask for the part they show.
const cache = new WeakMap();

export function cached(trace, key, run) {
  let entries = cache.get(trace);
  if (!entries) cache.set(trace, (entries = new Map()));
  if (!entries.has(key)) {
    const p = Promise.resolve().then(run);
    p.catch(() => entries.delete(key));
    entries.set(key, p);
  }
  return entries.get(key);
}

export const part = (trace, what, arg) => cached(trace, `part ${what} ${JSON.stringify(arg ?? null)}`, () => trace.call('part', what, arg));
export const groupsOf = (trace) => part(trace, 'goroutineGroups');
export const regionTypesOf = (trace) => part(trace, 'regionTypes');
export const statsOf = (trace) => cached(trace, 'stats', () => trace.stats());

// A part in a scope (views/common/scope.jsx): the trace or part open's, or the whole
// trace's (of a trace opened in parts, from its index).
export const scopedPart = (trace, scope, what, arg) => (scope === 'whole'
  ? cached(trace, `whole ${what} ${JSON.stringify(arg ?? null)}`, () => trace.call('whole', what, arg))
  : part(trace, what, arg));
