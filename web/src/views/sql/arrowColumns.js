// A slice of rows of one table of the trace (trace.sqlTable's answer) as an Arrow record
// batch for DuckDB. The columns come in either shape sqlTable gives: BIGINT as doubles
// or (raw) as int64, VARCHAR as strings or (raw) as a dictionary and codes. Column types
// come from the table's schema: the table is created in DuckDB with those types, and the
// batches only carry the values.
import { Bool, Dictionary, Float64, Int32, Int64, RecordBatch, Schema, Field, Struct, Utf8, makeData, makeVector } from 'apache-arrow';

const TWO_32 = 4294967296;

// Integer and time columns arrive as doubles (exact below 2^53): written as int64 bit
// patterns (little-endian halves), which is much faster than a BigInt per value.
function int64Data(values, from, to, validity) {
  const n = to - from;
  if (values instanceof BigInt64Array) return makeData({ type: new Int64(), length: n, ...validity, data: values.subarray(from, to) });
  const words = new Int32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const x = values[from + i];
    const hi = Math.floor(x / TWO_32);
    words[2 * i] = x - hi * TWO_32;
    words[2 * i + 1] = hi;
  }
  return makeData({ type: new Int64(), length: n, ...validity, data: new BigInt64Array(words.buffer) });
}

// Arrow's bitmaps (bit i of byte i >> 3, least significant first) of a byte per row:
// set where the byte is non-zero, or (validity) where it is zero. Plain loops: these run
// over every row of every table.
function bitsOf(bytes, from, to, setWhenZero) {
  const n = to - from;
  const bits = new Uint8Array((n + 7) >> 3);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if ((bytes[from + i] === 0) === setWhenZero) {
      bits[i >> 3] |= 1 << (i & 7);
      count++;
    }
  }
  return { bits, count };
}

// Strings as a dictionary and a code per row: a trace repeats its strings (kinds, states,
// function names), and each distinct one is encoded once.
const encoder = new TextEncoder();

function dictionaryData(dictionary, codes, validity, id) {
  const encoded = dictionary.map((s) => encoder.encode(s ?? ''));
  const offsets = new Int32Array(encoded.length + 1);
  for (let i = 0; i < encoded.length; i++) offsets[i + 1] = offsets[i] + encoded[i].length;
  const bytes = new Uint8Array(offsets[encoded.length]);
  encoded.forEach((b, i) => bytes.set(b, offsets[i]));
  const vector = makeVector(makeData({ type: new Utf8(), length: encoded.length, valueOffsets: offsets, data: bytes }));
  const type = new Dictionary(new Utf8(), new Int32(), id);
  return makeData({ type, length: codes.length, ...validity, data: codes, dictionary: vector });
}

function stringData(values, from, to, validity, id) {
  if (!Array.isArray(values)) {
    // Raw: the codes of missing values may be anything; they point at the first string.
    const codes = values.codes.slice(from, to);
    for (let i = 0; i < codes.length; i++) if (codes[i] < 0) codes[i] = 0;
    return dictionaryData(values.dictionary.length ? values.dictionary : [''], codes, validity, id);
  }
  const n = to - from;
  const index = new Map();
  const distinct = [];
  const codes = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const s = values[from + i] ?? '';
    let code = index.get(s);
    if (code === undefined) {
      code = distinct.length;
      index.set(s, code);
      distinct.push(s);
    }
    codes[i] = code;
  }
  return dictionaryData(distinct.length ? distinct : [''], codes, validity, id);
}

function columnData(column, type, from, to, id) {
  const n = to - from;
  let validity = { nullCount: 0 };
  if (column.nulls) {
    const { bits, count } = bitsOf(column.nulls, from, to, true);
    if (count < n) validity = { nullCount: n - count, nullBitmap: bits };
  }
  const v = column.values;
  switch (type) {
    case 'BIGINT':
      return int64Data(v, from, to, validity);
    case 'INTEGER':
      return makeData({ type: new Int32(), length: n, ...validity, data: v instanceof Int32Array ? v.subarray(from, to) : Int32Array.from(v.subarray(from, to)) });
    case 'DOUBLE':
      return makeData({ type: new Float64(), length: n, ...validity, data: v instanceof Float64Array ? v.subarray(from, to) : Float64Array.from(v.subarray(from, to)) });
    case 'BOOLEAN':
      return makeData({ type: new Bool(), length: n, ...validity, data: bitsOf(v, from, to, false).bits });
    case 'VARCHAR':
      return stringData(v, from, to, validity, id);
    default:
      throw new Error(`column ${column.name}: unknown type ${type}`);
  }
}

/** Arrow record batches of `table` (sqlTable's answer), `rowsPerBatch` rows each, typed
 *  as `schema` (its entry in sqlSchema) says. A generator: one batch exists at a time. */
export function* recordBatches(table, schema, rowsPerBatch = 1 << 19) {
  const types = new Map(schema.columns.map((c) => [c.name, c.type]));
  const columns = schema.columns.map((c) => {
    const column = table.columns.find((x) => x.name === c.name);
    if (!column) throw new Error(`table ${table.name} has no column ${c.name}`);
    return column;
  });
  for (let from = 0; from < table.rows; from += rowsPerBatch) {
    const to = Math.min(table.rows, from + rowsPerBatch);
    const children = columns.map((c, i) => columnData(c, types.get(c.name), from, to, i));
    const fields = columns.map((c, i) => new Field(c.name, children[i].type, true));
    const arrowSchema = new Schema(fields);
    yield new RecordBatch(arrowSchema, makeData({ type: new Struct(fields), length: to - from, children }));
  }
}
