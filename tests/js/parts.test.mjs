// The calls that answer one view's part of the goroutine, task and region analyses
// (groups, a page of a group, one goroutine, a histogram bar, one task) must give the
// same objects as the whole analyses, cut as the web app used to cut them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openTrace, isDefaultMmuFlags, analyses } from '../../dist/index.js';
import { corpusDir } from './corpus.mjs';
import { GOROUTINE_SORT, sortGoroutines } from '../../web/src/views/common/breakdown.js';
import { bucketIndex, bucketOfMin } from '../../web/src/views/tasks/buckets.js';

const corpus = path.join(corpusDir, 'go');
// go123-futile-wakeup: four region types of one name, begun at four places.
const traces = ['go123-annotations-stress.trace', 'go123-stress.trace', 'go122-workload.trace', 'go123-futile-wakeup.trace'];

async function opened(name) {
  return openTrace(fs.readFileSync(path.join(corpus, name)));
}

const withoutIds = ({ goroutines: _ids, ...group }) => group;
// A row of a group's page: the goroutine with its regions counted.
const row = (g) => ({ ...g, regions: g.regions?.length ?? 0 });

for (const name of traces) {
  test(`goroutine parts equal goroutines() on ${name}`, async () => {
    const trace = await opened(name);
    const all = trace.goroutines();
    const byId = new Map(all.goroutines.map((g) => [g.id, g]));
    trace.prepare('summary');
    // Groups' goroutines ordered ahead on one trace, on demand (a group's first page) on
    // the others: the pages are the same.
    if (name === traces[1]) trace.prepare('goroutineGroups');
    assert.deepEqual(trace.goroutineGroups(), { count: all.goroutines.length, groups: all.groups.map(withoutIds) });
    for (const group of all.groups) {
      const rows = group.goroutines.map((id) => byId.get(id));
      for (const sort of Object.keys(GOROUTINE_SORT)) {
        for (const desc of [true, false]) {
          const page = trace.goroutineGroupPage(group.name, { sort, desc, limit: 5 });
          const want = sortGoroutines(rows, sort, desc);
          assert.equal(page.count, rows.length);
          assert.deepEqual(page.group, withoutIds(group));
          assert.deepEqual(page.rows, want.slice(0, 5).map(row), `${group.name} by ${sort}`);
          assert.deepEqual(trace.goroutineGroupPage(group.name, { sort, desc, offset: 2, limit: 3 }).rows, want.slice(2, 5).map(row));
        }
      }
      const page = trace.goroutineGroupPage(group.name);
      assert.equal(page.rows.length, rows.length);
      assert.equal(page.maxTotal, Math.max(1, ...rows.map((g) => g.stats.total ?? 0)));
      const starts = rows.map((g) => g.start || g.creation).filter(Boolean);
      assert.equal(page.first, starts.length ? Math.min(...starts) : null);
      assert.equal(page.last, rows.some((g) => !g.end) ? null : Math.max(...rows.map((g) => g.end)));
    }
    assert.equal(trace.goroutineGroupPage('no such group'), null);
    for (const g of all.goroutines.slice(0, 50)) assert.deepEqual(trace.goroutine(g.id), { goroutine: g, group: g.name });
    assert.equal(trace.goroutine(-12345), null);
    trace.dispose();
  });

  test(`task and region parts equal tasks() and regions() on ${name}`, async () => {
    const trace = await opened(name);
    const tasks = trace.tasks();
    const regions = trace.regions();
    assert.deepEqual(trace.taskTypes(), { types: tasks.types });
    assert.deepEqual(trace.regionTypes(), { types: regions.types });
    for (const t of tasks.tasks.slice(0, 50)) assert.deepEqual(trace.task(t.id), t);
    assert.equal(trace.task(1e15), null);
    const inBucket = (items, type, min) => items.filter((x) => x.name === type.name && x.duration != null
      && bucketIndex(x.duration) === bucketOfMin(min));
    for (const [items, types, call] of [[tasks.tasks, tasks.types, 'tasksInBucket'], [regions.regions, regions.types, 'regionsInBucket']]) {
      for (const type of types) {
        for (const b of type.durations.histogram.buckets) {
          const named = inBucket(items, type, b.min);
          assert.deepEqual(trace[call](type.name, b.min), named, `${call} ${type.name} ${b.min}`);
          if (call !== 'regionsInBucket') continue;
          // A region type's own: its name and the pc that began it, as its histogram counts.
          const own = trace.regionsInBucket(type.name, b.min, type.pc);
          assert.equal(own.length, b.count, `${type.name} at ${type.pc} from ${b.min}`);
          const key = (r) => `${r.goroutine} ${r.start} ${r.end}`;
          const keys = new Set(named.map(key));
          for (const r of own) assert.ok(keys.has(key(r)), `${type.name} at ${type.pc}: ${key(r)}`);
        }
      }
    }
    assert.throws(() => trace.regionsInBucket('x', 0, -1), /pc is a whole number of at least 0/);
    // With no bucket: every task of a type, complete or not.
    for (const type of tasks.types) assert.deepEqual(trace.tasksInBucket(type.name, null), tasks.tasks.filter((t) => t.name === type.name), type.name);
    const logs = tasks.tasks.flatMap((t) => t.logs.map((l) => ({ task: t.id, ...l })));
    assert.deepEqual(trace.taskLogsMatching('', 1e9), logs);
    if (logs.length) {
      const word = (logs[0].message || logs[0].category).toUpperCase();
      const lower = word.toLowerCase();
      const want = logs.filter((l) => l.category.toLowerCase().includes(lower) || l.message.toLowerCase().includes(lower));
      assert.deepEqual(trace.taskLogsMatching(word, 1e9), want);
    }
    trace.prepare('mmu');
    // Goroutine lanes built ahead draw as those a first query builds.
    const lanes = (t) => {
      const tracks = t.tracks();
      return [...tracks.goroutines.id.slice(0, 40)].map((id) => t.timeline({ kind: 'goroutine', id }, tracks.start, tracks.end + 1, 300));
    };
    trace.prepare('goroutineLanes');
    const fresh = await opened(name);
    assert.deepEqual(lanes(trace), lanes(fresh));
    assert.ok(lanes(fresh).some((l) => l.start.length > 0));
    // The same analyses a piece at a time.
    const pieces = await opened(name);
    for (const what of ['summary', 'goroutineLanes', 'wakes', 'mmu']) {
      let calls = 1;
      while (!pieces.advance(what, 20000)) calls++;
      assert.ok(calls > pieces.eventCount / 20000, `${what} in ${calls} pieces`);
      assert.equal(pieces.advance(what, 1), true);
    }
    assert.deepEqual(pieces.goroutines(), fresh.goroutines());
    assert.deepEqual(lanes(pieces), lanes(fresh));
    assert.deepEqual(pieces.mmu([1e3, 1e6, 1e8]), fresh.mmu([1e3, 1e6, 1e8]));
    // The flags isDefaultMmuFlags calls default (the curve advance('mmu') builds) are
    // those of mmu() without flags; the others give other curves.
    for (const flags of [{}, { perProc: false }, { stw: true, sweep: true, assist: true, background: true }]) {
      assert.equal(isDefaultMmuFlags(flags), true);
      assert.deepEqual(pieces.mmu([1e3, 1e6], flags), pieces.mmu([1e3, 1e6]));
    }
    for (const flags of [{ perProc: true }, { sweep: false }, { stw: false, assist: false }]) {
      assert.equal(isDefaultMmuFlags(flags), false);
    }
    assert.notDeepEqual(pieces.mmu([1e3, 1e6], { perProc: true }), pieces.mmu([1e3, 1e6]));
    const { start, end } = fresh.tracks();
    let woken = 0;
    for (const { id } of fresh.goroutines().goroutines.slice(0, 40)) {
      const want = fresh.wakeups(id, start, end + 1);
      woken += want.wokenBy.length;
      assert.deepEqual(pieces.wakeups(id, start, end + 1), want, `G${id}`);
    }
    assert.ok(woken > 0);
    assert.equal(pieces.advance('flames', 1), true);  // computed whole
    assert.throws(() => pieces.advance('nothing', 1), /nothing to prepare/);
    pieces.dispose();
    fresh.dispose();
    assert.throws(() => trace.prepare('nothing'), /nothing to prepare/);
    // The whole trace's flame graph is kept once prepared, and is the one computed for a
    // selection of every goroutine by id.
    const ids = trace.goroutines().goroutines.map((g) => g.id);
    const all = trace.flame('sync', { goroutines: ids });
    trace.prepare('flame:sync');
    assert.deepEqual(trace.flame('sync'), all);
    assert.deepEqual(trace.flame('sync', {}), all);
    assert.throws(() => trace.prepare('flame:nope'), /unknown profile type/);
    // Every type's profile in one pass: the flame graphs and pprof files computed one
    // type at a time.
    const together = await opened(name);
    together.prepare('flames');
    for (const type of ['net', 'sync', 'syscall', 'sched']) {
      assert.deepEqual(together.flame(type), trace.flame(type), type);
      assert.deepEqual(together.pprof(type), trace.pprof(type), type);
    }
    together.dispose();
    trace.dispose();
  });
}

// The web app's count of wake edges before the engine counted them.
function countWakeups(edges, id) {
  const by = new Map();
  const woke = new Map();
  for (let i = 0; i < edges.goroutine.length; i++) {
    if (edges.goroutine[i] === id) {
      const from = edges.fromGoroutine[i];
      const e = by.get(from) ?? { goroutine: from, count: 0, first: edges.toTime[i] };
      e.count++;
      by.set(from, e);
    }
    if (edges.fromGoroutine[i] === id && edges.goroutine[i] !== id) {
      const to = edges.goroutine[i];
      const e = woke.get(to) ?? { goroutine: to, count: 0, first: edges.fromTime[i] };
      e.count++;
      woke.set(to, e);
    }
  }
  const order = (m) => [...m.values()].sort((a, b) => b.count - a.count || a.goroutine - b.goroutine);
  return { wokenBy: order(by), woke: order(woke), sampled: edges.sampled };
}

test('goroutineWakeups() counts the timeline\'s wake edges per goroutine', async () => {
  const trace = await opened('go123-stress.trace');
  const { start, end } = trace.stats().time;
  const some = trace.goroutines().goroutines.slice(0, 20);
  for (const g of some) {
    for (const [pixels, limit] of [[10_000, 2_000_000], [50, 30]]) {
      const edges = trace.timeline({ kind: 'edges', limit }, start, end + 1, pixels);
      assert.deepEqual(trace.goroutineWakeups(g.id, start, end + 1, { pixels, limit }), countWakeups(edges, g.id), `G${g.id}`);
    }
  }
  trace.dispose();
});

test('wakeups() gives goroutineWakeups() with no limit, from the index of wake edges', async () => {
  const trace = await opened('go123-stress.trace');
  const { start, end } = trace.stats().time;
  const third = Math.floor((end - start) / 3);
  for (const g of trace.goroutines().goroutines.slice(0, 30)) {
    for (const [t0, t1] of [[start, end + 1], [start + third, start + 2 * third]]) {
      const want = trace.goroutineWakeups(g.id, t0, t1, { pixels: 1000, limit: 2 ** 31 });
      assert.equal(want.sampled, false);
      assert.deepEqual(trace.wakeups(g.id, t0, t1), want, `G${g.id}`);
    }
  }
  trace.dispose();
});

test('analyses() lists what prepare() and advance() build, each after what it needs', async () => {
  const list = await analyses();
  const names = list.map((a) => a.name);
  for (const name of ['summary', 'goroutineGroups', 'taskTypes', 'regionTypes', 'timeline', 'goroutineLanes', 'wakes', 'mmu', 'flames']) {
    assert.ok(names.includes(name), name);
  }
  assert.equal(new Set(names).size, names.length);
  // What a viewer builds ahead: every analysis its views show at a glance (not
  // groupEvents: none does; not the critical paths' index nor a diff's figures: built by
  // the first request that needs them).
  assert.deepEqual(list.filter((a) => !a.ahead).map((a) => a.name), ['groupEvents', 'criticalPaths', 'diffFigures']);
  list.forEach((a, k) => a.needs && assert.ok(names.slice(0, k).includes(a.needs), `${a.name} after ${a.needs}`));
  const trace = await opened(traces[2]);
  assert.deepEqual(trace.analyses(), list);
  for (const { name, piecewise } of list) {
    let calls = 1;
    while (!trace.advance(name, 2000)) calls++;
    assert.equal(calls > 1, piecewise, `${name} in ${calls} pieces`);
  }
  // An analysis with a result of its own gives it by name, as its own call does.
  assert.deepEqual(trace.analysis('taskTypes'), trace.taskTypes());
  assert.deepEqual(trace.analysis('goroutineGroups'), trace.goroutineGroups());
  assert.throws(() => trace.analysis('summary'), /no JSON of its own/);
  trace.dispose();
});
