#!/usr/bin/env node
// Critical paths and diffs on a large trace, natively and in WebAssembly (the npm
// package under Node, the engine the browser runs too): the index built on the first
// request, one task's path after it, every task of a type summed, and `gotrace diff`
// of the trace against itself. Prints figures; asserts nothing.
//
//   node scripts/bench-critical-path.mjs [TRACE] [TASK_TYPE]
// TRACE defaults to the 94 MB corpus trace (unpacked to a temporary file).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTrace } from '../dist/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'build/native/cli/gotrace');
let file = process.argv[2];
const taskType = process.argv[3] ?? 'client';
if (!file) {
  const zst = path.join(root, '../shared/corpus/go/go123-workload-large.trace.zst');
  file = path.join(os.tmpdir(), 'gotrace-bench-large.trace');
  if (!fs.existsSync(file)) execFileSync('zstd', ['-d', '-q', '-f', zst, '-o', file]);
}
const ms = (t0) => (performance.now() - t0).toFixed(1);

// The slowest task of the type: the one the benchmark walks alone.
const tasks = JSON.parse(execFileSync(cli, ['tasks', '--json', file], { maxBuffer: 1 << 30 })).tasks
  .filter((t) => t.name === taskType && t.complete);
tasks.sort((a, b) => b.duration - a.duration);
const task = tasks[0].id;
console.log(`${path.basename(file)}: ${tasks.length} complete '${taskType}' tasks; the slowest is task ${task}`);

console.log('\nnative (gotrace critical-path --timing):');
for (const args of [[`--task=${task}`], [`--task-type=${taskType}`]]) {
  const out = spawnSync(cli, ['critical-path', '--timing', ...args, file], { stdio: ['ignore', 'ignore', 'pipe'] }).stderr;
  console.log(`  ${args[0]}\n${out.toString().trimEnd().split('\n').map((l) => `    ${l}`).join('\n')}`);
}
let t0 = performance.now();
execFileSync(cli, ['diff', file, file], { stdio: 'ignore' });
console.log(`  gotrace diff of the trace against itself: ${ms(t0)} ms (reading both included)`);

console.log('\nWebAssembly (the npm package under Node):');
t0 = performance.now();
const trace = await openTrace(fs.readFileSync(file));
console.log(`  open: ${ms(t0)} ms`);
t0 = performance.now();
trace.prepare('summary');
console.log(`  summary: ${ms(t0)} ms`);
t0 = performance.now();
trace.prepare('criticalPaths');
console.log(`  critical path index: ${ms(t0)} ms`);
for (let i = 0; i < 3; i++) {
  t0 = performance.now();
  const p = trace.criticalPath({ task });
  console.log(`  task ${task}'s path (${p.segments.length} segments, ${p.handoffs} hand-offs): ${ms(t0)} ms`);
}
t0 = performance.now();
const all = trace.criticalPaths({ taskType });
console.log(`  every '${taskType}' task summed (${all.instances} paths): ${ms(t0)} ms`);
