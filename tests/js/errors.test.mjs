// Bad input through the npm package: every failure is a JS Error with the core's
// message, and the module keeps working afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openTrace } from '../../dist/index.js';
import { corpusDir, corpusPath } from './corpus.mjs';


// Go's fuzz-corpus encoding: `go test fuzz v1` then []byte("...") with Go escapes.
function decodeFuzzSeed(text) {
  const lit = text.slice(text.indexOf('[]byte(') + 8, text.lastIndexOf(')') - 1);
  const out = [];
  for (let i = 0; i < lit.length; i++) {
    const c = lit[i];
    if (c !== '\\') {
      out.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const e = lit[++i];
    const simple = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, '"': 34, "'": 39 };
    if (e in simple) out.push(simple[e]);
    else if (e === 'x') { out.push(parseInt(lit.substr(i + 1, 2), 16)); i += 2; }
    else if (e >= '0' && e <= '7') { out.push(parseInt(lit.substr(i, 3), 8)); i += 2; }
    else if (e === 'u' || e === 'U') {
      const n = e === 'u' ? 4 : 8;
      out.push(...Buffer.from(String.fromCodePoint(parseInt(lit.substr(i + 1, n), 16)), 'utf8'));
      i += n;
    } else throw new Error(`bad escape \\${e}`);
  }
  return new Uint8Array(out);
}

const valid = fs.readFileSync(corpusPath('go123-annotations.trace'));

async function stillWorks() {
  const t = await openTrace(valid);
  assert.equal(t.stats().events, 45);  // with Go 1.27's leading and final Syncs
  assert.equal(t.goroutines().goroutines.length, 9);
  assert.ok(t.pprof('sync').length > 0);
  const tracks = t.tracks();
  assert.ok(t.timeline({ kind: 'proc', id: tracks.procs[0] }, tracks.start, tracks.end + 1, 100).start.length > 0);
  t.dispose();
}

test('every fuzz seed that Go rejects gives a JS Error, and the module stays usable', async () => {
  const dir = path.join(corpusDir, 'fuzz');
  let errors = 0;
  for (const name of fs.readdirSync(dir).sort()) {
    const bytes = decodeFuzzSeed(fs.readFileSync(path.join(dir, name), 'utf8'));
    try {
      const t = await openTrace(bytes);
      t.dispose();  // a seed our reader accepts (Go 1.25+ accepts empty generations)
    } catch (e) {
      assert.ok(e instanceof Error, `${name}: ${e}`);
      assert.ok(e.message.length > 0, name);
      errors++;
    }
    await stillWorks();
  }
  assert.ok(errors >= 10, `expected most seeds to be rejected, got ${errors}`);
});

test('a truncated trace is an Error naming where it broke; with allowPartial its complete part opens', async () => {
  const full = fs.readFileSync(corpusPath('go123-stress.trace'));
  const cut = full.subarray(0, Math.floor(full.length * 0.6));
  // Go 1.27 names the first problem in the broken generation, and the truncation after it.
  await assert.rejects(openTrace(cut), (e) => e instanceof Error && /truncated.*\(generation \d+\)$/s.test(e.message));
  await stillWorks();
});

test('a Blob gives the errors its bytes give, and reading it can be cancelled', async () => {
  const full = fs.readFileSync(corpusPath('go123-stress.trace'));
  const cut = full.subarray(0, Math.floor(full.length * 0.6));
  const fromBytes = await openTrace(cut).then(() => '', (e) => e.message);
  assert.match(fromBytes, /truncated.*\(generation \d+\)$/s);
  await assert.rejects(openTrace(new Blob([cut])), (e) => e instanceof Error && e.message === fromBytes);
  await assert.rejects(openTrace(new Blob([])), /not a Go execution trace/);
  let calls = 0;
  await assert.rejects(openTrace(new Blob([full]), { onProgress: () => (++calls, false) }), /cancelled/);
  assert.equal(calls, 1);
  // A stream that fails midway.
  const failing = new Blob([full]);
  failing.stream = () => new ReadableStream({
    start(c) {
      c.enqueue(full.subarray(0, 1000));
      c.error(new Error('the disk went away'));
    },
  });
  await assert.rejects(openTrace(failing), /the disk went away/);
  await stillWorks();
  const t = await openTrace(new Blob([valid]));
  assert.equal(t.stats().events, 45);  // with Go 1.27's leading and final Syncs
  t.dispose();
});

test('a trace broken before its first event is an Error even with allowPartial', async () => {
  // Go 1.27 lists a Sync before the error: nothing else was read, so nothing opens.
  const broken = Buffer.concat([Buffer.from('go 1.23 trace\x00\x00\x00'), Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x42, 0x13])]);
  await assert.rejects(openTrace(broken, { allowPartial: true }), /^Error: error reading batch size: EOF \(M 66, batch at offset 16/);
  await stillWorks();
});

test('not a trace at all', async () => {
  await assert.rejects(openTrace(new TextEncoder().encode('hello, world, this is not a trace')),
    /bad file format: not a Go execution trace\?/);
  await assert.rejects(openTrace(new Uint8Array(0)), /not a Go execution trace/);
  await assert.rejects(() => openTrace('a string'), TypeError);
  await stillWorks();
});

test('a disposed trace says so', async () => {
  const t = await openTrace(valid);
  t.dispose();
  assert.throws(() => t.stats(), /disposed/);
});

test('bad arguments to the analyses are Errors, and the trace keeps working', async () => {
  const t = await openTrace(valid);
  const { start, end } = t.tracks();
  assert.throws(() => t.pprof('cpu'), /unknown profile type/);
  assert.throws(() => t.flame('sync', { goroutines: 'x' }), TypeError);
  assert.throws(() => t.flame('sync', { range: [0, NaN] }), /finite/);
  assert.throws(() => t.flame('sync', { regionPc: 1 }), /narrows filter.region/);
  assert.throws(() => t.flame('sync', { region: 'r', regionPc: -1 }), /regionPc is a whole number/);
  assert.throws(() => t.mmu([0]), /at least 1 ns/);
  assert.throws(() => t.mmu([NaN]), /finite/);
  assert.throws(() => t.timeline({ kind: 'nope' }, start, end, 10), /unknown track kind/);
  assert.throws(() => t.timeline({ kind: 'series', name: 'nope' }, start, end, 10), /unknown series/);
  assert.throws(() => t.timeline({ kind: 'logs', by: 'nope' }, start, end, 10), /group by/);
  assert.throws(() => t.timeline({ kind: 'proc', id: 0 }, start, end, 0), /pixels/);
  assert.throws(() => t.timeline(null, start, end, 10), TypeError);
  assert.throws(() => t.sliceDetails({ kind: 'regions' }, start), /slice track/);
  assert.throws(() => t.eventAt(-1), /an event index must be a whole number of at least 0, not -1/);
  assert.throws(() => t.eventAt(NaN), TypeError);
  assert.throws(() => t.eventAt(1.5), TypeError);
  assert.throws(() => t.eventAt(1e9), /no event 1000000000/);
  // Positions past the end are past the end, not wrapped at 2^32.
  assert.equal(t.events({ from: 2 ** 32 + 5, limit: 2 }).index.length, 0);
  assert.equal(t.events({ from: 0, limit: 2 ** 32 + 2 }).index.length, t.stats().events);
  assert.throws(() => t.events({ limit: 'x' }), TypeError);
  assert.throws(() => t.events({ filter: { goroutine: 'a' } }), TypeError);
  const rows = (o) => t.sqlTable('goroutines', o).columns[0].values.length;
  assert.equal(rows({ offset: 2 ** 32 }), 0);
  assert.equal(rows({ offset: 1e12 }), 0);
  assert.equal(rows({ limit: 2 ** 32 }), rows({}));
  assert.throws(() => t.sqlTable('goroutines', { offset: -1 }), TypeError);
  assert.throws(() => t.mmu([1e30]), /at most 2\^62 ns/);
  // Empty answers are not errors.
  assert.equal(t.timeline({ kind: 'proc', id: 12345 }, start, end, 10).start.length, 0);
  assert.equal(t.timeline({ kind: 'proc', id: 0 }, end, start, 10).start.length, 0);
  assert.equal(t.flame('net', { group: 'no.such.function' }).value[0], 0);
  assert.equal(t.sliceDetails({ kind: 'proc', id: 0 }, end + 1e9), null);
  assert.equal(t.goroutines().goroutines.length, 9);
  t.dispose();
  assert.throws(() => t.goroutines(), /disposed/);
  await stillWorks();
});

test('the analyses of a partial trace work on what was read', async () => {
  const full = fs.readFileSync(corpusPath('go123-stress.trace'));
  const t = await openTrace(full.subarray(0, Math.floor(full.length * 0.9)), { allowPartial: true });
  assert.match(t.partialError, /offset \d+/);
  assert.ok(t.goroutines().groups.length > 0);
  assert.ok(t.mmu([1e6]).windows[0].mmu >= 0);
  const tracks = t.tracks();
  assert.ok(tracks.procs.length > 0);
  assert.ok(t.timeline({ kind: 'goroutine', id: tracks.goroutines.id[0] }, tracks.start, tracks.end + 1, 50).start.length > 0);
  assert.ok(t.flame('sched').value[0] >= 0);
  t.dispose();
  await stillWorks();
});

test('a trace too large for WebAssembly memory is a clear Error, not an abort', async () => {
  // 3.9 GB (untouched, so the pages are never really allocated): more than wasm32's
  // 4 GiB leaves room for.
  const huge = new Uint8Array(3.9e9);
  huge.set(new TextEncoder().encode('go 1.23 trace\0\0\0'));
  await assert.rejects(openTrace(huge), (e) => e instanceof Error && /out of memory/.test(e.message));
  await stillWorks();
});
