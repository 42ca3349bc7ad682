// The package's critical paths and diffs equal the CLI's JSON (the same core, in
// WebAssembly), and say clearly what is wrong with a bad selection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTrace } from '../../dist/index.js';
import { corpusDir } from './corpus.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'build/native/cli/gotrace');
const file = (name) => path.join(corpusDir, 'go', name);
const cliJson = (...args) => JSON.parse(execFileSync(cli, args, { maxBuffer: 1 << 30 }).toString());
const open = (name) => openTrace(fs.readFileSync(file(name)));

test('criticalPath of a task, a region and a goroutine equals gotrace critical-path --json', async () => {
  const name = 'go123-workload.trace';
  const trace = await open(name);
  assert.deepEqual(trace.criticalPath({ task: 10046 }), cliJson('critical-path', '--json', '--task=10046', file(name)));
  assert.deepEqual(trace.criticalPath({ region: 'hash#3' }), cliJson('critical-path', '--json', '--region=hash#3', file(name)));
  const g = trace.criticalPath({ goroutine: 1 });
  assert.deepEqual(g, cliJson('critical-path', '--json', '--goroutine=1', file(name)));
  const mid = Math.floor((g.from + g.to) / 2);
  assert.deepEqual(trace.criticalPath({ goroutine: 1, from: g.from, to: mid }),
    cliJson('critical-path', '--json', '--goroutine=1', `--from=${g.from}`, `--to=${mid}`, file(name)));
  trace.dispose?.();
});

test('criticalPaths of a task type equals the CLI, for all of them and for the p99 tail', async () => {
  const name = 'go123-workload.trace';
  const trace = await open(name);
  const all = trace.criticalPaths({ taskType: 'client' });
  assert.deepEqual(all, cliJson('critical-path', '--json', '--task-type=client', file(name)));
  assert.equal(all.instances, 6642);
  assert.deepEqual(trace.criticalPaths({ taskType: 'client', slowest: 1 }),
    cliJson('critical-path', '--json', '--task-type=client', '--slowest=1', file(name)));
  // A histogram bucket: the instances whose duration is in [min, max).
  const bucket = trace.criticalPaths({ taskType: 'client', min: 2_000_000, max: 4_000_000 });
  const tasks = cliJson('tasks', '--json', file(name)).tasks
    .filter((t) => t.name === 'client' && t.complete && t.duration >= 2_000_000 && t.duration < 4_000_000);
  assert.equal(bucket.instances, tasks.length);
  assert.ok(bucket.instances > 0);
});

test('criticalPaths of a region type by name and pc equals the CLI\'s --region-pc', async () => {
  const name = 'go123-futile-wakeup.trace';
  const trace = await open(name);
  const special = trace.regionTypes().types.filter((t) => t.name === 'special');
  assert.equal(special.length, 4);
  let instances = 0;
  for (const t of special) {
    const paths = trace.criticalPaths({ regionType: 'special', pc: t.pc });
    assert.deepEqual(paths, cliJson('critical-path', '--json', '--region-type=special', `--region-pc=0x${t.pc.toString(16)}`, file(name)));
    assert.equal(paths.pc, t.pc);
    assert.equal(paths.instances, t.count);
    instances += paths.instances;
  }
  assert.equal(instances, trace.criticalPaths({ regionType: 'special' }).instances);
  assert.throws(() => trace.criticalPaths({ taskType: 'x', pc: 1 }), /a pc selects among region types/);
  assert.throws(() => trace.criticalPaths({ regionType: 'special', pc: 1.5 }), /whole number/);
  assert.throws(() => trace.criticalPaths({ regionType: 'special', pc: 1 }), /begun at 0x1/);
  trace.dispose?.();
});

test('diffFrom equals gotrace diff --json, and a trace against itself is all zeros', async () => {
  const a = await open('go122-workload.trace');
  const b = await open('go123-workload.trace');
  assert.deepEqual(b.diffFrom(a), cliJson('diff', '--json', file('go122-workload.trace'), file('go123-workload.trace')));
  const same = a.diffFrom(a);
  for (const g of same.groups) for (const v of Object.values(g.delta)) assert.equal(v, 0);
  const pprof = b.diffPprofFrom(a, 'sync');
  assert.ok(pprof instanceof Uint8Array && pprof.length > 100);
  assert.deepEqual([pprof[0], pprof[1]], [0x1f, 0x8b]);
});

test('a bad selection is a clear error', async () => {
  const trace = await open('go123-workload.trace');
  assert.throws(() => trace.criticalPath({ task: 999999999 }), /no task 999999999/);
  assert.throws(() => trace.criticalPath({ region: 'nosuch' }), /0 region\(s\) of type 'nosuch'/);
  assert.throws(() => trace.criticalPath({}), /wants one of/);
  assert.throws(() => trace.criticalPath({ task: 1, from: 0 }), /from and to go with a goroutine/);
  assert.throws(() => trace.criticalPaths({ taskType: 'nosuch' }), /no task of type 'nosuch'/);
  assert.throws(() => trace.diffFrom({}), /another Trace/);
});
