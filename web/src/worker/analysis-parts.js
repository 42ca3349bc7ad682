// The goroutine, task and region analyses are large on a large trace (hundreds of
// thousands of summaries): the worker keeps each one, once computed, and hands the page
// only the part a view shows (the groups, one group, one goroutine, one histogram bar).
import { bucketIndex, bucketOfMin } from '../views/tasks/buckets.js';
import { search } from '../views/search/searchIndex.js';
import { sortGoroutines } from '../views/goroutines/breakdown.js';

const cache = new WeakMap();

function kept(trace, key, compute) {
  let c = cache.get(trace);
  if (!c) cache.set(trace, (c = new Map()));
  if (!c.has(key)) c.set(key, compute());
  return c.get(key);
}

const goroutines = (trace) => kept(trace, 'goroutines', () => {
  const r = trace.goroutines();
  const byId = new Map();
  for (const g of r.goroutines) byId.set(g.id, g);
  const groupOf = new Map();
  for (const grp of r.groups) for (const id of grp.goroutines) groupOf.set(id, grp.name);
  return { ...r, byId, groupOf };
});

const tasks = (trace) => kept(trace, 'tasks', () => {
  const r = trace.tasks();
  const byId = new Map();
  for (const t of r.tasks) byId.set(t.id, t);
  return { ...r, byId };
});

const regions = (trace) => kept(trace, 'regions', () => trace.regions());

/** Instances of one type whose duration falls in the histogram bucket starting at min. */
function inBucket(items, name, min) {
  const b = bucketOfMin(min);
  return items.filter((x) => x.name === name && x.duration != null && bucketIndex(x.duration) === b);
}

export function analysisPart(trace, what, arg) {
  switch (what) {
    case 'goroutineGroups': {
      const g = goroutines(trace);
      return { count: g.goroutines.length, groups: g.groups.map(({ goroutines: _ids, ...rest }) => rest) };
    }
    case 'goroutineGroup': {
      const g = goroutines(trace);
      const group = g.groups.find((x) => x.name === arg);
      return group ? { group, goroutines: group.goroutines.map((id) => g.byId.get(id)).filter(Boolean) } : null;
    }
    case 'goroutineGroupPage': {
      // A group's goroutines sorted, and only the first `limit` of them.
      const g = goroutines(trace);
      const group = g.groups.find((x) => x.name === arg.name);
      if (!group) return null;
      const rows = group.goroutines.map((id) => g.byId.get(id)).filter(Boolean);
      let maxTotal = 1;
      let t0 = Infinity;
      let t1 = -Infinity;
      let alive = false;
      for (const x of rows) {
        maxTotal = Math.max(maxTotal, x.stats.total ?? 0);
        if (x.start || x.creation) t0 = Math.min(t0, x.start || x.creation);
        if (x.end) t1 = Math.max(t1, x.end);
        else alive = true;
      }
      const { goroutines: _ids, ...summary } = group;
      return {
        group: summary,
        count: rows.length,
        maxTotal,
        first: Number.isFinite(t0) ? t0 : null,
        last: alive || !Number.isFinite(t1) ? null : t1,
        rows: sortGoroutines(rows, arg.sort, arg.desc).slice(0, arg.limit ?? rows.length),
      };
    }
    case 'goroutine': {
      const g = goroutines(trace);
      const summary = g.byId.get(arg);
      return summary ? { goroutine: summary, group: g.groupOf.get(arg) ?? summary.name } : null;
    }
    case 'taskTypes':
      return { types: tasks(trace).types };
    case 'tasksInBucket':
      return inBucket(tasks(trace).tasks, arg.name, arg.min);
    case 'task':
      return tasks(trace).byId.get(arg) ?? null;
    case 'regionTypes':
      return { types: regions(trace).types };
    case 'regionsInBucket':
      return inBucket(regions(trace).regions, arg.name, arg.min);
    case 'search':
      return search(arg, { goroutines: goroutines(trace), tasks: tasks(trace), regions: regions(trace) });
    default:
      throw new Error(`unknown analysis part ${what}`);
  }
}
