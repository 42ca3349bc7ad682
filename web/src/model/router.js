// The view lives in the URL hash: #/path/segments?key=value&… (deep links; a reload
// restores the view). Path segments and query values are URI-encoded.
import { useEffect, useState } from 'preact/hooks';

export function parseHash(hash = location.hash) {
  const raw = hash.replace(/^#/, '') || '/overview';
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const query = Object.fromEntries(new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)));
  const segments = path.split('/').filter(Boolean).map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  return { path: '/' + segments.join('/'), segments, query };
}

/** '#/goroutines/group/main.worker?sort=total' from ('/goroutines/group/main.worker', {sort:'total'}). */
export function href(path, query = {}) {
  const p = path
    .split('/')
    .filter(Boolean)
    .map((s) => encodeURIComponent(s))
    .join('/');
  return `#/${p}${queryString(query)}`;
}

/**
 * '?sort=total' from {sort:'total'} ('' when no value is set). An empty string is a value:
 * the unnamed region type, the goroutines with no start function (undefined or null: none).
 */
export function queryString(query = {}) {
  const entries = Object.entries(query).filter(([, v]) => v !== undefined && v !== null);
  return entries.length ? '?' + new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString() : '';
}

/** Goes to a view. With replace, the history entry is replaced (for pan/zoom). */
export function navigate(path, query = {}, { replace = false } = {}) {
  const h = href(path, query);
  if (h === location.hash) return;
  if (replace) {
    history.replaceState(history.state, '', h);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    location.hash = h;
  }
}

/** Matches '/goroutines/group/:name' against a parsed path; returns params or null. */
export function match(pattern, segments) {
  const parts = pattern.split('/').filter(Boolean);
  if (parts.length !== segments.length) return null;
  const params = {};
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].startsWith(':')) params[parts[i].slice(1)] = segments[i];
    else if (parts[i] !== segments[i]) return null;
  }
  return params;
}

// Which trace an address belongs to: each history entry made while a trace is open
// carries that trace's stamp (history.state.trace), so that Back or Forward to a page of
// another trace does not show this trace's goroutine, task or time of the same number.
let traceStamp = null;
let traceSearch = '';  // the address's query of the trace open (?url=…, or none)
let foreignEntry = null;

/** From now on the addresses are of the trace `stamp` (the current entry too). */
export function stampHistory(stamp) {
  traceStamp = stamp;
  traceSearch = location.search;
  history.replaceState({ ...(history.state ?? {}), trace: stamp }, '');
}

/** The address's query (?url=…) now says how the trace open was opened. */
export function traceSearchChanged() {
  traceSearch = location.search;
}

/** `handle(route)` is given, instead of the view, an entry of another trace reached by
 *  Back or Forward (which then belongs to the trace open: it must be replaced). */
export function onForeignEntry(handle) {
  foreignEntry = handle;
}

// Stamps a new entry with the trace open; false (handled) for another trace's entry.
function entryOfTraceOpen() {
  if (traceStamp === null) return true;
  const state = history.state;
  const stamp = state?.trace;
  // (Only when it changes: the timeline replaces the address as it pans, and browsers
  // throttle a flood of history calls.)
  if (stamp !== traceStamp) history.replaceState({ ...(state ?? {}), trace: traceStamp }, '');
  if (stamp === undefined || stamp === traceStamp || !foreignEntry) return true;
  // Its ?url= too is the other trace's: a reload must open the trace open.
  if (location.search !== traceSearch) history.replaceState(history.state, '', location.pathname + traceSearch + location.hash);
  const before = location.hash;
  foreignEntry(parseHash());
  return location.hash === before;  // left as it was: it names nothing of the other trace
}

export function useHash() {
  const [route, setRoute] = useState(() => parseHash());
  useEffect(() => {
    const on = () => entryOfTraceOpen() && setRoute(parseHash());
    // Back or Forward to an entry whose query differs (?url=) fires popstate alone.
    window.addEventListener('hashchange', on);
    window.addEventListener('popstate', on);
    return () => {
      window.removeEventListener('hashchange', on);
      window.removeEventListener('popstate', on);
    };
  }, []);
  return route;
}
