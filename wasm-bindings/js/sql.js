// The SQL tables of traces (trace.sqlTable) into DuckDB in Node (@duckdb/node-api):
// the traces are read by the WebAssembly core on a pool of worker threads, and their
// columns appended to DuckDB a data chunk at a time from the typed arrays the core
// gives (no value crosses as a JS object). Used by gotrace-sql and its tests.
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Rows of a table the workers hand over at a time (a large trace's events in slices). */
export const SLICE_ROWS = 1 << 18;
// DuckDB's vector size: the rows of one data chunk.
const CHUNK_ROWS = 2048;

let duckdb = null;
async function duck() {
  if (!duckdb) {
    // An optional dependency: the package's parser needs no native DuckDB.
    duckdb = await import('@duckdb/node-api').catch(() => {
      throw new Error('DuckDB is not installed: npm install @duckdb/node-api (an optional dependency of gotrace)');
    });
  }
  return duckdb;
}

const quoteIdent = (s) => `"${String(s).replaceAll('"', '""')}"`;
const quoteString = (s) => `'${String(s).replaceAll("'", "''")}'`;

/** CREATE TABLE IF NOT EXISTS statements for a schema (trace.sqlSchema()). */
export function createStatements(schema) {
  return schema.map((t) =>
    `CREATE TABLE IF NOT EXISTS ${quoteIdent(t.name)} (${t.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ')})`);
}

/** Opens a DuckDB database (in memory without a path) and a connection to it. */
export async function openDatabase(file) {
  const { DuckDBInstance } = await duck();
  const instance = await DuckDBInstance.create(file ?? ':memory:');
  const connection = await instance.connect();
  return { instance, connection };
}

// A VARCHAR column becomes an ENUM of its dictionary in the staging table: its codes
// go in as integers, and INSERT … SELECT turns them into strings inside DuckDB.
function stagingType(c, duck) {
  if (c.type !== 'VARCHAR') return { sql: c.type, type: duck[c.type] };
  const { dictionary } = c.values;
  if (dictionary.length === 0) return { sql: 'VARCHAR', type: duck.VARCHAR };
  return { sql: `ENUM(${dictionary.map(quoteString).join(', ')})`, type: duck.ENUM(dictionary) };
}

let staged = 0;

/**
 * Appends a slice of a table (trace.sqlTable(name, { raw: true })) to the table of
 * that name in `connection`.
 */
export async function appendTable(connection, table) {
  if (table.rows === 0) return;
  const d = await duck();
  const types = table.columns.map((c) => stagingType(c, d));
  const strings = table.columns.some((c) => c.type === 'VARCHAR');
  let target = table.name;
  if (strings) {
    target = `gotrace_stage_${staged++}`;
    await connection.run(`CREATE TEMP TABLE ${quoteIdent(target)} (${table.columns
      .map((c, k) => `${quoteIdent(c.name)} ${types[k].sql}`).join(', ')})`);
  }
  const appender = await connection.createAppender(target, strings ? 'main' : null, strings ? 'temp' : null);
  // One chunk and its vectors, refilled: making either makes its types anew (an ENUM's
  // dictionary each time).
  const chunk = d.DuckDBDataChunk.create(types.map((t) => t.type), CHUNK_ROWS);
  const vectors = table.columns.map((_, k) => chunk.getColumnVector(k));
  for (let from = 0; from < table.rows; from += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, table.rows - from);
    table.columns.forEach((c, k) => fillVector(vectors[k], c, from, n));
    chunk.rowCount = n;
    appender.appendDataChunk(chunk);
  }
  appender.closeSync();
  if (strings) {
    await connection.run(`INSERT INTO ${quoteIdent(table.name)} SELECT * FROM temp.${quoteIdent(target)}`);
    await connection.run(`DROP TABLE temp.${quoteIdent(target)}`);
  }
}

// Rows [from, from + n) of a column into a vector: typed arrays copied whole, NULLs
// marked one by one.
function fillVector(vector, c, from, n) {
  const nulls = c.nulls;
  if (c.type === 'BOOLEAN') {
    for (let j = 0; j < n; j++) vector.setItem(j, nulls && nulls[from + j] ? null : c.values[from + j] !== 0);
  } else if (c.type === 'VARCHAR' && c.values.dictionary.length === 0) {
    for (let j = 0; j < n; j++) vector.setItem(j, null);
  } else {
    const values = c.type === 'VARCHAR' ? c.values.codes : c.values;
    vector.items.set(values.subarray(from, from + n));
    if (nulls) vector.validity.data = validityMask(nulls, from, n);
  }
  vector.flush();
}

// DuckDB's validity mask of rows [from, from + n): a bit per row, 1 = valid, in 64-bit
// words (little-endian, as the machines DuckDB runs on). Built in 32-bit halves: the
// vector's own setItemValid does BigInt arithmetic per row, ~100x slower.
function validityMask(nulls, from, n) {
  const words = new Uint32Array(Math.ceil(n / 64) * 2).fill(0xffffffff);
  for (let j = 0; j < n; j++) if (nulls[from + j]) words[j >>> 5] &= ~(1 << (j & 31));
  return new BigUint64Array(words.buffer);
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
 * Reads traces on a pool of worker threads and loads their tables into `connection`,
 * creating them first: trace_id is `firstId` (default 0) plus each file's position in
 * `files`. `tables` limits the
 * tables loaded (default: all). A trace read partly is loaded with its traces.error; one
 * that cannot be read is left out. Returns { traces, events, errors: [{ file, error }] }.
 */
export async function loadTraces(connection, files, { workers, tables, firstId = 0, onTrace } = {}) {
  const { sqlTables } = await import('./index.js');
  const all = await sqlTables();
  const names = tables ?? all.map((t) => t.name);
  for (const name of names) if (!all.some((t) => t.name === name)) throw new Error(`unknown table ${name}`);
  for (const s of createStatements(all)) await connection.run(s);
  const poolSize = Math.max(1, Math.min(workers ?? os.availableParallelism?.() ?? os.cpus().length, files.length));
  let next = 0;
  let events = 0;
  const errors = [];
  // Appends run one after another (one connection) while the workers read ahead.
  let appending = Promise.resolve();
  let failure = null;
  const pool = [];
  const stop = (e) => {
    failure ??= e;
    for (const w of pool) w.terminate();
  };
  const runWorker = () => new Promise((resolve) => {
    const worker = new Worker(path.join(here, 'sql-worker.js'));
    pool.push(worker);
    const give = () => {
      if (failure || next >= files.length) {
        worker.postMessage({ done: true });
        return;
      }
      const traceId = next++;
      worker.postMessage({ file: files[traceId], traceId: firstId + traceId, tables: names });
    };
    worker.on('message', (m) => {
      appending = appending.then(async () => {
        if (failure) return;
        if (m.table) {
          await appendTable(connection, m.table);
          if (m.table.name === 'events') events += m.table.rows;
          worker.postMessage({ ack: true });
        } else if (m.traceDone) {
          if (m.error && m.events === undefined) errors.push({ file: m.file, error: m.error });
          onTrace?.(m);
          give();
        }
      }).catch(stop);
    });
    worker.on('error', stop);
    worker.on('exit', () => resolve());
    give();
  });
  await Promise.all(Array.from({ length: poolSize }, runWorker));
  await appending;
  if (failure) throw failure;
  return { traces: files.length - errors.length, events, errors };
}
