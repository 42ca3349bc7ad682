#!/usr/bin/env node
// gotrace-sql: SQL over Go execution traces, one or thousands, with DuckDB (docs/sql.md).
import fs from 'node:fs';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { sqlTables } from './index.js';
import { expandTraceArgs, loadTraces, openDatabase, workDirectory } from './sql.js';

const USAGE = `Usage: gotrace-sql [options] [QUERY] FILE|DIR|GLOB...

Makes the SQL tables of Go execution traces (docs/sql.md: traces, events, goroutines,
g_transitions, tasks, regions, ...; trace_id tells the traces apart) queryable in DuckDB,
then runs QUERY and prints its result, or opens a prompt when there is no QUERY.
A directory stands for the .trace files below it; a quoted glob (*, ?, **) for its matches.

  gotrace-sql 'SELECT trace_id, count(*) FROM events GROUP BY 1' traces/
  gotrace-sql traces/*.trace                      a prompt over the tables
  gotrace-sql --parquet out/ traces/              every table as out/TABLE.parquet

The query is the first argument when it has a space in it and names no file.

Options:
  --csv                 print the result as CSV
  --json                print the result as a JSON array of rows
  --parquet DIR         write each table as DIR/TABLE.parquet (with --partition,
                        DIR/TABLE/trace_id=N/*.parquet, one folder per trace)
  --partition           with --parquet: partition each table by trace_id
  --db FILE.duckdb      keep the tables in this database (traces given are added to it;
                        with no trace, query it as it is)
  --tables A,B,...      load only these tables (a query alone loads those it names)
  --workers N           traces read at once (default: the number of CPUs)
  -q, --quiet           no progress on stderr
  -h, --help            this help
`;

function fail(message) {
  process.stderr.write(`gotrace-sql: ${message}\n`);
  process.exit(2);
}

// A result's value as JSON and text show it: BIGINTs as numbers where exact.
function plain(v) {
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

function text(v) {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function csvCell(v) {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

async function runQuery(connection, sql, format, out = process.stdout) {
  const reader = await connection.runAndReadAll(sql);
  const names = reader.columnNames();
  const rows = reader.getRowsJS().map((r) => r.map(plain));
  if (format === 'json') {
    out.write(`${JSON.stringify(rows.map((r) => Object.fromEntries(names.map((n, k) => [n, r[k]]))))}\n`);
  } else if (format === 'csv') {
    out.write(`${names.map(csvCell).join(',')}\n`);
    for (const r of rows) out.write(`${r.map(csvCell).join(',')}\n`);
  } else {
    printTable(names, rows, out);
  }
}

function printTable(names, rows, out) {
  if (names.length === 0) return;
  const cells = rows.map((r) => r.map(text));
  const numeric = names.map((_, k) => rows.every((r) => r[k] === null || typeof r[k] === 'number'));
  const width = names.map((n, k) => Math.max(n.length, ...cells.map((r) => r[k].length)));
  const line = (values) => values.map((v, k) => (numeric[k] ? v.padStart(width[k]) : v.padEnd(width[k]))).join('  ').trimEnd();
  out.write(`${line(names)}\n${width.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const r of cells) out.write(`${line(r)}\n`);
  out.write(`(${rows.length} row${rows.length === 1 ? '' : 's'})\n`);
}

// Statements typed at the prompt (or piped in), each ended by ';'.
async function prompt(connection, format) {
  const interactive = process.stdin.isTTY;
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: interactive });
  if (interactive) {
    process.stdout.write('Tables: traces, events, goroutines, goroutine_blocks, g_transitions, p_transitions, tasks,\n'
      + 'regions, logs, ranges, metrics, cpu_samples, stacks, frames, labels. End statements with ;\n');
  }
  let buffer = '';
  const ask = () => {
    if (!interactive) return;
    rl.setPrompt(buffer ? '   ...> ' : 'gotrace> ');
    rl.prompt();
  };
  ask();
  for await (const line of rl) {
    buffer += `${line}\n`;
    if (line.trim().endsWith(';')) {
      const sql = buffer.trim();
      buffer = '';
      try {
        await runQuery(connection, sql, format);
      } catch (e) {
        process.stderr.write(`${e.message}\n`);
        if (!interactive) process.exitCode = 1;
      }
    }
    ask();
  }
  if (buffer.trim()) {
    try {
      await runQuery(connection, buffer.trim(), format);
    } catch (e) {
      process.stderr.write(`${e.message}\n`);
      process.exitCode = 1;
    }
  }
}

// The tables a one-off query reads (those it names, and traces): the others are not
// computed. Everything for a prompt, a kept database or an export.
async function tablesFor(query, opt) {
  if (query === null || opt.db || opt.parquet) return undefined;
  const names = (await sqlTables()).map((t) => t.name);
  const named = names.filter((n) => new RegExp(`\\b${n}\\b`, 'i').test(query));
  return named.length ? [...new Set(['traces', ...named])] : undefined;
}

async function main() {
  // A query that starts with a comment ("-- ...") is no option: an argument with a space
  // in it never is.
  const argv = process.argv.slice(2);
  const statements = argv.filter((a) => a.startsWith('-') && /\s/.test(a));
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.filter((a) => !statements.includes(a)),
      allowPositionals: true,
      options: {
        csv: { type: 'boolean' },
        json: { type: 'boolean' },
        parquet: { type: 'string' },
        partition: { type: 'boolean' },
        db: { type: 'string' },
        tables: { type: 'string' },
        workers: { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    fail(`${e.message}\n\n${USAGE}`);
  }
  const { values: opt } = parsed;
  const positionals = [...statements, ...parsed.positionals];
  if (opt.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (opt.csv && opt.json) fail('--csv and --json: one or the other');
  const format = opt.csv ? 'csv' : opt.json ? 'json' : 'table';
  // The first argument is the query when it has a space and names no file.
  let query = null;
  let args = positionals;
  if (args.length && /\s/.test(args[0]) && !fs.existsSync(args[0])) [query, ...args] = args;
  if (args.length === 0 && !opt.db) fail(`no trace given\n\n${USAGE}`);
  const workers = opt.workers === undefined ? undefined : Number(opt.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) fail('--workers takes a positive integer');

  let files;
  try {
    files = await expandTraceArgs(args);
  } catch (e) {
    fail(e.message);
  }
  const { connection } = await openDatabase(opt.db);
  if (files.length) {
    // Traces added to a kept database follow those already in it.
    let firstId = 0;
    if (opt.db) {
      const r = await connection.runAndReadAll(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'traces'");
      if (Number(r.getRows()[0][0]) > 0) {
        const m = await connection.runAndReadAll('SELECT coalesce(max(trace_id) + 1, 0) FROM traces');
        firstId = Number(m.getRows()[0][0]);
      }
    }
    const started = performance.now();
    const quiet = opt.quiet || !process.stderr.isTTY;
    let done = 0;
    const result = await loadTraces(connection, files, {
      workers,
      firstId,
      // A kept database holds the rows; otherwise DuckDB reads the core's Parquet files
      // in place.
      into: opt.db ? 'tables' : 'views',
      dir: workDirectory({ signals: true }).dir,
      tables: opt.tables ? opt.tables.split(',').map((s) => s.trim()).filter(Boolean) : await tablesFor(query, opt),
      onTrace: () => {
        done++;
        if (!quiet) process.stderr.write(`\r${done}/${files.length} traces read`);
      },
    });
    if (!quiet) process.stderr.write('\n');
    for (const { file, error } of result.errors) process.stderr.write(`gotrace-sql: ${file}: ${error} (left out)\n`);
    if (!opt.quiet && process.stderr.isTTY) {
      const s = (performance.now() - started) / 1000;
      process.stderr.write(`${result.traces} traces, ${result.events} events loaded in ${s.toFixed(2)} s\n`);
    }
    if (result.traces === 0) fail('no trace could be read');
  }
  if (opt.parquet) {
    fs.mkdirSync(opt.parquet, { recursive: true });
    const tables = await connection.runAndReadAll(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY table_name");
    for (const [name] of tables.getRows()) {
      const to = `${opt.parquet}/${name}${opt.partition ? '' : '.parquet'}`.replaceAll("'", "''");
      const partition = opt.partition ? ', PARTITION_BY (trace_id), OVERWRITE_OR_IGNORE' : '';
      await connection.run(`COPY "${name}" TO '${to}' (FORMAT parquet, COMPRESSION zstd${partition})`);
    }
  }
  if (query !== null) {
    await runQuery(connection, query, format);
  } else if (!opt.parquet) {
    await prompt(connection, format);
  }
  connection.closeSync();
}

main().catch((e) => {
  process.stderr.write(`gotrace-sql: ${e.message}\n`);
  process.exit(1);
});
