// The SQL view. Its code and DuckDB-Wasm are fetched when the view is first opened, never
// with the app: all this adds to the app's first load is this file.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';

let loading = null;

function SqlTab(props) {
  const [mod, setMod] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    loading ??= import('./SqlView.jsx');
    loading.then(setMod, (e) => {
      loading = null;
      setError(e);
    });
  }, []);
  if (error) return h('p', { class: 'gt-error', role: 'alert', 'data-testid': 'sql-error' }, `Could not load the SQL view: ${error.message}`);
  return mod ? h(mod.SqlView, props) : h('p', { class: 'gt-loading' }, 'Loading the SQL view…');
}

// A query is of no trace in particular: another trace opened keeps it (and runs it).
export const routes = [{ path: '/sql', view: SqlTab, tab: { label: 'SQL', order: 90 }, anyTrace: ['q'] }];
