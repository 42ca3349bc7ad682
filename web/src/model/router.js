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

/** '?sort=total' from {sort:'total'} ('' when every value is empty). */
export function queryString(query = {}) {
  const entries = Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '');
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

export function useHash() {
  const [route, setRoute] = useState(() => parseHash());
  useEffect(() => {
    const on = () => setRoute(parseHash());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
