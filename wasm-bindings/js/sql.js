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
    const api = await import('@duckdb/node-api').catch(() => {
      throw new Error('DuckDB is not installed: npm install @duckdb/node-api (an optional dependency of gotrace)');
    });
    // Its bindings, for strings put straight into a vector (its setItem goes through a cache).
    const { createRequire } = await import('node:module');
    const requireFromApi = createRequire(createRequire(import.meta.url).resolve('@duckdb/node-api'));
    duckdb = { ...api, bindings: requireFromApi('@duckdb/node-bindings') };
  }
  return duckdb;
}

const quoteIdent = (s) => `"${String(s).replaceAll('"', '""')}"`;
const quoteString = (s) => `'${String(s).replaceAll("'", "''")}'`;

/**
 * CREATE TABLE IF NOT EXISTS statements for the tables (sqlTables()): a VARCHAR column
 * whose strings come from a closed set (event kinds and types, states...) is an ENUM of
 * them, appended as codes; its values read, compare and export as strings.
 */
export function createStatements(tables) {
  return tables.map((t) => `CREATE TABLE IF NOT EXISTS ${quoteIdent(t.name)} (${t.columns
    .map((c) => `${quoteIdent(c.name)} ${columnType(c)}`).join(', ')})`);
}

function columnType(c) {
  return c.values ? `ENUM(${c.values.map(quoteString).join(', ')})` : c.type;
}

/** Opens a DuckDB database (in memory without a path) and a connection to it. */
export async function openDatabase(file) {
  const { DuckDBInstance } = await duck();
  const instance = await DuckDBInstance.create(file ?? ':memory:');
  const connection = await instance.connect();
  return { instance, connection };
}

// How each table's columns go in: their DuckDB types, the ENUM index of each closed
// column's strings.
const layouts = new WeakMap();
async function layoutOf(connection, tables) {
  let byName = layouts.get(connection);
  if (!byName) {
    const d = await duck();
    byName = new Map(tables.map((t) => [t.name, t.columns.map((c) => ({
      type: c.values ? d.ENUM(c.values) : d[c.type],
      index: c.values ? new Map(c.values.map((v, k) => [v, k])) : null,
    }))]));
    layouts.set(connection, byName);
  }
  return byName;
}

/**
 * Appends a slice of a table (trace.sqlTable(name, { raw: true })) to the table of that
 * name in `connection`, whose tables createStatements(tables) made. With `appenders` (a
 * Map), the table's appender is kept there for the next slice, and the caller closes it.
 */
export async function appendTable(connection, table, tables, appenders) {
  if (table.rows === 0) return;
  const d = await duck();
  const layout = (await layoutOf(connection, tables)).get(table.name);
  // An appender kept for the table (closed by the caller) takes slice after slice into
  // whole row groups; one closed after each slice left a part-filled one each time.
  let appender = appenders?.get(table.name);
  if (!appender) {
    appender = await connection.createAppender(table.name);
    appenders?.set(table.name, appender);
  }
  // One chunk and its vectors, refilled: making either makes its types anew (an ENUM's
  // values each time).
  const chunk = d.DuckDBDataChunk.create(layout.map((l) => l.type), CHUNK_ROWS);
  const vectors = table.columns.map((_, k) => chunk.getColumnVector(k));
  // Each closed column's codes to its ENUM's.
  const enumCodes = table.columns.map((c, k) => {
    if (!layout[k].index) return null;
    return Int32Array.from(c.values.dictionary, (s) => {
      const code = layout[k].index.get(s);
      if (code === undefined) throw new Error(`${table.name}.${c.name}: ${JSON.stringify(s)} is not among its values`);
      return code;
    });
  });
  for (let from = 0; from < table.rows; from += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, table.rows - from);
    chunk.reset();
    table.columns.forEach((c, k) => fillVector(vectors[k], c, from, n, enumCodes[k], d.bindings));
    chunk.rowCount = n;
    appender.appendDataChunk(chunk);
  }
  if (!appenders) appender.closeSync();
}

// Rows [from, from + n) of a column into a vector: numbers and ENUM codes copied into its
// array, other strings one by one (they are few: reasons, names, messages), NULLs as a
// validity mask.
function fillVector(vector, c, from, n, enumCodes, bindings) {
  const nulls = c.nulls;
  if (c.type === 'BOOLEAN') {
    for (let j = 0; j < n; j++) vector.setItem(j, nulls && nulls[from + j] ? null : c.values[from + j] !== 0);
    vector.flush();
    return;
  }
  if (c.type === 'VARCHAR') {
    const { dictionary, codes } = c.values;
    if (enumCodes) {
      const items = vector.items;
      for (let j = 0; j < n; j++) items[j] = enumCodes[codes[from + j]];
    } else {
      for (let j = 0; j < n; j++) {
        if (!(nulls && nulls[from + j])) bindings.vector_assign_string_element(vector.vector, j, dictionary[codes[from + j]]);
      }
      if (nulls) {
        vector.validity.data = validityMask(nulls, from, n);
        vector.validity.flush(vector.vector);
      }
      return;
    }
  } else {
    vector.items.set(c.values.subarray(from, from + n));
  }
  vector.validity.data = nulls ? validityMask(nulls, from, n) : null;
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
  const appenders = new Map();
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
          await appendTable(connection, m.table, all, appenders);
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
  for (const a of appenders.values()) a.closeSync();
  if (failure) throw failure;
  return { traces: files.length - errors.length, events, errors };
}
