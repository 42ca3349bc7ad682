// The SQL view (#/sql): DuckDB-Wasm over the open trace's tables. A query's rows equal
// the CLI's figures for the trace (goroutines --json, stats --json), every example query
// runs, the result downloads as CSV and as Parquet with the same rows, a row's link opens
// the timeline at its goroutine and time, bad SQL gets DuckDB's message, a second trace
// opened over the first is the one queried, and no query reaches another origin (the
// page's Content Security Policy holds in DuckDB's worker too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetReadObjects } from 'hyparquet';
import { useBrowser } from './browser.mjs';
import { SAMPLE, corpusTrace, gotraceJson } from './fixtures.mjs';
import { openFile, openPage, timelineIdle, reloadKept } from './pages.mjs';
import { EXAMPLES } from '../../web/src/views/sql/examples.js';

const env = useBrowser();
const SECOND = corpusTrace('newest/go127-workload.trace');

async function openSql(page) {
  await page.evaluate(() => { location.hash = '#/sql'; });
  await page.waitForSelector('[data-testid=sql-view][data-ready="1"]', { timeout: 120_000 });
}

/** Runs `sql` in the view; resolves to { error } or { rows } (the row count). */
async function runSql(page, sql) {
  await page.fill('[data-testid=sql-editor]', sql);
  await page.click('[data-testid=sql-run]');
  await page.waitForFunction(
    (q) => {
      const status = document.querySelector('[data-testid=sql-status]');
      if (!status?.dataset.ms || document.querySelector('[data-testid=sql-editor]').value !== q) return false;
      return document.querySelector('[data-testid=sql-error]') || document.querySelector('[data-testid=sql-row-count]') || document.querySelector('[data-testid=sql-done]');
    },
    sql, { timeout: 300_000, polling: 50 });
  const error = await page.$('[data-testid=sql-error]');
  if (error) return { error: await error.textContent() };
  const count = await page.$('[data-testid=sql-row-count]');
  return { rows: count ? Number(await count.getAttribute('data-rows')) : 0 };
}

/** The shown page of the result: its header and its rows' cells (text). */
async function shownTable(page) {
  return page.evaluate(() => {
    const table = document.querySelector('[data-testid=sql-table]');
    const header = [...table.querySelectorAll('thead th[data-column]')].map((th) => th.dataset.column);
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].slice(tr.querySelector('[data-testid=sql-row-link]') || table.querySelector('.gt-sql-link-col') ? 1 : 0).map((td) => td.textContent));
    return { header, rows };
  });
}

async function download(page, testid) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testid}]`)]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

// RFC 4180: quoted fields may hold commas, quotes (doubled) and line breaks.
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\n') { row.push(field); rows.push(row); row = []; field = ''; } else if (c !== '\r') field += c;
  }
  if (field || row.length) { row.push(field); rows.push(row); }
  return rows;
}

// The goroutines of `gotrace goroutines --json` as the goroutines table has them: times
// from the trace's start (stats' time.start), NULL where the CLI says 0 (never).
function cliGoroutineRows(file) {
  const origin = gotraceJson('stats', file).time.start;
  const since = (t) => (t ? String(t - origin) : '');
  return gotraceJson('goroutines', file).goroutines
    .map((g) => [String(g.id), g.name, since(g.creation), since(g.start), since(g.end), String(g.stats.exec ?? 0), String(g.stats.total ?? 0)])
    .sort((a, b) => Number(a[0]) - Number(b[0]));
}
const GOROUTINES_SQL = 'SELECT goroutine, name, creation, start, "end", exec, total FROM goroutines ORDER BY goroutine';

test('a query of the goroutines equals gotrace goroutines --json, and downloads as CSV and Parquet with the same rows', async () => {
  const { page, problems, warnings, context } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  await openSql(page);
  const expected = cliGoroutineRows(SAMPLE);
  const run = await runSql(page, GOROUTINES_SQL);
  assert.equal(run.error, undefined);
  assert.equal(run.rows, expected.length);

  // The first page as shown, then the next.
  const first = await shownTable(page);
  assert.deepEqual(first.header, ['goroutine', 'name', 'creation', 'start', 'end', 'exec', 'total']);
  const shown = (rows) => rows.map((r) => r.map((v) => (v === 'NULL' ? '' : v)));
  assert.deepEqual(shown(first.rows), expected.slice(0, first.rows.length));
  await page.click('[data-testid=sql-next]');
  await page.waitForFunction((n) => document.querySelector('[data-testid=sql-row-count]')?.textContent.startsWith(`Rows ${n + 1}–`), first.rows.length);
  assert.deepEqual(shown((await shownTable(page)).rows), expected.slice(first.rows.length, 2 * first.rows.length));

  // Every row, as CSV (and no warning from DuckDB-Wasm of a file it had to create).
  warnings.length = 0;
  const csv = await download(page, 'sql-csv');
  assert.deepEqual(warnings, []);
  assert.equal(csv.name, 'query.csv');
  const lines = parseCsv(csv.bytes.toString('utf8'));
  assert.deepEqual(lines[0], first.header);
  assert.deepEqual(lines.slice(1), expected);

  // And as Parquet, read back here.
  const parquet = await download(page, 'sql-parquet');
  assert.equal(parquet.name, 'query.parquet');
  const buffer = parquet.bytes.buffer.slice(parquet.bytes.byteOffset, parquet.bytes.byteOffset + parquet.bytes.byteLength);
  const objects = await parquetReadObjects({ file: buffer });
  const fromParquet = objects.map((o) => first.header.map((k) => (o[k] === null || o[k] === undefined ? '' : String(o[k]))));
  assert.deepEqual(fromParquet, expected);
  // DuckDB (the engines that read Parquet) reads it the same.
  const dir = mkdtempSync(path.join(tmpdir(), 'gotrace-sql-'));
  const file = path.join(dir, 'query.parquet');
  writeFileSync(file, parquet.bytes);
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  const read = (await duck.runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRows();
  assert.deepEqual(read.map((r) => r.map((v) => (v === null ? '' : String(v)))), expected);
  const types = (await duck.runAndReadAll(`SELECT column_type FROM (DESCRIBE SELECT * FROM read_parquet('${file}'))`)).getRows().map((r) => r[0]);
  assert.deepEqual(types, ['BIGINT', 'VARCHAR', 'BIGINT', 'BIGINT', 'BIGINT', 'BIGINT', 'BIGINT']);
  rmSync(dir, { recursive: true });

  // Sorted by a column (in DuckDB): the most execution time first.
  await page.click('th[data-column=exec]');
  await page.click('th[data-column=exec]');
  await page.waitForFunction(() => document.querySelector('th[data-column=exec]')?.getAttribute('aria-sort') === 'descending');
  await page.waitForFunction(() => /^Rows 1–/.test(document.querySelector('[data-testid=sql-row-count]')?.textContent ?? ''));
  const byExec = [...expected].sort((a, b) => Number(b[5]) - Number(a[5]) || Number(a[0]) - Number(b[0]));
  const sorted = shown((await shownTable(page)).rows);
  assert.deepEqual(sorted.map((r) => r[5]), byExec.slice(0, sorted.length).map((r) => r[5]));

  assert.deepEqual(problems.errors, []);
  assert.deepEqual(problems.csp, []);
  await context.close();
});

test('a result of every kind of column downloads as Parquet with its values and types (a UBIGINT past 2^63 too)', async () => {
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  await openSql(page);
  const run = await runSql(page, `SELECT 18446744073709551615::UBIGINT AS u64, 4294967295::UINTEGER AS u32,
    (-7)::TINYINT AS i8, (-9223372036854775808)::BIGINT AS i64, 12::HUGEINT AS sum, 1.5::FLOAT AS f, 2.25::DOUBLE AS d,
    3.14::DECIMAL(5,2) AS dec, true AS b, 'text' AS s, [1, 2] AS l, NULL::UBIGINT AS none`);
  assert.equal(run.error, undefined);
  const parquet = await download(page, 'sql-parquet');
  const dir = mkdtempSync(path.join(tmpdir(), 'gotrace-sql-'));
  const file = path.join(dir, 'query.parquet');
  writeFileSync(file, parquet.bytes);
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  const read = (await duck.runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRows();
  assert.deepEqual(read.map((r) => r.map((v) => (v === null ? null : String(v)))), [[
    '18446744073709551615', '4294967295', '-7', '-9223372036854775808', '12', '1.5', '2.25', '3.14', 'true', 'text', '[1, 2]', null]]);
  const types = (await duck.runAndReadAll(`SELECT column_type FROM (DESCRIBE SELECT * FROM read_parquet('${file}'))`)).getRows().map((r) => r[0]);
  assert.deepEqual(types, ['UBIGINT', 'BIGINT', 'INTEGER', 'BIGINT', 'BIGINT', 'FLOAT', 'DOUBLE', 'DOUBLE', 'BOOLEAN', 'VARCHAR', 'VARCHAR', 'UBIGINT']);
  rmSync(dir, { recursive: true });
  assert.equal(await page.$('[data-testid=sql-error]'), null);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('every example query runs; events by kind equals gotrace stats --json', async () => {
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  await openSql(page);
  const stats = gotraceJson('stats', SAMPLE);
  for (const [i, example] of EXAMPLES.entries()) {
    await page.locator('[data-testid=sql-example]').nth(i).click();
    await page.waitForFunction(
      (q) => document.querySelector('[data-testid=sql-editor]').value === q && document.querySelector('[data-testid=sql-status]')?.dataset.ms,
      example.sql, { timeout: 300_000, polling: 50 });
    const error = await page.$('[data-testid=sql-error]');
    assert.equal(error && await error.textContent(), null, example.label);
    assert.ok(Number(await page.getAttribute('[data-testid=sql-row-count]', 'data-rows')) > 0, `${example.label} gives rows`);
    if (example.label === 'Events by kind') {
      const { header, rows } = await shownTable(page);
      assert.deepEqual(header, ['kind', 'events']);
      assert.deepEqual(Object.fromEntries(rows.map(([k, n]) => [k, Number(n)])), stats.events_by_kind);
    }
  }
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('a row with a goroutine and a time opens the timeline at that goroutine and time', async () => {
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  await openSql(page);
  const origin = gotraceJson('stats', SAMPLE).time.start;
  const run = await runSql(page, `SELECT goroutine, start AS time, "end", duration, state FROM g_transitions
    WHERE state = 'Running' AND duration > 100000 ORDER BY duration DESC, goroutine LIMIT 10`);
  assert.equal(run.error, undefined);
  assert.ok(run.rows > 0);
  const { rows } = await shownTable(page);
  const [g, start, end, duration] = rows[0].map(Number);
  await page.locator('[data-testid=sql-row-link]').first().click();
  await page.waitForSelector('[data-testid=timeline-canvas]', { timeout: 60_000 });
  await page.waitForFunction((id) => window.__gotraceTimeline?.rowRect(`goroutine:${id}`), g, { timeout: 60_000 });
  await timelineIdle(page);
  const view = await page.evaluate(() => window.__gotraceTimeline.view());
  assert.ok(view.t0 <= origin + start && origin + end <= view.t1, `[${view.t0}, ${view.t1}] holds [${origin + start}, ${origin + end}]`);
  assert.ok(view.t1 - view.t0 < 2 * (end - start), 'the view is the row\'s span, not the whole trace');
  // The slice there is selected: the goroutine's running slice of the row's duration.
  await page.waitForSelector('[data-testid=details] [data-testid=duration]', { timeout: 60_000 });
  const details = await page.locator('[data-testid=details]').textContent();
  assert.match(details, new RegExp(`G${g}\\b`));
  const shownDuration = await page.locator('[data-testid=details] [data-testid=duration]').textContent();
  const { formatDuration } = await import('../../web/src/model/format.js');
  assert.equal(shownDuration, formatDuration(duration));
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('a result of more rows than are kept is paged and sorted by running the query again', async () => {
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  await openSql(page);
  // Every pair of a goroutine and one of the first 200: over the million rows kept.
  const ids = gotraceJson('goroutines', SAMPLE).goroutines.map((g) => g.id);
  const small = ids.filter((id) => id <= 200);
  const run = await runSql(page, `SELECT a.goroutine AS a, b.goroutine AS b FROM goroutines a, goroutines b
    WHERE b.goroutine <= 200 ORDER BY a.goroutine, b.goroutine`);
  assert.equal(run.error, undefined);
  assert.equal(run.rows, ids.length * small.length);
  assert.ok(run.rows > 1_000_000);
  assert.ok(await page.$('[data-testid=sql-rerun]'), 'the view says the result is not kept');
  const sortedIds = [...ids].sort((x, y) => x - y);
  const pair = (i) => [String(sortedIds[Math.floor(i / small.length)]), String(small[i % small.length])];
  const first = (await shownTable(page)).rows;
  assert.deepEqual(first, first.map((_, i) => pair(i)));
  await page.click('[data-testid=sql-next]');
  await page.waitForFunction((n) => document.querySelector('[data-testid=sql-row-count]')?.textContent.startsWith(`Rows ${n + 1}–`), first.length);
  const second = (await shownTable(page)).rows;
  assert.deepEqual(second, second.map((_, i) => pair(first.length + i)));
  // Sorted by b, descending: the largest of the first 200 first.
  await page.click('th[data-column=b]');
  await page.click('th[data-column=b]');
  await page.waitForFunction(() => document.querySelector('th[data-column=b]')?.getAttribute('aria-sort') === 'descending' &&
    /^Rows 1–/.test(document.querySelector('[data-testid=sql-row-count]')?.textContent ?? ''));
  await page.waitForFunction((b) => [...document.querySelectorAll('[data-testid=sql-table] tbody tr')].every((tr) => tr.lastElementChild.textContent === b),
    String(Math.max(...small)));
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('bad SQL gets DuckDB\'s message, and the view stays usable', async () => {
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  await openSql(page);
  const syntax = await runSql(page, 'SELEC goroutine FROM goroutines');
  assert.match(syntax.error, /syntax error at or near "SELEC"/);
  const column = await runSql(page, 'SELECT no_such_column FROM goroutines');
  assert.match(column.error, /no_such_column/);
  const table = await runSql(page, 'SELECT * FROM no_such_table');
  assert.match(table.error, /no_such_table does not exist/);
  const empty = await runSql(page, '  -- nothing\n');
  assert.match(empty.error, /empty/);
  const good = await runSql(page, 'SELECT count(*) AS n FROM goroutines');
  assert.equal(good.error, undefined);
  const answer = [[String(gotraceJson('stats', SAMPLE).goroutines)]];
  assert.deepEqual((await shownTable(page)).rows, answer);
  // The query is in the address: a reload runs it again.
  const hash = new URL(page.url()).hash;
  assert.ok(hash.startsWith('#/sql?'), hash);
  assert.equal(new URLSearchParams(hash.slice(hash.indexOf('?') + 1)).get('q'), 'SELECT count(*) AS n FROM goroutines');
  await reloadKept(page);
  await page.waitForSelector('[data-testid=sql-table] tbody tr', { timeout: 120_000 });
  assert.equal(await page.inputValue('[data-testid=sql-editor]'), 'SELECT count(*) AS n FROM goroutines');
  assert.deepEqual((await shownTable(page)).rows, answer);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('a trace table the query drops is loaded again by the next query that names it', async () => {
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  await openSql(page);
  const loaded = () => page.evaluate(() => Boolean(document.querySelector('[data-testid=sql-schema] [data-table=goroutines] .gt-sql-loaded')));
  const count = 'SELECT count(*) AS n FROM goroutines';
  const answer = [[String(gotraceJson('stats', SAMPLE).goroutines)]];
  assert.equal((await runSql(page, count)).error, undefined);
  assert.deepEqual((await shownTable(page)).rows, answer);
  assert.equal(await loaded(), true);
  assert.equal((await runSql(page, 'DROP TABLE goroutines')).error, undefined);
  assert.equal(await loaded(), false);
  assert.equal((await runSql(page, count)).error, undefined);
  assert.deepEqual((await shownTable(page)).rows, answer);
  assert.equal(await loaded(), true);
  // Dropped by the first statement of a script, named by the second.
  assert.equal((await runSql(page, `DROP TABLE goroutines; ${count}`)).error, undefined);
  assert.deepEqual((await shownTable(page)).rows, answer);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('a second trace opened over the first is the one queried', async () => {
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  await openSql(page);
  const count = 'SELECT count(*) AS n, max(goroutine) AS last FROM goroutines';
  const figures = (file) => {
    const gs = gotraceJson('goroutines', file).goroutines;
    return [String(gs.length), String(Math.max(...gs.map((g) => g.id)))];
  };
  await runSql(page, count);
  assert.deepEqual((await shownTable(page)).rows, [figures(SAMPLE)]);
  // The second trace, opened while the SQL view is shown.
  await openFile(page, SECOND);
  await page.waitForSelector('[data-testid=sql-view][data-ready="1"]', { timeout: 120_000 });
  assert.notDeepEqual(figures(SECOND), figures(SAMPLE));
  // The query stays (it is of no trace in particular), and is run on the second trace.
  assert.equal(await page.inputValue('[data-testid=sql-editor]'), count);
  assert.equal(new URLSearchParams(await page.evaluate(() => location.hash.split('?')[1] ?? '')).get('q'), count);
  await page.waitForFunction((n) => document.querySelector('[data-testid=sql-table] tbody td:last-child')?.textContent === n, figures(SECOND)[1], { timeout: 120_000 });
  await runSql(page, count);
  assert.deepEqual((await shownTable(page)).rows, [figures(SECOND)]);
  // Its events, not the first trace's: the table is loaded anew.
  await runSql(page, 'SELECT count(*) AS n FROM events');
  assert.deepEqual((await shownTable(page)).rows, [[String(gotraceJson('stats', SECOND).events)]]);
  // One DuckDB (its worker runs from a blob: URL): the first trace's was shut down.
  // DuckDB's workers by their name (every worker of the page starts from a blob: URL).
  const duckdbWorkers = async () => {
    let n = 0;
    for (const w of page.workers()) {
      const name = await w.evaluate(() => self.name).catch(() => null);
      if (name === 'duckdb') n++;
    }
    return n;
  };
  assert.equal(await duckdbWorkers(), 1);
  // A trace opened from another view: the SQL view's database goes with the trace before.
  await page.evaluate(() => { location.hash = '#/overview'; });
  await openFile(page, SAMPLE);
  for (let i = 0; i < 100 && (await duckdbWorkers()) > 0; i++) await page.waitForTimeout(50);
  assert.equal(await duckdbWorkers(), 0);
  await openSql(page);
  await runSql(page, count);
  assert.deepEqual((await shownTable(page)).rows, [figures(SAMPLE)]);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('a query cannot read from another origin', async () => {
  // A server that would answer anyone (CORS open): only the page's policy can stop it.
  const asked = [];
  const server = createServer((req, res) => {
    asked.push(req.url);
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Content-Type': 'text/csv' });
    res.end('a,b\n1,2\n');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const other = `http://127.0.0.1:${server.address().port}/x.csv`;
  try {
    const { page, context } = await openPage(env.browser, env.site.url);
    const answered = [];
    context.on('requestfinished', (r) => answered.push(r.url()));
    await openFile(page, SAMPLE);
    await openSql(page);
    const run = await runSql(page, `SELECT * FROM read_csv('${other}')`);
    assert.ok(run.error, 'the read fails');
    assert.deepEqual(asked, [], 'the other origin was never asked');
    const origin = new URL(env.site.url).origin;
    assert.deepEqual(answered.filter((u) => !u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:')), []);
    await context.close();
  } finally {
    server.close();
  }
});
