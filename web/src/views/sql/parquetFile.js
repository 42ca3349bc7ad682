// A query's result as a Parquet file, written here (hyparquet-writer, plain JavaScript):
// DuckDB-Wasm writes Parquet only with its parquet extension, which it would fetch from
// extensions.duckdb.org, and this page fetches nothing from elsewhere.
import { parquetWriteBuffer } from 'hyparquet-writer';

/** `table` (an Arrow table) as Parquet bytes; `elements` are its columns' schema
 *  elements ({ type, converted_type }: resultTypes.js parquetColumn). */
export function parquetBytes(table, elements) {
  const fields = table.schema.fields;
  const columnData = fields.map((f, i) => {
    const vector = table.getChildAt(i);
    const data = new Array(table.numRows);
    for (let r = 0; r < table.numRows; r++) data[r] = vector.get(r);
    return { name: f.name, data };
  });
  const schema = [
    { name: 'root', num_children: fields.length },
    ...fields.map((f, i) => ({ name: f.name, repetition_type: 'OPTIONAL', ...elements[i] })),
  ];
  return new Uint8Array(parquetWriteBuffer({ columnData, schema, createdBy: 'gotrace' }));
}
