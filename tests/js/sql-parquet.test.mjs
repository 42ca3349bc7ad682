// The Parquet files the core writes (trace.sqlParquet) hold exactly the rows of
// trace.sqlTable, read back by hyparquet (a reader of its own: DuckDB reads them in
// sql.test.mjs), for every table of every corpus trace; the events shared out between
// workers (rows) join up to the whole table; bad arguments get clear errors.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parquetMetadata, parquetRead } from 'hyparquet';
import { openTrace, sqlTables } from '../../dist/index.js';
import { corpusDir } from './corpus.mjs';

const traces = ['go', 'newest'].flatMap((d) => fs.readdirSync(path.join(corpusDir, d))
  .filter((f) => f.endsWith('.trace')).sort().map((f) => path.join(corpusDir, d, f)));

async function readParquet(bytes) {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  let rows;
  await parquetRead({ file, rowFormat: 'array', onComplete: (r) => { rows = r; } });
  return { rows, metadata: parquetMetadata(file) };
}

// sqlTable's value of row `i` of column `c` (raw: BIGINT as BigInt, VARCHAR by code), as
// a Parquet reader gives it.
function expected(c, i) {
  if (c.nulls && c.nulls[i]) return null;
  switch (c.type) {
    case 'VARCHAR': return c.values.dictionary[c.values.codes[i]];
    case 'BOOLEAN': return c.values[i] !== 0;
    default: return c.values[i];
  }
}

function assertSameRows(table, rows, where) {
  assert.equal(rows.length, table.rows, `${where}: rows`);
  table.columns.forEach((c, k) => {
    for (let i = 0; i < table.rows; i++) {
      const want = expected(c, i);
      const got = rows[i][k];
      if (got !== want && !(Number.isNaN(got) && Number.isNaN(want))) {
        assert.fail(`${where}: row ${i} ${c.name} is ${got}, sqlTable says ${want}`);
      }
    }
  });
}

test('every table of every corpus trace: the Parquet file holds sqlTable\'s rows', async () => {
  assert.ok(traces.length > 100, `${traces.length} corpus traces`);
  const tables = await sqlTables();
  let files = 0;
  let spanning = 0;
  for (const [k, file] of traces.entries()) {
    let trace;
    try {
      trace = await openTrace(fs.readFileSync(file), { allowPartial: true });
    } catch {
      continue;  // unreadable: sql.test.mjs checks it is left out
    }
    try {
      for (const { name, columns } of tables) {
        const options = { traceId: k, path: file };
        const want = trace.sqlTable(name, { ...options, raw: true });
        const { rows, metadata } = await readParquet(trace.sqlParquet(name, options));
        assert.deepEqual(metadata.schema.slice(1).map((s) => s.name), columns.map((c) => c.name), `${file} ${name}: columns`);
        assertSameRows(want, rows, `${path.basename(file)} ${name}`);
        files++;
        if (metadata.row_groups.length > 1) spanning++;
      }
    } finally {
      trace.dispose();
    }
  }
  assert.ok(files > 100 * tables.length, `${files} files`);
  assert.ok(spanning > 10, `${spanning} tables span several row groups`);
});

test('events written in parts (rows) are the whole table, each part on its own', async () => {
  const file = traces.find((f) => f.endsWith('go123-workload.trace'));
  const trace = await openTrace(fs.readFileSync(file));
  try {
    const n = trace.eventCount;
    assert.ok(n > 2 * 262144, `${n} events: three row groups`);
    const cuts = [0, 1, 262144, 300001, n];
    const whole = trace.sqlTable('events', { raw: true });
    let at = 0;
    for (let p = 0; p + 1 < cuts.length; p++) {
      const chunks = [];
      trace.sqlParquet('events', { rows: [cuts[p], cuts[p + 1]], write: (bytes) => chunks.push(bytes.slice()) });
      const bytes = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
      chunks.reduce((o, c) => (bytes.set(c, o), o + c.length), 0);
      const { rows } = await readParquet(bytes);
      assert.equal(rows.length, cuts[p + 1] - cuts[p]);
      const part = trace.sqlTable('events', { raw: true, offset: cuts[p], limit: cuts[p + 1] - cuts[p] });
      assertSameRows(part, rows, `events [${cuts[p]}, ${cuts[p + 1]})`);
      assert.equal(rows[0][1], whole.columns[1].values[at], 'the event column numbers the whole trace\'s events');
      at += rows.length;
    }
    assert.equal(at, n);
    // Past the end: an empty file, still a valid one.
    const { rows } = await readParquet(trace.sqlParquet('events', { rows: [n, n + 10] }));
    assert.equal(rows.length, 0);
    assert.throws(() => trace.sqlParquet('nope'), /unknown table nope/);
    assert.throws(() => trace.sqlParquet('events', { rows: [-1, 5] }), /rows is \[from, to\]/);
    assert.throws(() => trace.sqlParquet('events', { traceId: 0.5 }), /traceId must be an integer/);
  } finally {
    trace.dispose();
  }
});

test('the parts of a large trace write every table once, the events in pieces that cover them', async () => {
  const { planPart, eventPiece, EVENT_PIECE_ROWS } = await import('../../dist/sql.js');
  const all = (await sqlTables()).map((t) => t.name);
  const subsets = [all, ['traces', 'events'], ['events'], ['goroutines', 'g_transitions'], ['traces', 'logs', 'events', 'regions']];
  for (const tables of subsets) {
    // One part: every table, the events last.
    assert.deepEqual(planPart(tables, 1, 0).map((x) => x.table).sort(), [...tables].sort());
    if (tables.includes('events')) assert.equal(planPart(tables, 1, 0).at(-1).table, 'events');
    // More: the others once each among the parts, the events in none (they go in pieces).
    for (const parts of [2, 3]) {
      const named = Array.from({ length: parts }, (_, part) => planPart(tables, parts, part)).flat().map((x) => x.table);
      assert.deepEqual(named.sort(), tables.filter((t) => t !== 'events').sort(), `${tables} in ${parts}: each once`);
    }
  }
  // The pieces: consecutive from 0 to the end, none empty, then null.
  for (const events of [0, 1, 7, EVENT_PIECE_ROWS - 1, EVENT_PIECE_ROWS, EVENT_PIECE_ROWS + 1, 16794007]) {
    let at = 0;
    let k = 0;
    for (let rows; (rows = eventPiece(k, events)); k++) {
      assert.equal(rows[0], at, `${events} events, piece ${k}`);
      assert.ok(rows[1] > rows[0] && rows[1] - rows[0] <= EVENT_PIECE_ROWS);
      at = rows[1];
    }
    assert.equal(at, events);
    assert.equal(k, Math.ceil(events / EVENT_PIECE_ROWS));
  }
  // The summary's tables stay together (the summary is made once per opened trace).
  const two = [0, 1].map((part) => planPart(all, 2, part).map((x) => x.table));
  const summary = ['goroutines', 'goroutine_blocks', 'g_transitions', 'tasks', 'regions'];
  assert.ok(two.some((p) => summary.every((t) => p.includes(t))));
});
