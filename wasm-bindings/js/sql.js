// The SQL tables of traces (docs/sql.md) in DuckDB in Node (@duckdb/node-api): the
// WebAssembly core reads the traces on a pool of worker threads and writes each table as
// Parquet (trace.sqlParquet) into a working directory; DuckDB reads those files in place
// (views over read_parquet: in parallel, only the columns a query uses) or copies them
// into a kept database. No value crosses into JavaScript. Used by gotrace-sql and its
// tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

let duckdb = null;
async function duck() {
  // An optional dependency: the package's parser needs no native DuckDB.
  duckdb ??= await import('@duckdb/node-api').catch(() => {
    throw new Error('DuckDB is not installed: npm install @duckdb/node-api (an optional dependency of gotrace)');
  });
  return duckdb;
}

const quoteIdent = (s) => `"${String(s).replaceAll('"', '""')}"`;
const quoteString = (s) => `'${String(s).replaceAll("'", "''")}'`;

/**
 * CREATE TABLE IF NOT EXISTS statements for the tables (sqlTables()): a VARCHAR column
 * whose strings come from a closed set (event kinds and types, states...) is an ENUM of
 * them, unless `plain`; its values read, compare and export as strings.
 */
export function createStatements(tables, { plain = false } = {}) {
  return tables.map((t) => `CREATE TABLE IF NOT EXISTS ${quoteIdent(t.name)} (${t.columns
    .map((c) => `${quoteIdent(c.name)} ${c.values && !plain ? `ENUM(${c.values.map(quoteString).join(', ')})` : c.type}`)
    .join(', ')})`);
}

/** Opens a DuckDB database (in memory without a path) and a connection to it. */
export async function openDatabase(file) {
  const { DuckDBInstance } = await duck();
  const instance = await DuckDBInstance.create(file ?? ':memory:');
  const connection = await instance.connect();
  return { instance, connection };
}

// The tables computed from the goroutine summary: one worker makes them all (the summary
// is made once per open trace), g_transitions first (written as the summary is made, its
// intervals not kept: the others then take that summary).
const SUMMARY_TABLES = new Set(['g_transitions', 'goroutines', 'goroutine_blocks', 'tasks', 'regions']);
const summaryFirst = (tables) => [...SUMMARY_TABLES].filter((t) => tables.includes(t));
// What each table costs the core to write, per event of the trace, relative to the
// summary's tables (measured on the 94 MB corpus trace in Node): how the tables of a
// trace read in parts are shared out. Tables not named cost little.
const COST = { summary: 1, ranges: 0.17, logs: 0.1, metrics: 0.06, p_transitions: 0.05, traces: 0.05 };
const costOf = (name) => COST[name] ?? 0.01;

/**
 * The tables part `part` of `parts` of one trace writes: [{ table }]. Every part opens
 * the trace; together they write each of `tables` once. With one part that is all of
 * them, the events last; with more, the tables other than the events, shared out by
 * what they cost, and the events are written in pieces (eventPiece) by whichever part
 * is free to take the next one: the parts finish together whatever the machine.
 */
export function planPart(tables, parts, part) {
  if (parts <= 1) {
    const others = tables.filter((t) => t !== 'events' && !SUMMARY_TABLES.has(t));
    return [...summaryFirst(tables), ...others, ...tables.filter((t) => t === 'events')].map((table) => ({ table }));
  }
  // The summary's tables as one, then the others, costliest first, each to the part that
  // costs least so far.
  const groups = [];
  const summary = summaryFirst(tables);
  if (summary.length) groups.push({ tables: summary, cost: COST.summary });
  for (const t of tables) if (!SUMMARY_TABLES.has(t) && t !== 'events') groups.push({ tables: [t], cost: costOf(t) });
  groups.sort((a, b) => b.cost - a.cost);
  const load = new Array(parts).fill(0);
  const mine = [];
  for (const g of groups) {
    const k = load.indexOf(Math.min(...load));
    load[k] += g.cost;
    if (k === part) mine.push(...g.tables.map((table) => ({ table })));
  }
  return mine;
}

// The events of a trace read in parts go in pieces of this many rows (a tenth of a
// second's work each: the parts end within that of each other).
export const EVENT_PIECE_ROWS = 1 << 20;

/** Rows [from, to) of the events table in piece `k` of a trace of `events` events, or null past the last. */
export function eventPiece(k, events, rows = EVENT_PIECE_ROWS) {
  const from = k * rows;
  return from < events ? [from, Math.min(events, from + rows)] : null;
}

/** FILE|DIR|GLOB arguments to trace files: a directory's *.trace files (recursively), a
 *  glob's matches (*, ?, ** as a shell has them), a file as it is. In a stable order. */
export async function expandTraceArgs(args) {
  const fs = await import('node:fs/promises');
  const out = [];
  const walk = async (dir, keep) => {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p, keep);
      else if (keep(p)) out.push(p);
    }
  };
  for (const arg of args) {
    if (/[*?[]/.test(arg)) {
      const parts = arg.split(/[\\/]/);
      const fixed = [];
      while (parts.length && !/[*?[]/.test(parts[0])) fixed.push(parts.shift());
      const base = fixed.length ? fixed.join('/') || '/' : '.';
      const pattern = globRegExp(path.join(base, parts.join('/')));
      const before = out.length;
      await walk(base, (p) => pattern.test(p));
      if (out.length === before) throw new Error(`${arg}: no file matches`);
      continue;
    }
    const st = await fs.stat(arg).catch(() => null);
    if (!st) throw new Error(`${arg}: no such file or directory`);
    if (st.isDirectory()) {
      const before = out.length;
      await walk(arg, (p) => p.endsWith('.trace'));
      if (out.length === before) throw new Error(`${arg}: no .trace file in it`);
    } else {
      out.push(arg);
    }
  }
  return out;
}

function globRegExp(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|\\\]]/g, '\\$&').replace('[', '[');
  }
  return new RegExp(`^${re}$`);
}

/**
 * A working directory for the Parquet files, removed when the process exits; with
 * `signals`, also when SIGINT or SIGTERM ends it (then with the shell's status for the
 * signal: a command line tool's choice, not a library's).
 */
export function workDirectory({ signals = false } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gotrace-sql-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  if (signals) {
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
      process.once(signal, () => {
        remove();
        process.exit(code);
      });
    }
  }
  return { dir, remove };
}

/**
 * Reads traces on a pool of worker threads and makes their tables queryable in
 * `connection`: trace_id is `firstId` (default 0) plus each file's position in `files`.
 * `tables` limits the tables read (default: all; the others are there, empty). With
 * `into: 'views'` (the default) each table is a view over the Parquet files written in
 * `dir` (default: a working directory removed at exit), which must outlive the queries;
 * with `into: 'tables'` the rows are copied into DuckDB's own tables (ENUMs for the
 * closed sets), added to those already there, and the files removed. A trace read
 * partly is loaded with its traces.error; one that cannot be read is left out. A trace
 * read in parts (fewer traces than workers) has its events written in pieces of
 * `pieceRows` rows. Returns { traces, events, errors: [{ file, error }] }.
 */
export async function loadTraces(connection, files, { workers, tables, firstId = 0, onTrace, into = 'views', dir, pieceRows = EVENT_PIECE_ROWS } = {}) {
  const { sqlTables } = await import('./index.js');
  const all = await sqlTables();
  const names = tables ?? all.map((t) => t.name);
  for (const name of names) if (!all.some((t) => t.name === name)) throw new Error(`unknown table ${name}`);
  if (into !== 'views' && into !== 'tables') throw new Error(`into is 'views' or 'tables', not ${into}`);
  const outDir = fs.mkdtempSync(path.join(dir ?? workDirectory().dir, 'load-'));
  for (const name of names) fs.mkdirSync(path.join(outDir, name));

  const poolSize = Math.max(1, workers ?? os.availableParallelism?.() ?? os.cpus().length);
  // Fewer traces than workers: each trace in parts, every part a worker of its own
  // (each holds the trace: at most two parts, for memory's sake).
  const parts = files.length >= poolSize ? 1 : Math.min(2, Math.ceil(poolSize / files.length));
  // The parts of a trace count the events' pieces they take in one shared counter.
  const units = files.flatMap((file, k) => {
    const pieces = parts > 1 ? new SharedArrayBuffer(4) : null;
    return Array.from({ length: parts }, (_, part) => ({ file, traceId: firstId + k, part, parts, pieces, pieceRows }));
  });
  const byTrace = new Map();  // traceId -> { left: parts, events, error }
  let next = 0;
  let events = 0;
  const errors = [];
  let failure = null;
  const pool = [];
  const stop = (e) => {
    failure ??= e;
    for (const w of pool) w.terminate();
  };
  // A worker's part is over once it is told it is done: its exit (the teardown of its
  // WebAssembly memory, a tenth of a second for a large trace) is not waited for.
  const runWorker = () => new Promise((resolve) => {
    const worker = new Worker(path.join(here, 'sql-worker.js'));
    pool.push(worker);
    const give = () => {
      if (failure || next >= units.length) {
        worker.postMessage({ done: true });
        resolve();
        return;
      }
      worker.postMessage({ ...units[next++], tables: names, dir: outDir });
    };
    worker.on('message', (m) => {
      const t = byTrace.get(m.traceId) ?? { left: m.parts };
      byTrace.set(m.traceId, t);
      t.left--;
      if (m.events !== undefined) t.events = m.events;
      t.error ??= m.error;
      if (m.events === undefined) t.unread = true;
      if (t.left === 0) {
        if (t.unread) {
          errors.push({ file: m.file, error: t.error });
          // A part may have written before another failed: none of the trace stays.
          for (const name of names) {
            for (const f of fs.readdirSync(path.join(outDir, name))) {
              if (f.startsWith(`${String(m.traceId).padStart(9, '0')}-`)) fs.rmSync(path.join(outDir, name, f));
            }
          }
        } else {
          events += t.events;
        }
        onTrace?.({ file: m.file, traceId: m.traceId, events: t.events, error: t.error });
      }
      give();
    });
    worker.on('error', stop);
    worker.on('exit', () => resolve());
    give();
  });
  await Promise.all(Array.from({ length: Math.min(poolSize, units.length) }, runWorker));
  if (failure) throw failure;

  const filesOf = (name) => fs.readdirSync(path.join(outDir, name)).sort().map((f) => path.join(outDir, name, f));
  const readParquet = (list) => `read_parquet([${list.map(quoteString).join(', ')}])`;
  if (into === 'views') {
    for (const t of all) {
      const list = names.includes(t.name) ? filesOf(t.name) : [];
      if (list.length) await connection.run(`CREATE OR REPLACE VIEW ${quoteIdent(t.name)} AS SELECT * FROM ${readParquet(list)}`);
      else for (const s of createStatements([t], { plain: true })) await connection.run(s);
    }
  } else {
    for (const s of createStatements(all)) await connection.run(s);
    for (const name of names) {
      const list = filesOf(name);
      if (list.length) await connection.run(`INSERT INTO ${quoteIdent(name)} SELECT * FROM ${readParquet(list)}`);
    }
    fs.rmSync(outDir, { recursive: true, force: true });
  }
  return { traces: files.length - errors.length, events, errors };
}
