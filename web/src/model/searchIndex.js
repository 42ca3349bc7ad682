// What the search box finds: goroutines by id or start function, tasks by id or type,
// region types, and log categories / messages. Pure: it takes the analyses' answers.

import { countOf } from './format.js';

const groupHref = (name) => `#/goroutines/group/${encodeURIComponent(name)}`;
const href = (path, query) => `#${path}?${new URLSearchParams(query)}`;

export function search(text, { goroutines, tasks, regions }, limit = 30) {
  const q = text.trim();
  if (!q) return [];
  const lower = q.toLowerCase();
  const out = [];
  // The longer words first: "goroutine 31" is not "g" and "oroutine 31".
  const idText = q.replace(/^(goroutine|task|g|t)\s*/i, '');
  const id = /^\d+$/.test(idText) ? Number(idText) : null;
  const wantTask = /^(task|t)\s*\d+$/i.test(q);
  if (id != null && !wantTask && goroutines.byId.has(id)) {
    const g = goroutines.byId.get(id);
    out.push({ kind: 'goroutine', label: `G${id}`, detail: g.name || '(no start function)', href: `#/goroutine/${id}` });
  }
  if (id != null && tasks.byId.has(id)) {
    const t = tasks.byId.get(id);
    out.push({ kind: 'task', label: `task ${id}`, detail: t.name, href: `#/task/${id}` });
  }
  for (const g of goroutines.groups) {
    if (g.name.toLowerCase().includes(lower)) {
      out.push({ kind: 'goroutines', label: g.name, detail: countOf(g.count, 'goroutine'), href: groupHref(g.name) });
    }
  }
  for (const t of tasks.types) {
    if (t.name.toLowerCase().includes(lower)) {
      out.push({ kind: 'task type', label: t.name, detail: countOf(t.count, 'task'), href: href('/tasks', { name: t.name }) });
    }
  }
  // A region name, once: its types (one per place that begins such regions) summed.
  const regionNames = new Map();
  for (const r of regions.types) {
    if (!r.name.toLowerCase().includes(lower)) continue;
    const seen = regionNames.get(r.name);
    if (seen) {
      seen.count += r.count;
      seen.places++;
    } else {
      regionNames.set(r.name, { count: r.count, places: 1, func: r.func });
    }
  }
  for (const [name, { count, places, func }] of regionNames) {
    const where = places > 1 ? `begun at ${places} places` : func;
    out.push({ kind: 'region', label: name, detail: `${countOf(count, 'region')}${where ? `, ${where}` : ''}`, href: href('/regions', { name }) });
  }
  let logs = 0;
  for (const t of tasks.tasks) {
    for (const l of t.logs) {
      if (logs >= limit) break;
      if (l.category.toLowerCase().includes(lower) || l.message.toLowerCase().includes(lower)) {
        logs++;
        out.push({ kind: 'log', label: l.category ? `${l.category}: ${l.message}` : l.message, detail: `task ${t.id}, G${l.goroutine}`, href: `#/task/${t.id}` });
      }
    }
    if (logs >= limit) break;
  }
  return out.slice(0, limit);
}
