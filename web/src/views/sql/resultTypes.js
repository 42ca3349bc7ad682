// How the columns of a result (DuckDB's type names, from DESCRIBE) are read back: the
// types JavaScript and Arrow carry as they are, and the rest (HUGEINT sums, DECIMALs,
// timestamps, lists, structs) as DuckDB writes them in text, exact and readable.
const NATIVE = /^(BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER|FLOAT|DOUBLE|VARCHAR)$/;
const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL\b.*)$/;

export const quoteIdent = (name) => `"${String(name).replace(/"/g, '""')}"`;

export const isNumeric = (type) => NUMERIC.test(type);

/** The select-list item that reads column { name, type } for the page shown. */
export function shownColumn({ name, type }) {
  const q = quoteIdent(name);
  return NATIVE.test(type) ? q : `CAST(${q} AS VARCHAR) AS ${q}`;
}

// Parquet's types for DuckDB's: the select-list item, and the column's schema element
// (physical type, and the converted type that says how to read it). UBIGINT stays
// unsigned (values past 2^63 are common in ids and hashes); HUGEINT sums are read as
// BIGINT, exact (a sum past 2^63 ns is 292 years).
const PARQUET = [
  [/^BOOLEAN$/, null, { type: 'BOOLEAN' }],
  [/^(TINYINT|SMALLINT|INTEGER|UTINYINT|USMALLINT)$/, 'INTEGER', { type: 'INT32' }],
  [/^(UINTEGER|BIGINT|HUGEINT)$/, 'BIGINT', { type: 'INT64' }],
  [/^(UBIGINT|UHUGEINT)$/, 'UBIGINT', { type: 'INT64', converted_type: 'UINT_64' }],
  [/^FLOAT$/, null, { type: 'FLOAT' }],
  [/^(DOUBLE|DECIMAL\b.*)$/, 'DOUBLE', { type: 'DOUBLE' }],
];
const TEXT = { type: 'BYTE_ARRAY', converted_type: 'UTF8' };

/** { select, element } of column { name, type } in a Parquet file. */
export function parquetColumn({ name, type }) {
  const q = quoteIdent(name);
  for (const [re, cast, element] of PARQUET) {
    if (re.test(type)) return { select: cast && cast !== type ? `CAST(${q} AS ${cast}) AS ${q}` : q, element };
  }
  return { select: `CAST(${q} AS VARCHAR) AS ${q}`, element: TEXT };
}
