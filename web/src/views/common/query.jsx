import { useLayoutEffect, useState } from 'preact/hooks';

// Answers of the analyses, kept per opened trace (the views' `trace`, an OpenedTrace:
// one per open): the views ask again every time they open, the worker is asked once.
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

/** Runs an async query when its deps change; the latest answer wins. */
export function useAsync(run, deps) {
  const [state, setState] = useState({ loading: true, data: null, error: null });
  // A layout effect: the request leaves as the view is rendered, not a frame later
  // (after the browser has painted), as a plain effect would.
  useLayoutEffect(() => {
    let live = true;
    setState((s) => ({ loading: true, data: s.data, error: null }));
    Promise.resolve()
      .then(run)
      .then(
        (data) => live && setState({ loading: false, data, error: null }),
        (error) => live && setState({ loading: false, data: null, error }),
      );
    return () => { live = false; };
  }, deps);
  return state;
}

// The big analyses stay in the worker (worker/analysis-parts.js); views ask for the
// part they show.
export const part = (trace, what, arg) => cached(trace, `part ${what} ${JSON.stringify(arg ?? null)}`, () => trace.call('part', what, arg));
export const groupsOf = (trace) => part(trace, 'goroutineGroups');
export const regionTypesOf = (trace) => part(trace, 'regionTypes');
export const statsOf = (trace) => cached(trace, 'stats', () => trace.stats());

/** Loading / error placeholder shared by the views. */
export function Pending({ state, what }) {
  if (state.error) return <p class="gt-error" role="alert">Could not compute {what}: {String(state.error.message ?? state.error)}</p>;
  return <p class="gt-loading">Computing {what}…</p>;
}
