import { useEffect, useState } from 'preact/hooks';

// Answers of the analyses, kept per open trace (per client): the views ask again every
// time they open, the worker is asked once.
const cache = new WeakMap();

export function cached(client, key, run) {
  let entries = cache.get(client);
  if (!entries) cache.set(client, (entries = new Map()));
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
  useEffect(() => {
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

export const goroutinesOf = (client) => cached(client, 'goroutines', async () => {
  const result = await client.goroutines();
  const byId = new Map();
  for (const g of result.goroutines) byId.set(g.id, g);
  const groupOf = new Map();
  for (const grp of result.groups) for (const id of grp.goroutines) groupOf.set(id, grp.name);
  return { ...result, byId, groupOf };
});
export const tasksOf = (client) => cached(client, 'tasks', async () => {
  const result = await client.tasks();
  const byId = new Map();
  for (const t of result.tasks) byId.set(t.id, t);
  return { ...result, byId };
});
export const regionsOf = (client) => cached(client, 'regions', () => client.regions());
export const statsOf = (client) => cached(client, 'stats', () => client.stats());

/** Loading / error placeholder shared by the views. */
export function Pending({ state, what }) {
  if (state.error) return <p class="gt-error" role="alert">Could not compute {what}: {String(state.error.message ?? state.error)}</p>;
  return <p class="gt-loading">Computing {what}…</p>;
}
