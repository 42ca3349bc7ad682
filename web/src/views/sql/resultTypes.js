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

// Parquet's types for DuckDB's: the select-list item, and the writer's type.
const PARQUET = [
  [/^BOOLEAN$/, null, 'BOOLEAN'],
  [/^(TINYINT|SMALLINT|INTEGER|UTINYINT|USMALLINT)$/, 'INTEGER', 'INT32'],
  [/^(UINTEGER|BIGINT|UBIGINT|HUGEINT|UHUGEINT)$/, 'BIGINT', 'INT64'],
  [/^FLOAT$/, null, 'FLOAT'],
  [/^(DOUBLE|DECIMAL\b.*)$/, 'DOUBLE', 'DOUBLE'],
];

/** { select, type } of column { name, type } in a Parquet file. */
export function parquetColumn({ name, type }) {
  const q = quoteIdent(name);
  for (const [re, cast, parquet] of PARQUET) {
    if (re.test(type)) return { select: cast && cast !== type ? `CAST(${q} AS ${cast}) AS ${q}` : q, type: parquet };
  }
  return { select: `CAST(${q} AS VARCHAR) AS ${q}`, type: 'STRING' };
}
