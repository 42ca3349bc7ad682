// The SQL tables of one opened trace in DuckDB-Wasm. The tables come from the worker that
// hosts the trace (trace.sqlSchema, trace.sqlTable); each is copied into DuckDB the first
// time a query names it, so that the view is ready as soon as the engine is, and a query
// of the small tables never waits for the events of a large trace.
//
// One session per OpenedTrace, one at a time: opening another trace gives a new session
// with a new database, and the previous one is shut down with its worker, so a query can
// only ever see the tables of the trace it was asked of. A session also shuts itself
// down within a second of its trace being replaced, whether or not the view is shown,
// so that a large trace's tables are not kept after it.
import { Table } from 'apache-arrow';
import { startDuckDB } from './duckdb.js';
import { recordBatches } from './arrowColumns.js';
import { splitStatements } from './statements.js';
import { isNumeric, parquetColumn, quoteIdent, shownColumn } from './resultTypes.js';

// The last query's rows, kept in DuckDB so that pages, sorting and exports are queries
// of it; its own schema keeps it out of the trace's tables (SHOW TABLES).
const RESULT = 'gotrace_view.result';

// Rows per slice of a table read from the trace's worker: each slice is one insert into
// DuckDB, which costs more the smaller they are (g_transitions of the 94 MB trace, 11 M
// rows: 30 s in slices of 128 K rows, 15 s in 512 K, 14 s in 1 M), while a slice of the
// events of a large trace is already some 150 MB in each worker and in flight.
const ROWS_PER_SLICE = 1 << 20;

// The most rows of a result kept in DuckDB (more are read by running the query again).
const KEPT_ROWS = 1_000_000;

let active = null;

/** The session of `trace` (an OpenedTrace), started on first use. */
export function sqlSession(trace) {
  if (active?.trace !== trace) {
    active?.close();
    active = new SqlSession(trace);
  }
  return active;
}

export { quoteIdent };

const COMMENTS = /--[^\n]*|\/\*[\s\S]*?\*\//g;

export class SqlSession {
  #duck = null;
  #queue = Promise.resolve();
  #loads = new Map();  // table name → promise of its load
  #loaded = new Set();  // tables loaded whole
  #closed = false;
  #stop = false;  // stop() asked the table being loaded to stop
  #rerun = null;  // the last query's text when its result is too large to keep
  #watch;

  constructor(trace) {
    this.trace = trace;
    this.#watch = setInterval(() => trace.current || this.close(), 1000);
    this.startedAt = performance.now();
    /** Resolves to the tables' schema once DuckDB runs and the schema is known. */
    this.ready = Promise.allSettled([startDuckDB(), schemaAndOrigin(trace)]).then(async ([duck, schema]) => {
      const failure = duck.status === 'rejected' ? duck.reason : schema.status === 'rejected' ? schema.reason
        : this.#closed ? new Error('another trace was opened') : null;
      if (failure) {
        if (duck.status === 'fulfilled') await duck.value.db.terminate();
        this.close();  // the view opened again tries again
        throw failure;
      }
      this.#duck = duck.value;
      await this.#duck.conn.query('CREATE SCHEMA gotrace_view');
      this.schema = schema.value.schema;
      /** The trace time the tables' times count from (traces.time_origin), null if unknown. */
      this.timeOrigin = schema.value.origin;
      this.readyMs = performance.now() - this.startedAt;
      return this.schema;
    });
    this.ready.catch(() => {});
  }

  /** Runs `fn` after whatever the session is doing (one DuckDB connection, one result). */
  #serial(fn) {
    const next = this.#queue.then(() => {
      if (this.#closed) throw new Error('another trace was opened');
      return fn(this.#duck);
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  /** Whether table `name` is in DuckDB already. */
  loaded(name) {
    return this.#loaded.has(name);
  }

  /** Copies table `name` into DuckDB (once), a slice of rows at a time, the next slice
   *  read in the trace's worker while DuckDB takes the one before. onProgress({ table,
   *  done, rows }). */
  #load(name, onProgress) {
    let p = this.#loads.get(name);
    if (p) return p;
    const entry = this.schema.find((t) => t.name === name);
    p = (async () => {
      const { conn } = this.#duck;
      onProgress?.({ table: name, done: 0, rows: entry.rows });
      const columns = entry.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ');
      await conn.query(`CREATE TABLE ${quoteIdent(name)} (${columns})`);
      const slice = (offset) => this.trace.call('sqlTable', name, { offset, limit: ROWS_PER_SLICE, raw: true });
      let next = entry.rows > 0 ? slice(0) : null;
      try {
        for (let done = 0; next;) {
          const table = await next;
          if (this.#stop) throw new Error('stopped');
          next = done + table.rows < entry.rows && table.rows > 0 ? slice(done + table.rows) : null;
          for (const batch of recordBatches(table, entry, Infinity)) {
            await conn.insertArrowTable(new Table([batch]), { name, create: false });
          }
          done += table.rows;
          onProgress?.({ table: name, done, rows: entry.rows });
        }
        this.#loaded.add(name);
      } catch (e) {
        // No table half loaded: a query would answer from part of it.
        next?.catch(() => {});
        await conn.query(`DROP TABLE IF EXISTS ${quoteIdent(name)}`).catch(() => {});
        throw new Error(this.#stop ? `Stopped: table ${name} was not loaded.` : `Could not load table ${name}: ${cleanError(e).message}`);
      }
    })();
    this.#loads.set(name, p);
    p.catch(() => this.#loads.delete(name));
    return p;
  }

  // The trace's tables that `sql` names: DuckDB's parser says which, and where it cannot
  // parse the text, every table whose name appears in it as a word.
  async #tablesNamed(conn, sql) {
    const names = new Set(this.schema.map((t) => t.name));
    let found;
    try {
      found = await conn.getTableNames(sql);
    } catch {
      found = sql.replace(COMMENTS, ' ').match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
    }
    return [...new Set(found.map((n) => n.split('.').pop().toLowerCase()))].filter((n) => names.has(n));
  }

  /**
   * Runs `sql`, loading the tables it names first. Resolves to { columns: [{ name, type,
   * numeric }], rows } (the result is kept for page() and exportAs()), or { columns: [],
   * rows: 0 } for a statement that returns nothing. Rejects with DuckDB's message for bad
   * SQL.
   */
  run(sql, onProgress) {
    return this.#serial(async ({ conn }) => {
      this.#stop = false;
      const statements = splitStatements(sql);
      if (!statements.length) throw new Error('The query is empty.');
      for (const text of statements) {
        for (const name of await this.#tablesNamed(conn, text)) await this.#load(name, onProgress);
      }
      const last = statements.pop();
      try {
        for (const text of statements) await this.#withTables(() => conn.query(text), onProgress);
        return await this.#withTables(() => this.#keep(conn, last), onProgress);
      } finally {
        await this.#forgetDropped(conn);
      }
    });
  }

  // A trace table that the user's SQL dropped (or renamed) is no longer loaded: the next
  // query that names it loads it again.
  async #forgetDropped(conn) {
    if (!this.#loaded.size) return;
    const t = await conn.query(`SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'`);
    const names = t.getChild('table_name');
    const present = new Set();
    for (let i = 0; i < t.numRows; i++) present.add(names.get(i).toLowerCase());
    for (const name of [...this.#loaded]) if (!present.has(name)) this.#forget(name);
  }

  // Table `name` is not in DuckDB any more: a query that names it loads it again.
  #forget(name) {
    this.#loaded.delete(name);
    this.#loads.delete(name);
  }

  /** Stops the table being loaded for the query running (at its next slice): the
   *  query fails, and the table is loaded anew when a query names it again. */
  stop() {
    this.#stop = true;
  }

  // Runs `fn`; when it fails for a trace table not loaded yet (named in a way the
  // parser's list missed, or dropped by a statement before), loads it and runs `fn` again.
  async #withTables(fn, onProgress) {
    for (let tries = 0; ; tries++) {
      try {
        return await fn();
      } catch (e) {
        const m = /Table with name ([A-Za-z_][A-Za-z0-9_]*) does not exist/.exec(e.message);
        const name = m?.[1].toLowerCase();
        if (!name || tries > 20 || !this.schema.some((t) => t.name === name)) throw cleanError(e);
        if (this.#loads.has(name)) {
          if (!this.#loaded.has(name)) throw cleanError(e);
          this.#forget(name);
        }
        await this.#load(name, onProgress);
      }
    }
  }

  async #keep(conn, text) {
    await conn.query(`DROP TABLE IF EXISTS ${RESULT}`);
    this.#rerun = null;
    let isQuery = true;
    try {
      // Bound, not run: whether the text is one query, and its columns.
      await conn.query(`CREATE TABLE ${RESULT} AS (\n${text}\n) WITH NO DATA`);
    } catch {
      isQuery = false;
      // Not a single query (or a bad one): run it as written, so that an error is
      // DuckDB's own about the user's text.
      const out = await conn.query(text);
      if (out.numCols === 0) return { columns: [], rows: 0 };
      await conn.insertArrowTable(out, { schema: 'gotrace_view', name: 'result', create: true });
    }
    const described = await conn.query(`DESCRIBE ${RESULT}`);
    const names = described.getChild('column_name');
    const types = described.getChild('column_type');
    const columns = [];
    for (let i = 0; i < described.numRows; i++) {
      const type = types.get(i);
      columns.push({ name: names.get(i), type, numeric: isNumeric(type) });
    }
    this.columns = columns;
    const count = async (from) => Number((await conn.query(`SELECT count(*) AS n FROM ${from}`)).getChild('n').get(0));
    if (!isQuery) return { columns, rows: await count(RESULT) };
    // A result of up to KEPT_ROWS rows is kept in DuckDB; a larger one is not (a
    // transaction's rows are not compressed: all the events of a large trace would not
    // fit), and each page runs the query again.
    await conn.query(`INSERT INTO ${RESULT} SELECT * FROM (\n${text}\n) LIMIT ${KEPT_ROWS + 1}`);
    const kept = await count(RESULT);
    if (kept <= KEPT_ROWS) return { columns, rows: kept };
    await conn.query(`DELETE FROM ${RESULT}`);
    this.#rerun = text;
    return { columns, rows: await count(`(\n${text}\n)`), rerun: true };
  }

  // The last result's rows, as `select` reads its columns, in the order shown: from the
  // table kept, in the query's order (rowid) unless sorted, or from the query run again.
  #ordered(select, sort) {
    const list = this.columns.map(select).join(', ');
    const by = sort ? `${quoteIdent(sort.column)} ${sort.desc ? 'DESC' : 'ASC'} NULLS LAST` : '';
    if (this.#rerun !== null) return `SELECT ${list} FROM (\n${this.#rerun}\n)${by ? ` ORDER BY ${by}` : ''}`;
    return `SELECT ${list} FROM ${RESULT} ORDER BY ${by ? `${by}, ` : ''}rowid`;
  }

  /** Rows [offset, offset + limit) of the last result, sorted by { column, desc } or as
   *  the query gave them: arrays of values (numbers, strings, null; BIGINT as numbers
   *  when exact, else strings). */
  page({ offset, limit, sort }) {
    return this.#serial(async ({ conn }) => {
      const t = await conn.query(`${this.#ordered(shownColumn, sort)} LIMIT ${Math.max(0, limit | 0)} OFFSET ${Math.max(0, offset | 0)}`);
      const columns = t.schema.fields.map((_, i) => t.getChildAt(i));
      const rows = [];
      for (let r = 0; r < t.numRows; r++) rows.push(columns.map((c) => plain(c.get(r))));
      return rows;
    });
  }

  /** The last result as a file, sorted as shown: 'csv' (DuckDB's COPY into its own
   *  file system, read back) or 'parquet' (parquetFile.js). */
  exportAs(format, sort) {
    return this.#serial(async ({ db, conn }) => {
      if (format === 'parquet') {
        const columns = this.columns.map(parquetColumn);
        const table = await conn.query(this.#ordered((c) => parquetColumn(c).select, sort));
        const { parquetBytes } = await import('./parquetFile.js');
        return new Blob([parquetBytes(table, columns.map((c) => c.element))], { type: 'application/vnd.apache.parquet' });
      }
      const file = 'result.csv';
      // Registered before COPY writes it, and written in place (not through a temporary
      // file): DuckDB-Wasm warns of every file it has to create.
      await db.registerFileBuffer(file, new Uint8Array(0));
      await conn.query(`COPY (${this.#ordered((c) => quoteIdent(c.name), sort)}) TO '${file}' (FORMAT CSV, HEADER, USE_TMP_FILE false)`);
      try {
        return new Blob([await db.copyFileToBuffer(file)], { type: 'text/csv' });
      } finally {
        await db.dropFile(file);
      }
    });
  }

  /** Shuts the database and its worker down. */
  close() {
    this.#closed = true;
    clearInterval(this.#watch);
    if (active === this) active = null;
    this.#duck?.db.terminate();
    this.#duck = null;
  }
}

// The tables' schema, and the time their times count from (the traces table's one row).
async function schemaAndOrigin(trace) {
  const schema = await trace.call('sqlSchema');
  let origin = null;
  if (schema.some((t) => t.name === 'traces' && t.columns.some((c) => c.name === 'time_origin'))) {
    const column = (await trace.call('sqlTable', 'traces')).columns.find((c) => c.name === 'time_origin');
    if (column && column.values.length && !column.nulls?.[0]) origin = Number(column.values[0]);
  }
  return { schema, origin };
}

// DuckDB's message, less the repeat of where in the text it failed (DuckDB-Wasm gives
// that part twice).
function cleanError(e) {
  let text = String(e?.message ?? e);
  // Some errors (out of memory) come as JSON.
  try {
    const json = JSON.parse(text);
    if (json?.exception_message) text = `${json.exception_type ?? 'DuckDB'} Error: ${json.exception_message}`;
  } catch {}
  const parts = text.split(/\n\s*\n/);
  return new Error(parts.filter((p, i) => parts.indexOf(p) === i).join('\n\n'));
}

// A value of an Arrow result as the table shows it.
function plain(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : String(v);
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString();
  if (ArrayBuffer.isView(v)) return `[${Array.from(v).join(', ')}]`;
  return JSON.stringify(typeof v.toJSON === 'function' ? v.toJSON() : v, (_, x) => (typeof x === 'bigint' ? String(x) : x));
}
