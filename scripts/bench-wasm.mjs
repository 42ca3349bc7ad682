#!/usr/bin/env node
// Read throughput of the WebAssembly core in Node against the native reader
// (`gotrace bench`) and Go's own parser (gotracebench), on the same file in the same
// run; the wasm heap's peak per event; the .wasm's size raw and gzipped.
//
//   node scripts/bench-wasm.mjs [TRACE] [--runs=N]
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

// wasm: best of `runs` full reads (copy into wasm memory included).
const core = await loadCore();
let best = Infinity;
let events = 0;
for (let i = 0; i < runs; i++) {
  const t0 = process.hrtime.bigint();
  const trace = await openTrace(bytes);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  events = trace.eventCount;
  best = Math.min(best, s);
  trace.dispose();
}
// Memory never shrinks, so its size now is the peak of every read above.
const heap = core.HEAPU8.buffer.byteLength;
const wasmEps = events / best;
console.log(`wasm            ${events} events, best ${best.toFixed(3)} s: ${(wasmEps / 1e6).toFixed(2)} M events/s, ${(mb / best).toFixed(1)} MB/s`);
console.log(`wasm memory     peak ${(heap / 2 ** 20).toFixed(1)} MiB = ${(heap / events).toFixed(2)} bytes/event (input copy included: ${(bytes.length / events).toFixed(2)} bytes/event)`);

// Native reader.
const native = execFileSync(cli, ['bench', '-n', String(runs), file]).toString();
const nativeEps = Number(/events\/s\s+(\d+)/.exec(native)[1]);
console.log(`native          ${(nativeEps / 1e6).toFixed(2)} M events/s, ${/MB\/s\s+([\d.]+)/.exec(native)[1]} MB/s (gotrace bench, best of ${runs})`);

// Go's parser.
let goEps = NaN;
try {
  const go = execFileSync(goBench, [file]).toString();
  goEps = Number(/events_per_s=(\d+)/.exec(go)[1]);
  console.log(`go              ${(goEps / 1e6).toFixed(2)} M events/s, ${/MB_per_s=([\d.]+)/.exec(go)[1]} MB/s (${path.basename(goBench)})`);
} catch (e) {
  console.log(`go              not measured: ${e.message.split('\n')[0]}`);
}

const wasmFile = fs.readFileSync(path.join(dist, 'gotrace-core.wasm'));
console.log(`.wasm size      ${(wasmFile.length / 1024).toFixed(1)} KiB raw, ${(zlib.gzipSync(wasmFile, { level: 9 }).length / 1024).toFixed(1)} KiB gzipped`);
const vsNative = wasmEps / nativeEps, vsGo = wasmEps / goEps;
console.log(`wasm/native     ${(100 * vsNative).toFixed(1)}% (want >= 50%)`);
console.log(`wasm/go         ${vsGo.toFixed(2)}x (want >= 3x)`);
console.log(`load average    ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} (after)`);
if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
