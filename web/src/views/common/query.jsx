import { useLayoutEffect, useState } from 'preact/hooks';

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

/** Loading / error placeholder shared by the views. */
export function Pending({ state, what }) {
  if (state.error) return <p class="gt-error" role="alert">Could not compute {what}: {String(state.error.message ?? state.error)}</p>;
  return <p class="gt-loading">Computing {what}…</p>;
}
