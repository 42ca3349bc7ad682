// The npm package, as a user gets it: `npm pack`, installed into a fresh project, then
// used from there on every v2 corpus trace. Its answers must equal the native CLI's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusDir } from './corpus.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = path.join(corpusDir, 'go');
const cli = path.join(root, 'build/native/cli/gotrace');

let project;
let gotrace;

before(async () => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'gotrace-npm-'));
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', project], { cwd: root })
    .toString().trim().split('\n').pop();
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'uses-gotrace', type: 'module', private: true }));
  execFileSync('npm', ['install', '--silent', '--no-audit', '--no-fund', '--offline', path.join(project, tarball)], { cwd: project });
  gotrace = await import(pathToFileURL(path.join(project, 'node_modules/gotrace/dist/index.js')));
});

after(() => fs.rmSync(project, { recursive: true, force: true }));

function v2Traces() {
  return fs.readdirSync(corpus).filter((n) => /^go12[2-9]-.*\.trace$/.test(n) && !n.includes('large')).sort();
}

test('the tarball holds the JS, the .wasm, the types and the README', () => {
  const files = fs.readdirSync(path.join(project, 'node_modules/gotrace/dist')).sort();
  assert.deepEqual(files, ['gotrace-core.mjs', 'gotrace-core.wasm', 'gotrace-sql.js', 'index.d.ts', 'index.js',
    'sql-worker.js', 'sql.js']);
  // gotrace-sql is installed as a command (DuckDB, an optional dependency, only when it runs a query).
  const help = execFileSync(path.join(project, 'node_modules/.bin/gotrace-sql'), ['--help'], { encoding: 'utf8' });
  assert.match(help, /^Usage: gotrace-sql /);
  assert.ok(fs.readFileSync(path.join(project, 'node_modules/gotrace/README.md'), 'utf8').includes('openTrace'));
});

test("the README's example runs as it is against the installed package", () => {
  const readme = fs.readFileSync(path.join(project, 'node_modules/gotrace/README.md'), 'utf8');
  const example = readme.match(/```js\n(\/\/ summary\.mjs[^\n]*\n[\s\S]*?)```/);
  assert.ok(example, 'the README has the summary.mjs example');
  fs.writeFileSync(path.join(project, 'summary.mjs'), example[1]);
  const file = path.join(corpus, 'go123-annotations.trace');
  const out = execFileSync('node', ['summary.mjs', file], { cwd: project }).toString().split('\n');
  const stats = JSON.parse(execFileSync(cli, ['stats', '--json', file]));
  const [busiest] = JSON.parse(execFileSync(cli, ['goroutines', '--json', file])).groups;
  assert.equal(out[0], `Go ${stats.format.go_version}: ${stats.events} events, ${stats.goroutines} goroutines`);
  assert.equal(out[1], `busiest: ${busiest.name} (${busiest.count} goroutines, ${busiest.exec} ns running)`);
  const dump = execFileSync(cli, ['dump', file]).toString();
  assert.ok(out.length > 3 && out[2].startsWith('M=') && dump.startsWith(out.slice(2, 5).join('\n')), out.join('\n'));
});

test('stats() equals `gotrace stats --json` on every v2 trace', async () => {
  const names = v2Traces();
  assert.ok(names.length >= 14, `expected the v2 corpus, found ${names.length} traces`);
  for (const name of names) {
    const file = path.join(corpus, name);
    const trace = await gotrace.openTrace(fs.readFileSync(file));
    const native = JSON.parse(execFileSync(cli, ['stats', '--json', file]).toString());
    assert.deepEqual(trace.stats(), native, name);
    trace.dispose();
  }
});

test('events() pages through the stream in order with Go\'s text', async () => {
  const file = path.join(corpus, 'go123-annotations.trace');
  const trace = await gotrace.openTrace(fs.readFileSync(file));
  const dump = execFileSync(cli, ['dump', file]).toString();
  let texts = [];
  let from = 0;
  for (;;) {
    const page = trace.events({ from, limit: 7 });
    if (page.text.length === 0) break;
    assert.equal(page.index[0], from);
    texts = texts.concat(page.text);
    from = page.next;
  }
  assert.equal(texts.length, trace.eventCount);
  assert.equal(texts.join('\n') + '\n', dump);
  const onlyG1 = trace.events({ limit: 1000, filter: { goroutine: 1, kinds: ['RegionBegin'] } });
  assert.ok(onlyG1.text.length > 0);
  for (let i = 0; i < onlyG1.text.length; i++) {
    assert.equal(onlyG1.goroutine[i], 1);
    assert.equal(gotrace.eventKinds[onlyG1.kind[i]], 'RegionBegin');
  }
  trace.dispose();
});

const run = (args) => execFileSync(cli, args, { maxBuffer: 1 << 30 }).toString();
const runJson = (args) => JSON.parse(run(args));

test('goroutines(), tasks() and regions() equal the CLI\'s --json on every v2 trace', async () => {
  for (const name of v2Traces()) {
    const file = path.join(corpus, name);
    const trace = await gotrace.openTrace(fs.readFileSync(file));
    const g = trace.goroutines();
    assert.deepEqual(g, runJson(['goroutines', '--json', file]), `${name} goroutines`);
    assert.ok(g.groups.length > 0, name);
    assert.deepEqual(trace.tasks(), runJson(['tasks', '--json', file]), `${name} tasks`);
    assert.deepEqual(trace.regions(), runJson(['regions', '--json', file]), `${name} regions`);
    trace.dispose();
  }
});

// Opens every v2 corpus trace with `open(file, onProgress)`: each reports `phases` in
// order, the last reaching every byte, and reads as the CLI reads it.
async function checkOpens(open, phases) {
  for (const name of v2Traces()) {
    const file = path.join(corpus, name);
    const seen = [];  // the last report of each phase, in order
    const trace = await open(file, (p) => {
      if (seen.at(-1)?.phase !== p.phase) seen.push({ ...p });
      else seen[seen.length - 1] = { ...p };
    });
    const size = fs.statSync(file).size;
    assert.deepEqual(seen.map((p) => p.phase), phases, name);
    for (const p of seen) assert.equal(p.bytesTotal, size, name);
    assert.equal(seen.at(-1).bytesDone, size, `${name}: every byte read`);
    assert.deepEqual(trace.stats(), runJson(['stats', '--json', file]), `${name} stats`);
    assert.deepEqual(trace.goroutines(), runJson(['goroutines', '--json', file]), `${name} goroutines`);
    trace.dispose();
  }
}

test('a Blob (a file) opens as its bytes do, its reading and parsing reported in order', async () => {
  // Outside a worker (no FileReaderSync) a Blob is read whole, then parsed.
  await checkOpens(async (file, onProgress) => gotrace.openTrace(await fs.openAsBlob(file), { onProgress }),
    ['reading', 'parsing']);
});

test('a file opened by path (openTraceFile) is its bytes, read as it is parsed, with clear errors', async () => {
  await checkOpens((file, onProgress) => gotrace.openTraceFile(file, { onProgress }), ['parsing']);
  // A file larger than two of the reader's reads (8 MiB each): a corpus trace repeated,
  // which breaks off where the second copy begins (its first read holds both); read as
  // its bytes are, error and all. (The C++ tests cross windows: reads of 1 byte up.)
  const big = path.join(os.tmpdir(), `gotrace-open-file-${process.pid}.trace`);
  const one = fs.readFileSync(path.join(corpus, 'go123-workload.trace'));
  fs.writeFileSync(big, Buffer.concat(Array.from({ length: Math.ceil((17 << 20) / one.length) }, () => one)));
  assert.ok(fs.statSync(big).size > 2 * (8 << 20));
  try {
    const whole = await gotrace.openTrace(fs.readFileSync(big), { allowPartial: true });
    const read = await gotrace.openTraceFile(big, { allowPartial: true });
    assert.deepEqual(read.stats(), whole.stats());
    assert.equal(read.partialError, whole.partialError);
    whole.dispose();
    read.dispose();
    await assert.rejects(gotrace.openTraceFile(big), (e) => e.message === read.partialError);
    await assert.rejects(gotrace.openTraceFile(big, { onProgress: () => false }), /cancell?ed/);
  } finally {
    fs.rmSync(big, { force: true });
  }
  await assert.rejects(gotrace.openTraceFile(path.join(corpus, 'no-such.trace')), /ENOENT.*no-such\.trace/);
});

// Go's text of an event of a part, with the first status of a goroutine or proc alive
// before the part (from Undetermined, as in a trace's first generation) as the whole
// trace has it ("Undetermined->Running" as "Running->Running").
// A part's first status as the whole trace has it: named from the state it names, and
// with no reason, where the part's tells why the goroutine waits or stopped (the test of
// a part's waits checks that reason).
const asNamed = (text) =>
  /Undetermined->/.test(text)
    ? text.replace(/Undetermined->(\w+)/, '$1->$1').replace(/ Reason="(?:[^"\\]|\\.)*"/, ' Reason=""')
    : text;

// The text of events [from, from + count) of a trace (events()).
function eventTexts(trace, from, count) {
  const texts = [];
  while (texts.length < count) {
    const page = trace.events({ from: from + texts.length, limit: Math.min(5000, count - texts.length) });
    if (page.text.length === 0) break;
    texts.push(...page.text);
  }
  return texts;
}

test('openTraceIndex: the whole trace\'s stats, and any run of its generations opened as the whole trace has it', async () => {
  // Every v2 corpus trace and a stress trace of 700 generations: the index's stats are
  // the CLI's; each generation opened alone, and runs of three, are the whole trace's
  // events there (Go's text), with the whole read's states at the cut.
  const files = [...v2Traces().map((n) => path.join(corpus, n)), path.join(corpusDir, 'newest/go127-gomaxprocs.stress.trace')];
  let parts = 0;
  for (const file of files) {
    const name = path.basename(file);
    const bytes = fs.readFileSync(file);
    const whole = await gotrace.openTrace(bytes, { allowPartial: true });
    const fromBytes = await gotrace.openTraceIndex(bytes);
    assert.deepEqual(fromBytes.stats(), whole.stats(), name);
    {
      const index = await gotrace.openTraceIndex(file);
      assert.deepEqual(index.stats(), whole.stats(), name);
      const [a, b] = [fromBytes.openPart(0, 0, { allowPartial: true }), index.openPart(0, 0, { allowPartial: true })];
      assert.deepEqual(a.stats(), b.stats(), name);
      a.dispose();
      b.dispose();
      fromBytes.dispose();
      assert.equal(index.partialError, whole.partialError, name);
      const gens = index.generations;
      assert.equal(gens.length, whole.stats().generations, name);
      const firstEvent = [];
      for (let k = 0, at = 0; k < gens.length; at += gens[k++].events) firstEvent.push(at);
      const step = gens.length > 50 ? 97 : 1;
      for (let k = 0; k < gens.length; k += step) {
        for (const last of [k, Math.min(gens.length - 1, k + 2)]) {
          const part = index.openPart(k, last, { allowPartial: true });
          const count = part.eventCount;
          const texts = eventTexts(part, 0, count);
          assert.deepEqual(k > 0 ? texts.map(asNamed) : texts, eventTexts(whole, firstEvent[k], count), `${name}: generations ${k}-${last}`);
          if (last < gens.length - 1) assert.equal(count, firstEvent[last + 1] - firstEvent[k], `${name}: generations ${k}-${last}`);
          assert.equal(part.stats().generations, last - k + 1);
          part.dispose();
          parts++;
        }
      }
      assert.throws(() => index.openPart(0, gens.length), /no generations 0 to \d+: the trace has \d+/);
      index.dispose();
      assert.throws(() => index.stats(), /disposed/);
    }
    whole.dispose();
  }
  assert.ok(parts > 40, `${parts} parts`);
  // Read a few generations at a time: those read open as parts while the rest is read,
  // and the index read so is the index read at once.
  const stress = path.join(corpusDir, 'newest/go127-gomaxprocs.stress.trace');
  const atOnce = await gotrace.openTraceIndex(stress);
  const whole = await gotrace.openTraceFile(stress);
  const stepped = await gotrace.openTraceIndex(stress, { generations: 3 });
  assert.equal(stepped.complete, false);
  assert.equal(stepped.generations.length, 3);
  assert.throws(() => stepped.openPart(0, 3), /no generations 0 to 3: read so far: 3/);
  const early = stepped.openPart(1, 2);
  let steps = 0;
  while (stepped.advance(50)) steps++;
  assert.ok(steps >= 10, `${steps} steps`);
  assert.equal(stepped.complete, true);
  assert.deepEqual(stepped.generations, atOnce.generations);
  assert.deepEqual(stepped.stats(), atOnce.stats());
  const first = stepped.generations[0].events;
  assert.deepEqual(eventTexts(early, 0, early.eventCount).map(asNamed), eventTexts(whole, first, early.eventCount));
  const late = stepped.openPart(600, 602);
  const at600 = stepped.generations.slice(0, 600).reduce((n, g) => n + g.events, 0);
  assert.deepEqual(eventTexts(late, 0, late.eventCount).map(asNamed), eventTexts(whole, at600, late.eventCount));
  for (const t of [early, late, whole, stepped, atOnce]) t.dispose();
  // An older trace has no generations: it opens whole.
  await assert.rejects(gotrace.openTraceIndex(path.join(corpus, 'go121-workload.trace')), /no generations \(Go 1.21 or older\): open it whole/);
  // A Go 1.26 header and nothing after it is no older trace: it says it has no events.
  const header = fs.readFileSync(path.join(corpus, '..', 'newest', 'go127-workload.trace')).subarray(0, 16);
  await assert.rejects(gotrace.openTraceIndex(header), /the trace has no events \(a header alone\)/);
  await assert.rejects(gotrace.openTraceIndex(new Uint8Array(10)), /not a Go execution trace/);
});

test('TraceIndex.timeline: the whole trace zoomed out, each bucket as the whole Trace has it', async () => {
  // Every v2 corpus trace and a stress trace of 700 generations: over up to 40 buckets of
  // each, every proc, thread, GC and STW track's time in each state is the whole trace's
  // there, so is the goroutine groups' together, and each counter's value at the bucket's end.
  const files = [...v2Traces().map((n) => path.join(corpus, n)), path.join(corpusDir, 'newest/go127-gomaxprocs.stress.trace')];
  let buckets = 0;
  let busy = 0;
  const sum = (columns) => columns.map((c) => c.reduce((n, t) => n + t, 0));
  for (const file of files) {
    const name = path.basename(file);
    const whole = await gotrace.openTraceFile(file);
    const early = await gotrace.openTraceIndex(file, { generations: 1 });
    if (!early.complete) assert.throws(() => early.timelineExtent(), /still being read/, name);
    early.dispose();
    const index = await gotrace.openTraceIndex(file);
    const list = whole.tracks();
    const extent = index.timelineExtent();
    assert.deepEqual([extent.start, extent.end], [list.start, list.end], name);
    for (const kind of ['procs', 'threads', 'sweep']) assert.deepEqual(extent[kind], Array.from(list[kind]), `${name}: ${kind}`);
    const tracks = [...Object.values(list.procs).map((id) => ({ kind: 'proc', id })), ...Object.values(list.threads).map((id) => ({ kind: 'thread', id })),
      { kind: 'gc' }, { kind: 'stw' }];
    const n = Math.floor((extent.end - extent.start) / extent.bucket) + 1;
    for (let b = 0; b < n; b += Math.max(1, Math.floor(n / 40))) {
      const [a, z] = [extent.start + b * extent.bucket, extent.start + (b + 1) * extent.bucket];
      for (const track of tracks) {
        const got = index.timeline(track, a, z, 1);
        const want = whole.timeline(track, a, z, 1);
        assert.deepEqual(sum(got.timeIn), sum(want.timeIn), `${name}: ${track.kind} ${track.id ?? ''} bucket ${b}`);
        buckets++;
        if (want.start.length) busy++;
      }
      // Each goroutine group's activity, all goroutines together, is the whole trace's.
      const activity = extent.groups.map((name) => index.timeline({ kind: 'group', name }, a, z, 1));
      const groups = list.goroutines.groups.map((_, id) => whole.timeline({ kind: 'group', id }, a, z, 1));
      for (const state of ['running', 'runnable', 'waiting', 'syscall']) {
        const got = activity.reduce((n, g) => n + g[state][0], 0);
        const want = groups.reduce((n, g) => n + g[state][0], 0);
        assert.ok(Math.abs(got - want) * extent.bucket <= 1000 + want * extent.bucket * 1e-5, `${name}: ${state} bucket ${b}: ${got} vs ${want}`);
      }
      for (const series of ['goroutines-running', 'heap-alloc']) {
        const got = index.timeline({ kind: 'series', name: series }, a, z, 1);
        const want = whole.timeline({ kind: 'series', name: series }, a, z, 1 << 20);
        if (want.value.length) assert.equal(got.value.at(-1), want.value.at(-1), `${name}: ${series} bucket ${b}`);
      }
    }
    assert.throws(() => index.timeline({ kind: 'goroutine', id: 1 }, extent.start, extent.end, 10), /not 'goroutine' \(open the part/);
    index.dispose();
    whole.dispose();
  }
  assert.ok(busy >= 1000, `${busy} of ${buckets} buckets busy`);
  console.log(`TraceIndex.timeline: ${busy} of ${buckets} buckets busy`);
});

test('a part names the wait of a goroutine blocked before it, as the whole trace does', async () => {
  // go124-stacks.stress: main.main sleeps through most of the trace's 1,384 generations.
  const file = path.join(corpusDir, 'newest/go124-stacks.stress.trace');
  const whole = await gotrace.openTraceFile(file);
  const index = await gotrace.openTraceIndex(file);
  const [first, last] = [37, 74];
  const before = index.generations.slice(0, first).reduce((n, g) => n + g.events, 0);
  // The whole trace's reason: the last transition of goroutine 1 into a wait before the part.
  let reason = null;
  for (let from = 0; from < before; from += 5000) {
    for (const text of whole.events({ from, limit: Math.min(5000, before - from) }).text) {
      const m = /GoID=1 (\w+)->Waiting Reason=("[^"]*")/.exec(text);
      if (m && m[1] !== 'Waiting') reason = JSON.parse(m[2]);
    }
  }
  assert.equal(reason, 'sleep');
  const part = index.openPart(first, last);
  const g = part.goroutine(1).goroutine;
  assert.equal(g.stats[`block:${reason}`], g.stats.total, JSON.stringify(g.stats));
  assert.equal(g.stats['block:'], undefined);
  const status = part.events({ from: 0, limit: 1000 }).text.find((t) => /GoID=1 Undetermined->Waiting/.test(t));
  assert.match(status, new RegExp(`Reason="${reason}"`));
  for (const t of [part, index, whole]) t.dispose();
});

test('TraceIndex.goroutine: a goroutine seen in a part, over its whole life, as the whole trace has it', async () => {
  // go124-stacks.stress: main.main lives through all 1,384 generations; the annotation
  // trace's goroutines live in a few, with regions and tasks.
  for (const [name, first, last] of [['newest/go124-stacks.stress.trace', 37, 74], ['newest/go127-annotations-stress.stress.trace', 200, 201]]) {
    const file = path.join(corpusDir, name);
    const whole = await gotrace.openTraceFile(file);
    const early = await gotrace.openTraceIndex(file, { generations: 3 });
    assert.throws(() => early.goroutine(1, 0, 1), /still being read/);
    early.dispose();
    // Read to 60 generations past the part: the lives that end in the generations read
    // are known (the annotation trace's goroutine that lives in generations 186-256).
    const stepped = await gotrace.openTraceIndex(file, { generations: last + 60 });
    assert.ok(!stepped.complete);
    let answeredEarly = 0;
    const index = await gotrace.openTraceIndex(file);
    const part = index.openPart(first, last);
    const ids = part.goroutineGroups().groups.flatMap((g) => part.goroutineGroupPage(g.name, { limit: 5 }).rows.map((r) => r.id));
    assert.ok(ids.length >= 3, `${name}: ${ids.length} goroutines`);
    let longest = 0;
    for (const id of ids) {
      const life = index.goroutine(id, first, last);
      const { goroutine, group } = whole.goroutine(id);
      assert.deepEqual({ goroutine: life.goroutine, group: life.group }, { goroutine, group }, `${name}: goroutine ${id}`);
      assert.ok(life.generations[0] <= first && life.generations[1] >= last);
      longest = Math.max(longest, life.generations[1] - life.generations[0] + 1);
      if (life.generations[1] < stepped.generations.length) {
        assert.deepEqual(stepped.goroutine(id, first, last), life, `${name}: goroutine ${id} while reading`);
        answeredEarly++;
      } else {
        assert.throws(() => stepped.goroutine(id, first, last), /still being read/, `${name}: goroutine ${id}`);
      }
    }
    if (name.includes('annotations')) assert.ok(answeredEarly > 0, `${name}: ${answeredEarly} answered while reading`);
    if (name.includes('stacks')) assert.equal(longest, index.generations.length);
    assert.equal(index.goroutine(1e9, first, last), null);
    assert.throws(() => index.goroutine(1, 0, index.generations.length), /no generations/);
    for (const t of [part, index, stepped, whole]) t.dispose();
  }
});

test('TraceIndex: the whole trace\'s goroutine, task, region, MMU and profile views, as a whole Trace answers them, its summaries held or archived', async () => {
  // Traces with tasks, regions and logs, of one generation and of hundreds (released as
  // they are read): every group's page, every bucket's instances, every task.
  const files = ['go123-workload.trace', 'go122-workload.trace'].map((n) => path.join(corpus, n))
    .concat(['newest/go127-annotations-stress.stress.trace', 'newest/go127-gomaxprocs.stress.trace'].map((n) => path.join(corpusDir, n)));
  let buckets = 0;
  let tasks = 0;
  let profiles = 0;
  for (const file of files) {
    const name = path.basename(file);
    const whole = await gotrace.openTraceFile(file, { allowPartial: true });
    const reading = await gotrace.openTraceIndex(file, { generations: 1 });
    if (!reading.complete) assert.throws(() => reading.goroutineGroups(), /still being read/, name);
    reading.dispose();
    // Summaries held in arrays (as these traces' first generations foretell they fit),
    // and put away in an archive as each ends: the same answers.
    for (const archiveSummaries of [false, true]) {
    const index = await gotrace.openTraceIndex(file, { archiveSummaries });
    assert.equal(index.summaryError, '');
    assert.equal(index.summaryMemory.archived, archiveSummaries, name);
    assert.ok(index.summaryMemory.bytes > 0, name);
    assert.deepEqual(index.goroutineGroups(), whole.goroutineGroups(), name);
    for (const g of whole.goroutineGroups().groups) {
      for (const options of [{}, { sort: 'exec', desc: false, offset: 2, limit: 20 }]) {
        assert.deepEqual(index.goroutineGroupPage(g.name, options), whole.goroutineGroupPage(g.name, options), `${name}: ${g.name}`);
      }
    }
    assert.equal(index.goroutineGroupPage('no such group'), null);
    for (const row of whole.goroutineGroupPage(whole.goroutineGroups().groups[0].name, { limit: 50 }).rows) {
      assert.deepEqual(index.goroutineSummary(row.id), whole.goroutine(row.id), `${name}: goroutine ${row.id}`);
    }
    assert.equal(index.goroutineSummary(1e12), null);
    for (const [types, inBucket] of [['taskTypes', 'tasksInBucket'], ['regionTypes', 'regionsInBucket']]) {
      assert.deepEqual(index[types](), whole[types](), `${name}: ${types}`);
      for (const t of whole[types]().types) {
        for (const b of t.durations.histogram.buckets) {
          if (!b.count) continue;
          assert.deepEqual(index[inBucket](t.name, b.min), whole[inBucket](t.name, b.min), `${name}: ${t.name} from ${b.min}`);
          if (t.pc !== undefined) assert.deepEqual(index[inBucket](t.name, b.min, t.pc), whole[inBucket](t.name, b.min, t.pc), `${name}: ${t.name} at ${t.pc}`);
          else assert.deepEqual(index[inBucket](t.name, null), whole[inBucket](t.name, null), `${name}: every task of ${t.name}`);
          buckets++;
        }
      }
    }
    for (const id of new Set(whole.tasks().tasks.map((t) => t.id))) {
      assert.deepEqual(index.task(id), whole.task(id), `${name}: task ${id}`);
      tasks++;
    }
    assert.equal(index.task(1e12), null);
    // The MMU of the default flags, its curve made as the index read.
    assert.deepEqual(index.mmu(), whole.mmu(), `${name}: mmu`);
    assert.deepEqual(index.mmu([5e5, 2e7], {}, { worst: 5 }), whole.mmu([5e5, 2e7], {}, { worst: 5 }), `${name}: mmu`);
    assert.throws(() => index.mmu(undefined, { sweep: false }), /the whole trace's MMU is of the default flags/);
    // The profiles, made by a second read a generation at a time.
    assert.throws(() => index.flame('sched'), /still being read/, name);
    let steps = 0;
    while (index.advanceProfiles(1)) steps++;
    assert.ok(steps >= Math.min(index.generations.length - 1, 100), `${name}: ${steps} steps`);
    assert.equal(index.advanceProfiles(1), false);
    for (const type of ['net', 'sync', 'syscall', 'sched']) {
      assert.deepEqual(index.flame(type), whole.flame(type), `${name}: ${type} flame`);
      assert.deepEqual(index.pprof(type), whole.pprof(type), `${name}: ${type} pprof`);
      if (whole.flame(type).value[0] > 0) profiles++;
    }
    assert.throws(() => index.flame('cpu'), /unknown profile type cpu/);
    index.dispose();
    }
    whole.dispose();
  }
  assert.ok(buckets > 40, `${buckets} buckets`);  // both ways
  assert.ok(tasks > 200, `${tasks} tasks`);
  assert.ok(profiles >= 20, `${profiles} profiles`);
  // Past its budget, the index lets the summaries go and says so.
  const small = await gotrace.openTraceIndex(files[0], { summaryBytes: 1000 });
  assert.ok(small.stats().events > 0);
  assert.throws(() => small.goroutineGroups(), /the whole trace's summaries would take more than 0 MiB/);
  assert.match(small.summaryError, /the whole trace's summaries would take more than 0 MiB/);
  assert.equal(small.advanceProfiles(1), false);
  assert.throws(() => small.flame('sync'), /the whole trace's summaries would take more than 0 MiB/);
  small.dispose();
});

test('mmu() equals `gotrace mmu --json --curve` for each flag set', async () => {
  for (const name of ['go123-stress.trace', 'go122-workload.trace']) {
    const file = path.join(corpus, name);
    const trace = await gotrace.openTrace(fs.readFileSync(file));
    for (const [flags, text] of [[{}, 'all'], [{ background: false, assist: false, sweep: false }, 'stw'],
      [{ perProc: true }, 'all,perproc']]) {
      const native = runJson(['mmu', '--json', '--curve', `--flags=${text}`, file]);
      const m = trace.mmu(undefined, flags);
      const { curve, ...rest } = m;
      // The distribution's quantiles above 0 are estimates refined band by band; the
      // order of equal bands differs between the C++ libraries, so they agree to ~1e-7.
      const muds = (x) => x.windows.map((w) => w.mud.map((q) => q.util));
      const strip = (x) => ({ ...x, windows: x.windows.map((w) => ({ ...w, mud: w.mud.map((q) => q.quantile) })) });
      assert.deepEqual(strip(rest), strip(native.mmu), `${name} ${text}`);
      muds(rest).forEach((qs, i) => qs.forEach((u, k) => {
        assert.ok(Math.abs(u - muds(native.mmu)[i][k]) < 1e-6, `${name} ${text} mud ${u} vs ${muds(native.mmu)[i][k]}`);
      }));
      assert.deepEqual(Array.from(curve.window), native.plot.curve.map((p) => p[0]), `${name} ${text} curve`);
      assert.deepEqual(Array.from(curve.mmu), native.plot.curve.map((p) => p[1]), `${name} ${text} curve`);
      const one = trace.mmu([1e6], flags, { worst: 5 });
      assert.equal(one.windows.length, 1);
      assert.equal(one.windows[0].mmu, native.mmu.windows[3].mmu);
    }
    trace.dispose();
  }
});

// Folded totals: the sum of counts and of nanoseconds over every stack.
function foldedTotals(text) {
  let count = 0, ns = 0;
  for (const line of text.split('\n')) {
    if (!line) continue;
    const [c, n] = line.split(' ');
    count += Number(c);
    ns += Number(n);
  }
  return { count, ns };
}

test('pprof() is the file `gotrace pprof -o` writes, and flame() adds up to its folded totals', async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'gotrace-pprof-'));
  try {
    for (const name of ['go123-stress.trace', 'go122-workload.trace', 'go123-annotations-stress.trace', 'go123-futile-wakeup.trace']) {
      const file = path.join(corpus, name);
      const trace = await gotrace.openTrace(fs.readFileSync(file));
      const groups = trace.goroutines().groups.filter((g) => g.name !== '');
      const regions = trace.regions().types;
      const t = trace.stats().time;
      const filters = [
        [undefined, []],
        [{ group: groups[0].name }, [`--goroutine=${groups[0].name}`]],
        [{ range: [t.start + Math.floor(t.duration / 4), t.end - Math.floor(t.duration / 4)] },
          [`--from=${t.start + Math.floor(t.duration / 4)}`, `--to=${t.end - Math.floor(t.duration / 4)}`]],
      ];
      if (regions.length > 0) filters.push([{ region: regions[0].name }, [`--region=${regions[0].name}`]]);
      // Region types that share a name, each by its pc (as Go's region pages link them).
      const shared = regions.filter((r) => regions.filter((o) => o.name === r.name).length > 1);
      if (name === 'go123-futile-wakeup.trace') assert.equal(shared.length, 4, 'its four types named "special"');
      for (const r of shared) {
        filters.push([{ region: r.name, regionPc: r.pc }, [`--region=${r.name}`, `--region-pc=0x${r.pc.toString(16)}`]]);
      }
      if (shared.length > 0) {
        // Each type's time is its own: apart, they add up to the name's (one type a goroutine here).
        const byName = trace.flame('sync', { region: shared[0].name }).value[0];
        const byType = shared.map((r) => trace.flame('sync', { region: r.name, regionPc: r.pc }).value[0]);
        assert.ok(byType.every((ns) => ns < byName) && byType.filter((ns) => ns > 0).length >= 2, `${name}: ${byType} within ${byName}`);
        assert.equal(byType.reduce((a, b) => a + b, 0), byName, name);
      }
      for (const type of ['net', 'sync', 'syscall', 'sched']) {
        for (const [filter, flags] of filters) {
          const what = `${name} ${type} ${JSON.stringify(filter)}`;
          const pb = path.join(out, 'p.pb.gz');
          execFileSync(cli, ['pprof', `--type=${type}`, ...flags, '-o', pb, file]);
          const bytes = trace.pprof(type, filter);
          assert.ok(bytes instanceof Uint8Array, what);
          assert.deepEqual(Buffer.from(bytes), fs.readFileSync(pb), what);
          const want = foldedTotals(run(['pprof', `--type=${type}`, ...flags, '--folded', file]));
          const f = trace.flame(type, filter);
          assert.ok(f.parent instanceof Int32Array && f.value instanceof Float64Array, what);
          assert.equal(f.parent[0], -1, what);
          assert.equal(f.value[0], want.ns, what);
          assert.equal(f.count[0], want.count, what);
          let self = 0;
          for (const v of f.self) self += v;
          assert.equal(self, want.ns, what);
        }
      }
      // The group's goroutines by id count what the group counts.
      const ids = trace.goroutines().groups[0].goroutines;
      const byGroup = trace.flame('sched', { group: trace.goroutines().groups[0].name });
      assert.equal(trace.flame('sched', { goroutines: ids }).value[0], byGroup.value[0]);
      trace.dispose();
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});

test('tracks() and timeline() equal `gotrace timeline --json`', async () => {
  for (const name of ['go123-stress.trace', 'go123-annotations.trace', 'go123-cpu-profile.trace']) {
    const file = path.join(corpus, name);
    const trace = await gotrace.openTrace(fs.readFileSync(file));
    const tracks = trace.tracks();
    const list = run(['timeline', file, '--track=list']);
    assert.match(list, new RegExp(`^proc \\(${tracks.procs.length}\\): ${Array.from(tracks.procs).join(' ')}$`, 'm'));
    assert.match(list, new RegExp(`^goroutine \\(${tracks.goroutines.id.length}\\):`, 'm'));
    const summaries = new Map(trace.goroutines().goroutines.map((g) => [g.id, g.name]));
    tracks.goroutines.id.forEach((id, i) => {
      assert.equal(tracks.goroutines.groups[tracks.goroutines.group[i]], summaries.get(id) ?? '', `${name} g${id}`);
    });
    const span = [tracks.start, tracks.end + 1];
    const cliQuery = (track, pixels, extra = []) => runJson(['timeline', file, `--track=${track}`, `--from=${span[0]}`,
      `--to=${span[1]}`, `--pixels=${pixels}`, '--json', ...extra]);
    const checkSlices = (kind, id, pixels) => {
      const r = trace.timeline({ kind, id }, span[0], span[1], pixels);
      const n = cliQuery(id === undefined ? kind : `${kind}:${id}`, pixels);
      const what = `${name} ${kind}:${id} @${pixels}`;
      assert.equal(r.type, 'slices');
      assert.deepEqual(Array.from(r.start), n.start, what);
      assert.deepEqual(Array.from(r.end), n.end, what);
      assert.deepEqual(Array.from(r.state, (s) => gotrace.sliceStates[s]), n.state, what);
      assert.deepEqual(Array.from(r.count), n.count, what);
      gotrace.sliceStates.forEach((s, k) => assert.deepEqual(Array.from(r.timeIn[k]), n.time_in[s], what));
      if (kind === 'proc' || kind === 'thread') assert.deepEqual(Array.from(r.goroutine), n.detail, what);
      if (kind === 'goroutine') {
        assert.deepEqual(Array.from(r.label, (l) => (l < 0 ? '' : r.labels[l])), n.detail_text, what);
      }
      return r;
    };
    for (const pixels of [100, 5000]) {
      for (const p of tracks.procs) checkSlices('proc', p, pixels);
      for (const g of Array.from(tracks.goroutines.id).slice(0, 20)) checkSlices('goroutine', g, pixels);
      if (tracks.gc) checkSlices('gc', undefined, pixels);
    }
    for (const s of tracks.series) {
      const r = trace.timeline({ kind: 'series', name: s }, span[0], span[1], 300);
      const n = cliQuery(`series:${s}`, 300);
      assert.equal(r.exact, n.exact);
      assert.deepEqual(Array.from(r.time), n.time, `${name} ${s}`);
      assert.deepEqual(Array.from(r.value), n.value, `${name} ${s}`);
    }
    const e = trace.timeline({ kind: 'edges' }, span[0], span[1], 400);
    const ne = cliQuery('edges', 400);
    assert.deepEqual(Array.from(e.fromTime), ne.from_time);
    assert.deepEqual(Array.from(e.goroutine), ne.goroutine);
    assert.deepEqual(Array.from(e.kind, (k) => gotrace.wakeKinds[k]), ne.kind);
    for (const kind of ['logs', 'samples', 'network', 'syscalls']) {
      const r = trace.timeline({ kind, by: 'goroutine' }, span[0], span[1], 400);
      const n = cliQuery(`${kind}:goroutine`, 400);
      assert.deepEqual(Array.from(r.time), n.time);
      assert.deepEqual(Array.from(r.count), n.count);
      assert.equal(Array.from(r.count).reduce((a, b) => a + b, 0), tracks[kind]);
    }
    const tasks = trace.timeline({ kind: 'tasks' }, span[0], span[1], 400);
    assert.deepEqual(Array.from(tasks.start), cliQuery('tasks', 400).start);
    for (const g of tracks.regions) {
      const r = trace.timeline({ kind: 'regions', id: g }, span[0], span[1], 400);
      const n = cliQuery(`regions:${g}`, 400);
      assert.deepEqual(Array.from(r.start), n.start);
      assert.deepEqual(Array.from(r.name, (k) => r.names[k]), n.name);
    }
    trace.dispose();
  }
});

test('sliceDetails() describes the slice under a point, with Go\'s text of its events', async () => {
  const file = path.join(corpus, 'go123-stress.trace');
  const trace = await gotrace.openTrace(fs.readFileSync(file));
  const dump = run(['dump', file]);
  const tracks = trace.tracks();
  let woken = 0, checked = 0;
  for (const [kind, ids] of [['proc', tracks.procs], ['goroutine', Array.from(tracks.goroutines.id).slice(0, 30)]]) {
    for (const id of ids) {
      const r = trace.timeline({ kind, id }, tracks.start, tracks.end + 1, 20000);
      for (let i = 0; i < r.start.length; i += 7) {
        if (r.count[i] !== 1 || r.end[i] <= r.start[i]) continue;
        const d = trace.sliceDetails({ kind, id }, r.start[i] + Math.floor((r.end[i] - r.start[i]) / 2));
        assert.ok(d, `${kind}:${id} at ${r.start[i]}`);
        assert.equal(d.start, r.start[i]);
        assert.equal(d.end, r.end[i]);
        assert.equal(d.state, gotrace.sliceStates[r.state[i]]);
        assert.ok(dump.includes(`${d.eventText}\n`), d.eventText);
        assert.equal(trace.eventAt(d.event).text, d.eventText);
        if (kind === 'proc') assert.equal(d.goroutine, r.goroutine[i]);
        for (const f of d.stack) assert.ok(typeof f.func === 'string' && f.line >= 0);
        if (d.wokenBy) {
          woken++;
          assert.ok(d.wokenBy.time <= d.start);
          assert.ok(gotrace.wakeKinds.includes(d.wokenBy.kind));
        }
        checked++;
      }
    }
  }
  assert.ok(checked > 50 && woken > 10, `${checked} slices, ${woken} woken`);
  assert.equal(trace.sliceDetails({ kind: 'proc', id: 999999 }, tracks.start), null);
  assert.throws(() => trace.sliceDetails({ kind: 'tasks' }, 0), Error);
  trace.dispose();
});

test('clockSnapshots() and the Sync events give the wall clock of a Go 1.25+ trace', async () => {
  const file = path.join(corpusDir, 'newest', 'go127-annotations.default.trace');
  const trace = await gotrace.openTrace(fs.readFileSync(file));
  const snapshots = trace.clockSnapshots();
  assert.equal(snapshots.length, 1);
  const [c] = snapshots;
  assert.equal(c.trace, 468193138432);
  assert.equal(c.mono, 468193138453);
  assert.equal(c.wall, '2026-11-27T04:11:05.996086443Z');
  assert.equal(new Date(c.wallMs).toISOString(), '2026-11-27T04:11:05.996Z');
  assert.equal(typeof c.generation, 'number');
  // Go 1.27's Syncs: the generation's first event, with its snapshot, and a final one.
  const syncs = trace.events({ limit: 1000, filter: { kinds: ['Sync'] } });
  assert.deepEqual(Array.from(syncs.index), [0, trace.eventCount - 1]);
  const sync = trace.eventAt(syncs.index[0]).sync;
  assert.equal(sync.n, 1);
  assert.deepEqual(sync.clock, { trace: c.trace, mono: c.mono, wall: c.wall, wallMs: c.wallMs });
  assert.deepEqual(trace.eventAt(syncs.index[1]).sync, { n: 2, clock: null });
  assert.equal(trace.eventAt(1).sync, undefined);
  // A trace of Go 1.24 (format 1.23) has none.
  const old = await gotrace.openTrace(fs.readFileSync(path.join(corpusDir, 'newest', 'go124-annotations.default.trace')));
  assert.deepEqual(old.clockSnapshots(), []);
});
