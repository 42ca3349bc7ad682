// Benchmarks of the SQL tables in Node (docs/sql.md), printed, never asserted:
//   1. the 94 MB trace's tables into DuckDB (loadTraces: the WebAssembly core on worker
//      threads writes Parquet), all tables and the events table alone, in events/s:
//      queryable (views over the Parquet files), then a first query, and copied into
//      DuckDB's own tables (as --db does);
//   2. gotrace-sql over 100 traces of ~3 MB (copies of a corpus trace), the whole command;
//   3. what the tables cost on disk per million events (Parquet with zstd, a DuckDB file).
//   node scripts/bench-sql.mjs [LARGE.trace] [--copies N]
// LARGE.trace defaults to the shared corpus's go123-workload-large.trace.zst, unpacked to
// the temporary directory (zstd) on first use.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTraces, openDatabase } from '../dist/sql.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const copiesAt = args.indexOf('--copies');
const copies = copiesAt >= 0 ? Number(args.splice(copiesAt, 2)[1]) : 100;
const shared = process.env.GOTRACE_SHARED_DIR ?? path.join(root, '../shared');
const tmp = os.tmpdir();

function largeTrace() {
  if (args[0]) return args[0];
  const out = path.join(tmp, 'go123-workload-large.trace');
  if (!fs.existsSync(out)) {
    const zst = path.join(shared, 'corpus/go/go123-workload-large.trace.zst');
    if (!fs.existsSync(zst)) return null;
    execFileSync('zstd', ['-d', '-q', '-f', zst, '-o', out]);
  }
  return out;
}

const mb = (bytes) => (bytes / 1e6).toFixed(1);
const rate = (events, s) => `${(events / s / 1e6).toFixed(2)} M events/s`;

async function load(file, tables, into) {
  const { instance, connection } = await openDatabase();
  const started = performance.now();
  const r = await loadTraces(connection, [file], { tables, into });
  const s = (performance.now() - started) / 1000;
  // A first query over the events: DuckDB reads the files (views) or its tables.
  const q0 = performance.now();
  await connection.runAndReadAll('SELECT kind, count(*), max(time) FROM events GROUP BY 1');
  const query = (performance.now() - q0) / 1000;
  connection.closeSync();
  instance.closeSync?.();
  return { events: r.events, s, query };
}

console.log(`gotrace-sql benchmarks (Node ${process.version}, ${os.cpus().length} CPUs: ${os.cpus()[0].model})`);

const large = largeTrace();
if (large) {
  console.log(`\n1. ${path.basename(large)} (${mb(fs.statSync(large).size)} MB) into DuckDB in memory`);
  for (const [label, tables] of [['every table', undefined], ['events alone', ['traces', 'events']]]) {
    for (const into of ['views', 'tables']) {
      const r = await load(large, tables, into);
      console.log(`   ${label.padEnd(13)} ${into === 'views' ? 'queryable (views)' : 'in DuckDB tables '}  ${r.s.toFixed(2).padStart(6)} s  `
        + `${rate(r.events, r.s)}   then a query of the events ${r.query.toFixed(2)} s`);
    }
  }
} else {
  console.log('\n1. (the 94 MB trace is not here: pass its path, or set GOTRACE_SHARED_DIR)');
}

// 2. gotrace-sql over `copies` traces of ~3 MB.
const source = path.join(root, 'tests/corpus/go/go123-workload.trace');
execFileSync(path.join(root, 'scripts/corpus.sh'), { stdio: 'ignore' });
const dir = fs.mkdtempSync(path.join(tmp, 'gotrace-bench-sql-'));
for (let i = 0; i < copies; i++) fs.copyFileSync(source, path.join(dir, `copy-${String(i).padStart(3, '0')}.trace`));
const bin = path.join(root, 'dist/gotrace-sql.js');
console.log(`\n2. gotrace-sql over ${copies} copies of ${path.basename(source)} (${mb(fs.statSync(source).size)} MB each); a query loads the tables it names`);
const queries = [
  // The issue's: every event of every trace.
  'SELECT trace_id, count(*) AS events FROM events GROUP BY 1',
  // docs/sql.md's question: the goroutine summaries.
  "SELECT g.name, sum(b.duration) / 1e6 AS blocked_ms FROM goroutine_blocks b JOIN goroutines g USING (trace_id, goroutine) WHERE b.reason LIKE 'chan%' GROUP BY 1 ORDER BY 2 DESC LIMIT 10",
  // Every table (the query names them all).
  'SELECT count(*) AS traces FROM traces, (SELECT 1 FROM events, goroutines, goroutine_blocks, g_transitions, p_transitions, tasks, regions, logs, ranges, metrics, cpu_samples, stacks, frames, labels LIMIT 0)',
];
const traceEvents = JSON.parse(execFileSync(process.execPath, [bin, '-q', '--json', 'SELECT events FROM traces', source], { encoding: 'utf8' }))[0].events * copies;
for (const query of queries) {
  const started = performance.now();
  execFileSync(process.execPath, [bin, '-q', '--csv', query, dir], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const s = (performance.now() - started) / 1000;
  console.log(`   ${s.toFixed(2).padStart(7)} s  ${rate(traceEvents, s)}  ${query.slice(0, 90)}${query.length > 90 ? '…' : ''}`);
}
let started;
let s;

// 3. On disk, per million events: one trace's tables as Parquet (zstd) and as a DuckDB file.
const one = path.join(dir, 'copy-000.trace');
const parquet = path.join(dir, 'parquet');
const db = path.join(dir, 'one.duckdb');
started = performance.now();
execFileSync(process.execPath, [bin, '-q', '--db', db, '--parquet', parquet, one]);
s = (performance.now() - started) / 1000;
const events = JSON.parse(execFileSync(process.execPath, [bin, '-q', '--json', '--db', db, 'SELECT events FROM traces'], { encoding: 'utf8' }))[0].events;
const sizes = fs.readdirSync(parquet).map((f) => [f.replace('.parquet', ''), fs.statSync(path.join(parquet, f)).size]);
const total = sizes.reduce((a, [, b]) => a + b, 0);
const perM = (bytes) => `${mb(bytes / (events / 1e6))} MB`;
console.log(`\n3. On disk, per million events (${path.basename(source)}: ${events} events, ${mb(fs.statSync(source).size)} MB of trace)`);
console.log(`   Parquet (zstd), every table   ${perM(total)}   (the trace itself: ${perM(fs.statSync(source).size)})`);
for (const [name, bytes] of sizes.sort((a, b) => b[1] - a[1]).slice(0, 5)) console.log(`     ${name.padEnd(16)} ${perM(bytes)}`);
console.log(`   DuckDB file                   ${perM(fs.statSync(db).size)}`);
console.log(`   (--db and --parquet of that one trace: ${s.toFixed(2)} s)`);
fs.rmSync(dir, { recursive: true, force: true });
