// The pure parts of the analysis views (no browser), on the CLI's answers for the sample
// trace: the breakdown bar partitions each total, histogram buckets hold the instances
// the engine counted in them, the flame graph's top table equals `gotrace pprof --top`,
// and search finds goroutines, regions and logs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { segments } from '../../web/src/views/common/breakdown.js';
import { bucketIndex, bucketOfMin } from '../../web/src/views/tasks/buckets.js';
import { layout, topFunctions } from '../../web/src/views/profiles/flameLayout.js';
import { search } from '../../web/src/model/searchIndex.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'build/native/cli/gotrace');
const TRACE = path.join(root, 'public/go123-workload.trace');
const gotrace = (...args) => execFileSync(cli, [...args, TRACE], { maxBuffer: 1 << 30 }).toString();
const json = (...args) => JSON.parse(gotrace(...args, '--json'));

test('the breakdown of every group and goroutine adds up to its total', () => {
  const { groups, goroutines } = json('goroutines');
  for (const x of [...groups.map((g) => g.stats), ...goroutines.map((g) => g.stats)]) {
    const sum = segments(x).reduce((s, seg) => s + seg.value, 0);
    assert.equal(sum, x.total);
  }
  const serve = groups.find((g) => g.name === 'net/http.(*conn).serve');
  const unknown = segments(serve.stats).find((s) => s.key === 'unknown');
  assert.equal(unknown?.value ?? 0, serve.unknown);
});

test('each complete task and region falls in the histogram bucket the engine counted it in', () => {
  for (const [kind, items] of [['tasks', 'tasks'], ['regions', 'regions']]) {
    const result = json(kind);
    for (const type of result.types) {
      const counted = new Map();
      for (const x of result[items]) {
        if (x.name !== type.name || x.duration == null || (kind === 'tasks' && !x.complete)) continue;
        const k = bucketIndex(x.duration);
        counted.set(k, (counted.get(k) ?? 0) + 1);
      }
      for (const b of type.durations.histogram.buckets) {
        assert.equal(counted.get(bucketOfMin(b.min)) ?? 0, b.count, `${kind} ${type.name} bucket ${b.min}`);
      }
    }
  }
});

// A FlameGraph (the npm package's shape) built from folded stacks.
function flameFromFolded(text) {
  const names = [''];
  const nameIds = new Map([['', 0]]);
  const root = { name: 0, children: new Map(), self: 0, value: 0, selfCount: 0, count: 0 };
  for (const line of text.split('\n')) {
    if (!line) continue;
    const [n, ns, stack] = [line.split(' ')[0], line.split(' ')[1], line.split(' ').slice(2).join(' ')];
    // An event without a stack counts on the root alone (as the package's flame graph).
    const frames = stack ? stack.split(';').reverse() : [];
    let node = root;
    node.value += Number(ns);
    node.count += Number(n);
    for (const f of frames) {
      if (!nameIds.has(f)) { nameIds.set(f, names.length); names.push(f); }
      const id = nameIds.get(f);
      if (!node.children.has(id)) node.children.set(id, { name: id, children: new Map(), self: 0, value: 0, selfCount: 0, count: 0 });
      node = node.children.get(id);
      node.value += Number(ns);
      node.count += Number(n);
    }
    node.self += Number(ns);
    node.selfCount += Number(n);
  }
  const cols = { name: [], parent: [], depth: [], self: [], value: [], selfCount: [], count: [] };
  const walk = (node, parent, depth) => {
    const i = cols.name.length;
    cols.name.push(node.name); cols.parent.push(parent); cols.depth.push(depth);
    cols.self.push(node.self); cols.value.push(node.value); cols.selfCount.push(node.selfCount); cols.count.push(node.count);
    for (const c of [...node.children.values()].sort((a, b) => names[a.name].localeCompare(names[b.name]))) walk(c, i, depth + 1);
  };
  walk(root, -1, 0);
  return {
    names,
    name: Uint32Array.from(cols.name), parent: Int32Array.from(cols.parent), depth: Uint32Array.from(cols.depth),
    self: Float64Array.from(cols.self), value: Float64Array.from(cols.value),
    selfCount: Float64Array.from(cols.selfCount), count: Float64Array.from(cols.count),
  };
}

test('the flame layout nests children inside their parents, and the top table equals `gotrace pprof --top`', () => {
  for (const type of ['net', 'sync', 'syscall', 'sched']) {
    const flame = flameFromFolded(gotrace('pprof', `--type=${type}`, '--folded'));
    const x = layout(flame);
    for (let i = 1; i < flame.parent.length; i++) {
      const p = flame.parent[i];
      assert.ok(x[i] >= x[p] && x[i] + flame.value[i] <= x[p] + flame.value[p] + 1e-6, `${type} node ${i}`);
    }
    const rows = topFunctions(flame);
    const top = new Map(rows.map((r) => [r.name, r]));
    const lines = gotrace('pprof', `--type=${type}`, '--top=40').trim().split('\n').slice(1);
    assert.ok(lines.length > 0);
    const names = [];
    for (const line of lines) {
      const cols = line.trim().split(/\s+/);
      const name = cols.slice(5).join(' ');
      const count = Number(cols[4]);
      assert.equal(top.get(name)?.count, count, `${type} ${name}`);
      names.push(name);
    }
    // In the CLI's order (flat, then cum, then name): many functions have no flat time,
    // and the first rows shown are those with the most cum among them.
    assert.deepEqual(rows.slice(0, names.length).map((r) => r.name), names, type);
  }
});

test('search finds goroutines by id and function, tasks, regions and log messages', () => {
  const g = json('goroutines');
  const t = json('tasks');
  const r = json('regions');
  const data = {
    goroutines: { ...g, byId: new Map(g.goroutines.map((x) => [x.id, x])) },
    tasks: { ...t, byId: new Map(t.tasks.map((x) => [x.id, x])) },
    regions: r,
  };
  assert.deepEqual(search('G22', data)[0], { kind: 'goroutine', label: 'G22', detail: g.goroutines.find((x) => x.id === 22).name, href: '#/goroutine/22' });
  assert.equal(search('task 5', data)[0].href, '#/task/5');
  assert.equal(search('goroutine 22', data)[0].href, '#/goroutine/22');
  assert.ok(search('conn).serve', data).some((x) => x.href === '#/goroutines/group/net%2Fhttp.(*conn).serve'));
  assert.ok(search('hash', data).some((x) => x.kind === 'region' && x.href === '#/regions?name=hash'));
  const log = t.tasks.find((x) => x.logs.length).logs[0];
  assert.ok(search(log.message, data).some((x) => x.kind === 'log'));
  assert.deepEqual(search('   ', data), []);
  // Counts are said in words ("1 task"); a region name begun at several places counts
  // all its regions (go123-futile-wakeup: "special", 2 regions at each of 4 places).
  const one = { name: 'solo', count: 1 };
  const few = {
    goroutines: { groups: [one], byId: new Map() },
    tasks: { types: [one], tasks: [], byId: new Map() },
    regions: JSON.parse(execFileSync(cli, ['regions', '--json', path.join(root, 'tests/corpus/go/go123-futile-wakeup.trace')]).toString()),
  };
  assert.deepEqual(search('solo', few).map((x) => x.detail), ['1 goroutine', '1 task']);
  assert.deepEqual(search('special', few).map((x) => [x.label, x.detail]), [['special', '8 regions, begun at 4 places']]);
});

test('times on the pages tell events apart: to the microsecond, to the nanosecond in the first millisecond', async () => {
  const { formatTime, formatDuration } = await import('../../web/src/model/format.js');
  assert.equal(formatDuration(38_912_345_678), '38.9 s');
  assert.equal(formatTime(38_912_345_678), '38.912346 s');
  assert.equal(formatTime(38_900_000_000), '38.9 s');
  assert.equal(formatTime(117_604_400), '117.604 ms');
  assert.equal(formatTime(593_217), '593.217 µs');
  assert.equal(formatTime(999), '999 ns');
  assert.equal(formatTime(0), '0');
  assert.equal(formatTime(-1_500_000), '-1.5 ms');
});

test('the ruler labels its ticks in the unit of the largest, with the decimals its step needs', async () => {
  const { formatTick } = await import('../../web/src/model/format.js');
  assert.equal(formatTick(20_005_000_000, 5_000_000, 20_010_000_000), '20.005 s');
  assert.equal(formatTick(117_600_000, 200_000, 118_000_000), '117.6 ms');
  assert.equal(formatTick(995_000_000, 5_000_000, 1_010_000_000), '0.995 s');
  assert.equal(formatTick(20_000_000, 5_000_000, 40_000_000), '20 ms');
  assert.equal(formatTick(500, 100, 900), '500 ns');
  assert.equal(formatTick(0, 100_000_000, 1_000_000_000), '0');
});

test('the critical path colours its categories apart: assist from waiting for assist work, each stop of the world', async () => {
  const { categoryColor } = await import('../../web/src/views/paths/states.js');
  // The categories of the sample's client tasks' paths (gotrace critical-path --task-type=client).
  const keys = JSON.parse(gotrace('critical-path', '--task-type=client', '--json')).by_category.map((c) => c.key);
  for (const pair of [['GC mark assist', 'blocked: GC mark assist wait for work'],
    ['stop-the-world (GC mark termination)', 'stop-the-world (GC sweep termination)']]) {
    assert.ok(pair.every((k) => keys.includes(k)), `${pair} among ${keys}`);
    assert.notEqual(categoryColor(pair[0]), categoryColor(pair[1]), pair.join(' / '));
  }
  const colours = new Map();
  for (const k of keys) colours.set(categoryColor(k), [...(colours.get(categoryColor(k)) ?? []), k]);
  const shared = [...colours.values()].filter((ks) => ks.length > 1);
  assert.deepEqual(shared, [], 'categories of one colour');
});
