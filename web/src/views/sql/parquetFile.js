// A query's result as a Parquet file, written here (hyparquet-writer, plain JavaScript):
// DuckDB-Wasm writes Parquet only with its parquet extension, which it would fetch from
// extensions.duckdb.org, and this page fetches nothing from elsewhere.
import { parquetWriteBuffer } from 'hyparquet-writer';

/** `table` (an Arrow table) as Parquet bytes; `types` are the writer's column types. */
export function parquetBytes(table, types) {
  const columnData = table.schema.fields.map((f, i) => {
    const vector = table.getChildAt(i);
    const data = new Array(table.numRows);
    for (let r = 0; r < table.numRows; r++) data[r] = vector.get(r);
    return { name: f.name, data, type: types[i], nullable: true };
  });
  return new Uint8Array(parquetWriteBuffer({ columnData, createdBy: 'gotrace' }));
}
