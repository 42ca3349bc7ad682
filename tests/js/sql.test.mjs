// gotrace-sql (the npm package's bin) over the corpus: one query over every corpus trace
// at once equals each file's own figures (events by kind as `gotrace stats --json`
// counts them, the goroutines' and the g_transitions' sums); Parquet written by
// --parquet reads back in DuckDB with the same rows; the output formats, the prompt, a
// kept database, and clear errors for bad input.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { openTrace, sqlTables } from '../../dist/index.js';
import { loadTraces, openDatabase } from '../../dist/sql.js';
import { corpusDir } from './corpus.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'dist/gotrace-sql.js');
const run = promisify(execFile);
const sql = (...args) => run(process.execPath, [bin, ...args], { maxBuffer: 1 << 28 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gotrace-sql-test-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const traces = ['go', 'newest'].flatMap((d) => fs.readdirSync(path.join(corpusDir, d))
  .filter((f) => f.endsWith('.trace')).sort().map((f) => path.join(corpusDir, d, f)));

// Each table's row count, one row per table.
const sqlTablesCountQuery = (await sqlTables()).map((t) => `SELECT '${t.name}' AS t, count(*) AS n FROM ${t.name}`)
  .join(' UNION ALL ') + ' ORDER BY t';

async function json(...args) {
  const { stdout } = await sql('--json', ...args);
  return JSON.parse(stdout);
}

test('one query over every corpus trace equals each trace\'s own figures', async () => {
  assert.ok(traces.length > 100, `${traces.length} corpus traces`);
  const db = path.join(tmp, 'corpus.duckdb');
  // Load once (kept), then ask: events by kind, goroutines' and intervals' sums per trace.
  await sql('--db', db, '-q', 'SELECT 1 AS loaded', path.join(corpusDir, 'go'), path.join(corpusDir, 'newest'));
  const byKind = await json('--db', db,
    'SELECT t.path, e.kind, count(*) AS n FROM events e JOIN traces t USING (trace_id) GROUP BY ALL');
  const perTrace = await json('--db', db, 'SELECT trace_id, count(*) AS n FROM events GROUP BY 1');
  const paths = await json('--db', db, 'SELECT trace_id, path, events FROM traces ORDER BY trace_id');
  const goroutines = await json('--db', db,
    'SELECT t.path, count(*) AS n, sum(exec) AS exec, sum(block) AS block FROM goroutines g JOIN traces t USING (trace_id) GROUP BY ALL');
  const intervals = await json('--db', db, `SELECT t.path, sum(g.duration) FILTER (WHERE counted_as = 'exec') AS exec,
      sum(g.duration) FILTER (WHERE counted_as = 'block') AS block FROM g_transitions g JOIN traces t USING (trace_id) GROUP BY ALL`);

  const counted = new Map(perTrace.map((r) => [r.trace_id, r.n]));
  const kinds = new Map();
  for (const r of byKind) kinds.set(r.path, { ...kinds.get(r.path), [r.kind]: r.n });
  const gs = new Map(goroutines.map((r) => [r.path, r]));
  const ivs = new Map(intervals.map((r) => [r.path, r]));
  let checked = 0;
  for (const file of traces) {
    let trace;
    try {
      trace = await openTrace(fs.readFileSync(file), { allowPartial: true });
    } catch {
      assert.ok(!paths.some((p) => p.path === file), `${file} cannot be read, and is not loaded`);
      continue;
    }
    const stats = trace.stats();
    const row = paths.find((p) => p.path === file);
    assert.ok(row, `${file} loaded`);
    assert.equal(row.events, stats.events, file);
    assert.equal(counted.get(row.trace_id) ?? 0, stats.events, file);
    assert.deepEqual(kinds.get(file) ?? {}, stats.events_by_kind, file);
    const summary = trace.goroutines().goroutines;
    const g = gs.get(file) ?? { n: 0, exec: 0, block: 0 };
    assert.equal(g.n, summary.length, file);
    assert.equal(g.exec ?? 0, summary.reduce((s, x) => s + x.stats.exec, 0), file);
    const block = summary.reduce((s, x) => s + Object.entries(x.stats)
      .filter(([k]) => k.startsWith('block:')).reduce((b, [, v]) => b + v, 0), 0);
    assert.equal(g.block ?? 0, block, file);
    const iv = ivs.get(file) ?? {};
    assert.equal(iv.exec ?? 0, g.exec ?? 0, `${file}: g_transitions sum to the goroutines' exec`);
    assert.equal(iv.block ?? 0, block, `${file}: g_transitions sum to the goroutines' block`);
    trace.dispose();
    checked++;
  }
  assert.ok(checked > 100);
});

test('one trace read in two parts: every table once, the events in pieces taken by both workers, in order', async () => {
  const file = traces.find((f) => f.endsWith('go123-workload.trace'));
  const rowsOf = async (connection, q) => (await connection.runAndReadAll(q)).getRowObjectsJson();
  const load = async (options) => {
    const { instance, connection } = await openDatabase();
    const dir = fs.mkdtempSync(path.join(tmp, 'parts-'));
    const r = await loadTraces(connection, [file], { dir, ...options });
    const counts = await rowsOf(connection, sqlTablesCountQuery);
    // In the files' order (no ORDER BY): the pieces' files sort in the rows' order.
    const events = await rowsOf(connection, 'SELECT event, time, kind, goroutine FROM events');
    const files = fs.readdirSync(dir).flatMap((d) => fs.readdirSync(path.join(dir, d, 'events')));
    connection.closeSync();
    instance.closeSync?.();
    return { r, counts, events, files };
  };
  const whole = await load({ workers: 1 });
  const parts = await load({ workers: 2, pieceRows: 50000 });
  assert.equal(whole.files.length, 1);
  assert.equal(parts.files.length, Math.ceil(whole.r.events / 50000), parts.files.join(' '));
  assert.equal(parts.r.events, whole.r.events);
  assert.deepEqual(parts.counts, whole.counts, 'every table, the same rows');
  assert.equal(parts.events.length, whole.r.events);
  parts.events.forEach((e, i) => assert.equal(Number(e.event), i, `row ${i} is event ${i}`));
  assert.deepEqual(parts.events, whole.events);
});

test('--parquet writes every table, and it reads back with the same rows', async () => {
  const some = traces.filter((f) => /go123-annotations\.trace|go122-workload|go127-gc-stress\.default/.test(f));
  assert.equal(some.length, 3);
  const db = path.join(tmp, 'parquet.duckdb');
  const out = path.join(tmp, 'parquet');
  const parts = path.join(tmp, 'partitioned');
  await sql('-q', '--db', db, '--parquet', out, ...some);
  await sql('-q', '--db', db, '--parquet', parts, '--partition');
  const instance = await DuckDBInstance.create(db);
  const c = await instance.connect();
  const tables = (await c.runAndReadAll("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'")).getRows().map((r) => r[0]);
  assert.ok(tables.length >= 15, tables.join());
  for (const t of tables) {
    const file = path.join(out, `${t}.parquet`).replaceAll("'", "''");
    const dir = path.join(parts, t).replaceAll("'", "''");
    const count = async (q) => Number((await c.runAndReadAll(q)).getRows()[0][0]);
    const rows = await count(`SELECT count(*) FROM "${t}"`);
    assert.equal(await count(`SELECT count(*) FROM '${file}'`), rows, t);
    // Row for row: nothing in one that is not in the other.
    assert.equal(await count(`SELECT count(*) FROM (SELECT * FROM "${t}" EXCEPT ALL SELECT * FROM '${file}')`), 0, t);
    assert.equal(await count(`SELECT count(*) FROM (SELECT * FROM '${file}' EXCEPT ALL SELECT * FROM "${t}")`), 0, t);
    if (rows > 0) {
      // Partitioned: a folder per trace, the same rows.
      assert.equal(await count(`SELECT count(*) FROM read_parquet('${dir}/*/*.parquet', hive_partitioning = true)`), rows, t);
    }
  }
  assert.ok(Number((await c.runAndReadAll('SELECT count(*) FROM events')).getRows()[0][0]) > 500000);
  c.closeSync();
});

test('gotrace-sql prints a table, CSV and JSON, and reads statements at a prompt', async () => {
  const file = path.join(corpusDir, 'go', 'go123-annotations.trace');
  const q = "SELECT name, count(*) AS n FROM regions GROUP BY 1 ORDER BY 1";
  const table = (await sql(q, file)).stdout;
  assert.match(table, /^name\s+n\n-+\s+-+\n/);
  assert.match(table, /region0\s+1\n/);
  assert.match(table, /\(6 rows\)/);
  const csv = (await sql('--csv', q, file)).stdout;
  assert.equal(csv.split('\n')[0], 'name,n');
  assert.ok(csv.includes('region0,1\n'));
  const rows = JSON.parse((await sql('--json', q, file)).stdout);
  assert.deepEqual(rows.find((r) => r.name === 'region0'), { name: 'region0', n: 1 });
  // A glob (quoted, as the shell would leave it) and a directory.
  const glob = await json('SELECT count(*) AS n FROM traces', path.join(corpusDir, 'go', 'go123-annotations*.trace'));
  assert.deepEqual(glob, [{ n: 2 }]);
  // The prompt, statements piped in.
  const child = execFile(process.execPath, [bin, '--csv', file]);
  child.stdin.end('SELECT count(*) AS n FROM tasks;\nSELECT count(*) AS n\n  FROM logs;\n');
  let stdout = '';
  child.stdout.on('data', (d) => { stdout += d; });
  await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(stdout, 'n\n2\nn\n1\n');
});

test('gotrace-sql fails with a clear message on bad input', async () => {
  const bad = path.join(tmp, 'not-a-trace.trace');
  fs.writeFileSync(bad, 'hello, not a trace');
  await assert.rejects(sql('SELECT 1 AS x', path.join(tmp, 'missing.trace')), (e) => /missing\.trace: no such file/.test(e.stderr));
  await assert.rejects(sql('SELECT 1 AS x', bad), (e) => e.code === 2 && /not-a-trace\.trace: .*\(left out\)/.test(e.stderr)
    && /no trace could be read/.test(e.stderr));
  await assert.rejects(sql('SELEC nonsense FROM', path.join(corpusDir, 'go', 'go123-annotations.trace')),
    (e) => e.code === 1 && /Parser Error/i.test(e.stderr));
  await assert.rejects(sql('--tables', 'events,nope', 'SELECT 1 AS x', path.join(corpusDir, 'go', 'go123-annotations.trace')),
    (e) => /unknown table nope/.test(e.stderr));
  // A readable trace beside an unreadable one: loaded, the other named.
  const { stdout, stderr } = await sql('--json', 'SELECT count(*) AS n FROM traces', bad, path.join(corpusDir, 'go', 'go123-annotations.trace'));
  assert.deepEqual(JSON.parse(stdout), [{ n: 1 }]);
  assert.match(stderr, /not-a-trace\.trace/);
});
