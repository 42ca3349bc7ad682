// A worker of loadTraces (sql.js): opens one trace at a time with the WebAssembly core
// and writes its part of the trace's SQL tables (planPart) as Parquet files,
// DIR/TABLE/TRACEID-PART.parquet (the id zero-padded: the files sort in the traces'
// order), straight from the core's memory to the file.
import fs from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { openTrace } from './index.js';
import { planPart } from './sql.js';

function writeTable(trace, { table, rows }, { file, traceId, part, dir }) {
  const out = path.join(dir, table, `${String(traceId).padStart(9, '0')}-${part}.parquet`);
  const fd = fs.openSync(out, 'w');
  try {
    trace.sqlParquet(table, { traceId, path: file, rows: rows ?? null, write: (bytes) => fs.writeSync(fd, bytes) });
  } finally {
    fs.closeSync(fd);
  }
}

async function load(unit) {
  const { file, traceId, parts, part, tables } = unit;
  const reply = (m) => parentPort.postMessage({ file, traceId, parts, ...m });
  let trace;
  try {
    trace = await openTrace(await fs.promises.readFile(file), { allowPartial: true });
  } catch (e) {
    reply({ error: e.message });
    return;
  }
  try {
    for (const item of planPart(tables, parts, part, trace.eventCount)) writeTable(trace, item, unit);
    reply({ events: trace.eventCount, error: trace.partialError || undefined });
  } catch (e) {
    reply({ error: e.message });
  } finally {
    trace.dispose();
  }
}

parentPort.on('message', (m) => {
  if (m.done) parentPort.close();
  else load(m);
});
