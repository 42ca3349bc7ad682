// The SQL view's pure parts (no browser): a trace table's columns as Arrow record batches
// (the bytes DuckDB is given) read back value for value, nulls, negatives, strings and
// booleans included, and a script split into its statements.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import { recordBatches } from '../../web/src/views/sql/arrowColumns.js';
import { splitStatements } from '../../web/src/views/sql/statements.js';

const schema = {
  name: 't',
  rows: 5,
  columns: [
    { name: 'trace_id', type: 'BIGINT' },
    { name: 'time', type: 'BIGINT' },
    { name: 'proc', type: 'INTEGER' },
    { name: 'share', type: 'DOUBLE' },
    { name: 'kind', type: 'VARCHAR' },
    { name: 'ran', type: 'BOOLEAN' },
  ],
};
const table = {
  name: 't',
  rows: 5,
  columns: [
    { name: 'trace_id', type: 'BIGINT', values: new Float64Array([3, 3, 3, 3, 3]) },
    // Above 2^32, at 2^53 - 1, negative, zero; one missing.
    { name: 'time', type: 'BIGINT', values: new Float64Array([4294967297, 2 ** 53 - 1, -5, 0, 7]), nulls: new Uint8Array([0, 0, 0, 0, 1]) },
    { name: 'proc', type: 'INTEGER', values: new Int32Array([0, -1, 7, 2 ** 31 - 1, 4]) },
    { name: 'share', type: 'DOUBLE', values: new Float64Array([0.5, -1.25, 1e300, 0, Number.MIN_VALUE]) },
    { name: 'kind', type: 'VARCHAR', values: ['GoStart', 'GoStop', 'GoStart', 'é — ☃', ''], nulls: new Uint8Array([0, 0, 0, 0, 1]) },
    { name: 'ran', type: 'BOOLEAN', values: new Uint8Array([1, 0, 1, 1, 0]) },
  ],
};

// Through Arrow's stream format, as DuckDB-Wasm receives them.
const readBack = (batch) => tableFromIPC(tableToIPC(new Table([batch]), 'stream'));

test('a table\'s columns as Arrow batches read back value for value', () => {
  for (const rowsPerBatch of [5, 2, 1]) {
    const rows = [];
    for (const batch of recordBatches(table, schema, rowsPerBatch)) {
      assert.ok(batch.numRows <= rowsPerBatch);
      const t = readBack(batch);
      assert.deepEqual(t.schema.fields.map((f) => f.name), schema.columns.map((c) => c.name));
      for (let r = 0; r < t.numRows; r++) rows.push(t.schema.fields.map((_, i) => t.getChildAt(i).get(r)));
    }
    assert.deepEqual(rows, [
      [3n, 4294967297n, 0, 0.5, 'GoStart', true],
      [3n, 2n ** 53n - 1n, -1, -1.25, 'GoStop', false],
      [3n, -5n, 7, 1e300, 'GoStart', true],
      [3n, 0n, 2 ** 31 - 1, 0, 'é — ☃', true],
      [3n, null, 4, Number.MIN_VALUE, null, false],
    ], `${rowsPerBatch} rows per batch`);
  }
});

test('the raw shape (BIGINT as int64, VARCHAR as a dictionary and codes) reads back the same', () => {
  const raw = {
    ...table,
    columns: table.columns.map((c) => {
      if (c.type === 'BIGINT') return { ...c, values: BigInt64Array.from(c.values, (x) => BigInt(x)) };
      if (c.type === 'VARCHAR') return { ...c, values: { dictionary: ['', 'GoStart', 'GoStop', 'é — ☃'], codes: new Int32Array([1, 2, 1, 3, -1]) } };
      return c;
    }),
  };
  const plain = (t) => {
    const rows = [];
    for (const batch of recordBatches(t, schema, 2)) {
      const b = readBack(batch);
      for (let r = 0; r < b.numRows; r++) rows.push(b.schema.fields.map((_, i) => b.getChildAt(i).get(r)));
    }
    return rows;
  };
  assert.deepEqual(plain(raw), plain(table));
});

test('an empty table gives no batch, and a column missing from the values is an error', () => {
  const empty = { name: 't', rows: 0, columns: table.columns.map((c) => ({ ...c, values: c.values.slice(0, 0) })) };
  assert.equal([...recordBatches(empty, { ...schema, rows: 0 })].length, 0);
  const missing = { ...table, columns: table.columns.slice(1) };
  assert.throws(() => [...recordBatches(missing, schema)], /table t has no column trace_id/);
});

test('a script splits at the semicolons that end its statements', () => {
  assert.deepEqual(splitStatements('SELECT 1'), ['SELECT 1']);
  assert.deepEqual(splitStatements('CREATE VIEW v AS SELECT 1;\nSELECT * FROM v;'), ['CREATE VIEW v AS SELECT 1', 'SELECT * FROM v']);
  assert.deepEqual(splitStatements(`SELECT ';' AS a, 'it''s;' AS b; SELECT "x;y" FROM t`), [`SELECT ';' AS a, 'it''s;' AS b`, 'SELECT "x;y" FROM t']);
  assert.deepEqual(splitStatements('-- one; two\nSELECT 1 /* ; */; SELECT $$a;b$$, $q$c;d$q$'), ['-- one; two\nSELECT 1 /* ; */', 'SELECT $$a;b$$, $q$c;d$q$']);
  assert.deepEqual(splitStatements(' ;; -- nothing\n'), []);
});
