// A worker of loadTraces (sql.js): opens one trace at a time with the WebAssembly core
// and writes its part of the trace's SQL tables (planPart) as Parquet files,
// DIR/TABLE/TRACEID-PART.parquet, and the events' pieces it takes (eventPiece) as
// DIR/events/TRACEID-PIECE.parquet (zero-padded: the files sort in the rows' order),
// straight from the core's memory to the file.
import fs from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { openTraceFile } from './index.js';
import { eventPiece, planPart } from './sql.js';

function writeTable(trace, { table, rows }, { file, traceId, dir }, name) {
  const out = path.join(dir, table, `${String(traceId).padStart(9, '0')}-${name}.parquet`);
  const fd = fs.openSync(out, 'w');
  try {
    trace.sqlParquet(table, { traceId, path: file, rows: rows ?? null, write: (bytes) => fs.writeSync(fd, bytes) });
  } finally {
    fs.closeSync(fd);
  }
}

async function load(unit) {
  const { file, traceId, parts, part, tables, pieces, pieceRows } = unit;
  const reply = (m) => parentPort.postMessage({ file, traceId, parts, ...m });
  let trace;
  try {
    trace = await openTraceFile(file, { allowPartial: true });
  } catch (e) {
    reply({ error: e.message });
    return;
  }
  try {
    for (const item of planPart(tables, parts, part)) writeTable(trace, item, unit, `${part}`);
    if (pieces && tables.includes('events')) {
      const taken = new Int32Array(pieces);
      for (let k = Atomics.add(taken, 0, 1), rows; (rows = eventPiece(k, trace.eventCount, pieceRows)); k = Atomics.add(taken, 0, 1)) {
        writeTable(trace, { table: 'events', rows }, unit, String(k).padStart(6, '0'));
      }
    }
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
