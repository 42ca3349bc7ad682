#!/usr/bin/env node
// Read throughput of the WebAssembly core in Node against the native reader
// (`gotrace bench`) and Go's own parser (gotracebench), on the same file in the same
// run; the wasm heap's peak per event; the .wasm's size raw and gzipped.
//
//   node scripts/bench-wasm.mjs [TRACE] [--runs=N]   (N rounds, 3 unless given)
//   (GOTRACE_DIST=DIR measures another build of the package; GOTRACE_CLI another CLI)
//
// Default trace: /work/data/large.trace, else the corpus's go123-workload-large
// (decompressed to a temporary file). Build first: scripts/build-wasm.sh and the CLI.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shared = process.env.GOTRACE_SHARED_DIR ?? path.resolve(root, '../shared');
const args = process.argv.slice(2);
const runs = Number((args.find((a) => a.startsWith('--runs=')) ?? '--runs=3').slice(7));
const cli = process.env.GOTRACE_CLI ?? path.join(root, 'build/native/cli/gotrace');
const goBench = process.env.GOTRACE_GO_BENCH ?? '/usr/local/lib/gotrace-oracle/gotracebench';
// The package directory to measure (index.js, gotrace-core.mjs and .wasm): dist/ unless given.
const dist = process.env.GOTRACE_DIST ? path.resolve(process.env.GOTRACE_DIST) : path.join(root, 'dist');

let file = args.find((a) => !a.startsWith('--'));
let scratch = null;
if (!file) {
  file = '/work/data/large.trace';
  if (!fs.existsSync(file)) {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gotrace-bench-'));
    file = path.join(scratch, 'go123-workload-large.trace');
    execFileSync('zstd', ['-dqf', path.join(shared, 'corpus/go/go123-workload-large.trace.zst'), '-o', file]);
  }
}

const { openTrace, loadCore } = await import(pathToFileURL(path.join(dist, 'index.js')));
const bytes = fs.readFileSync(file);
const mb = bytes.length / 1e6;
console.log(`file            ${file} (${mb.toFixed(1)} MB)`);
console.log(`load average    ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} (${os.cpus().length} CPUs)`);

// The three readers take turns, a round at a time (wasm, the native reader, Go's
// parser), so that a slow stretch of the machine falls on each of them alike rather
// than on whichever was measuring then; each one's best round counts.
const core = await loadCore();
let events = 0;
// The best of `reads` reads in events/s: the first read of all touches fresh memory,
// which the later ones reuse.
async function wasmBest(reads) {
  let bestS = Infinity;
  for (let i = 0; i < reads; i++) {
    const t0 = process.hrtime.bigint();
    const trace = await openTrace(bytes);
    bestS = Math.min(bestS, Number(process.hrtime.bigint() - t0) / 1e9);
    events = trace.eventCount;
    trace.dispose();
  }
  return events / bestS;
}
const best = { wasm: 0, native: 0, nativeMBs: 0, go: 0, goMBs: 0 };
let goError = null;
const m = (x) => (x / 1e6).toFixed(2);
for (let round = 1; round <= runs; round++) {
  const wasmEps = await wasmBest(2);
  best.wasm = Math.max(best.wasm, wasmEps);
  const native = execFileSync(cli, ['bench', '-n', '3', file]).toString();
  const nativeEps = Number(/events\/s\s+(\d+)/.exec(native)[1]);
  if (nativeEps > best.native) Object.assign(best, { native: nativeEps, nativeMBs: /MB\/s\s+([\d.]+)/.exec(native)[1] });
  let goEps = NaN;
  if (!goError) {
    try {
      const go = execFileSync(goBench, [file], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
      goEps = Number(/events_per_s=(\d+)/.exec(go)[1]);
      if (goEps > best.go) Object.assign(best, { go: goEps, goMBs: /MB_per_s=([\d.]+)/.exec(go)[1] });
    } catch (e) {
      goError = e.message.split('\n')[0];
    }
  }
  const ratios = `wasm/native ${((100 * wasmEps) / nativeEps).toFixed(1)}%` + (goError ? '' : `, wasm/go ${(wasmEps / goEps).toFixed(2)}x`);
  console.log(`round ${String(round).padEnd(10)}wasm ${m(wasmEps)}, native ${m(nativeEps)}, go ${goError ? '-' : m(goEps)} M events/s (${ratios})`);
}
console.log(`wasm            ${events} events, best ${(events / best.wasm).toFixed(3)} s: ${m(best.wasm)} M events/s, ${((mb * best.wasm) / events).toFixed(1)} MB/s`);
const heap = core.HEAPU8.buffer.byteLength;  // memory never shrinks: the peak of every read
console.log(`wasm memory     peak ${(heap / 2 ** 20).toFixed(1)} MiB = ${(heap / events).toFixed(2)} bytes/event (input copy included: ${(bytes.length / events).toFixed(2)} bytes/event)`);
console.log(`native          ${m(best.native)} M events/s, ${best.nativeMBs} MB/s (gotrace bench, best round)`);
if (goError) console.log(`go              not measured: ${goError}`);
else console.log(`go              ${m(best.go)} M events/s, ${best.goMBs} MB/s (${path.basename(goBench)}, best round)`);

const wasmFile = fs.readFileSync(path.join(dist, 'gotrace-core.wasm'));
console.log(`.wasm size      ${(wasmFile.length / 1024).toFixed(1)} KiB raw, ${(zlib.gzipSync(wasmFile, { level: 9 }).length / 1024).toFixed(1)} KiB gzipped`);
const vsNative = best.wasm / best.native, vsGo = goError ? NaN : best.wasm / best.go;
console.log(`wasm/native     ${(100 * vsNative).toFixed(1)}% (want >= 50%)`);
console.log(`wasm/go         ${vsGo.toFixed(2)}x (want >= 3x)`);
console.log(`load average    ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} (after)`);
if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
