// The route registry. Each folder under views/ that has a routes.js adds its views here,
// with no edit to this file:
//
//   // views/goroutines/routes.js
//   import { Goroutines } from './Goroutines.jsx';
//   export const routes = [
//     { path: '/goroutines', view: Goroutines, tab: { label: 'Goroutines', order: 30 } },
//     { path: '/goroutines/group/:name', view: Group, tabPath: '/goroutines' },
//   ];
//   export const headerItems = [SearchBox];   // optional: components shown in the top bar
//
// A view receives { trace, info, params, query, route } — trace: the TraceClient
// (model/client.js), info: what open() returned ({ stats, partialError, eventCount }),
// params: the :names of its path, query: the hash's query (all strings), route: the
// parsed hash. A tab's `href` defaults to its path. `tabPath` marks which tab a page
// belongs to (a function of the query where that depends on what the page shows: see
// tabOf). `anyTrace` lists the query's keys that hold for any trace (kept when another
// trace is opened). Link with model/router.js: href(path, query) and navigate(path, query).
const modules = import.meta.glob('./*/routes.js', { eager: true });

export const routes = Object.values(modules).flatMap((m) => m.routes ?? []);

/** The tab a route's page belongs to: its tabPath (of the query, if a function), or its own path. */
export function tabOf(r, route) {
  const t = typeof r?.tabPath === 'function' ? r.tabPath(route.query ?? {}) : r?.tabPath;
  return t ?? r?.path ?? route.path;
}

export const headerItems = Object.values(modules).flatMap((m) => m.headerItems ?? []);

// Paths the app knows of, shown as "not available in this build" until a folder
// registers them.
export const plannedTabs = [
  { path: '/overview', label: 'Overview', order: 10 },
  { path: '/timeline', label: 'Timeline', order: 20 },
  { path: '/goroutines', label: 'Goroutines', order: 30 },
  { path: '/tasks', label: 'Tasks', order: 40 },
  { path: '/regions', label: 'Regions', order: 50 },
  { path: '/profiles/sync', label: 'Profiles', order: 60, prefix: '/profiles' },
  { path: '/mmu', label: 'MMU', order: 70 },
];

export function tabs() {
  const out = new Map();
  for (const t of plannedTabs) out.set(t.prefix ?? t.path, { ...t, available: false });
  for (const r of routes) {
    if (!r.tab) continue;
    const key = r.tab.prefix ?? r.path;
    out.set(key, {
      path: r.tab.href ?? r.path,
      label: r.tab.label,
      order: r.tab.order ?? 100,
      prefix: r.tab.prefix,
      available: true,
    });
  }
  return [...out.values()].sort((a, b) => a.order - b.order);
}
