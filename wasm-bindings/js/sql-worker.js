// A worker of loadTraces (sql.js): reads one trace at a time with the WebAssembly core
// and hands its SQL tables to the main thread a slice at a time, at most two slices
// ahead of what the main thread has appended.
import fs from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { openTrace } from './index.js';
import { SLICE_ROWS } from './sql.js';

// Tables built a slice at a time in the core; the others come whole.
const SLICED = new Set(['events', 'g_transitions']);
const AHEAD = 2;

let credit = AHEAD;
let wake = null;
const slot = () => (credit > 0 ? Promise.resolve() : new Promise((r) => { wake = r; }));

function buffersOf(table) {
  const buffers = new Set();
  for (const c of table.columns) {
    const v = c.values;
    if (ArrayBuffer.isView(v)) buffers.add(v.buffer);
    else if (v && v.codes) buffers.add(v.codes.buffer);
    if (c.nulls) buffers.add(c.nulls.buffer);
  }
  return [...buffers];
}

async function send(table) {
  await slot();
  credit--;
  parentPort.postMessage({ table }, buffersOf(table));
}

async function load({ file, traceId, tables }) {
  let trace;
  try {
    trace = await openTrace(await fs.readFile(file), { allowPartial: true });
  } catch (e) {
    parentPort.postMessage({ traceDone: true, file, traceId, error: e.message });
    return;
  }
  try {
    for (const name of tables) {
      const options = { traceId, path: file, raw: true };
      if (!SLICED.has(name)) {
        await send(trace.sqlTable(name, options));
        continue;
      }
      for (let offset = 0; ; offset += SLICE_ROWS) {
        const t = trace.sqlTable(name, { ...options, offset, limit: SLICE_ROWS });
        if (t.rows > 0) await send(t);
        if (t.rows < SLICE_ROWS) break;
      }
    }
    parentPort.postMessage({ traceDone: true, file, traceId, events: trace.eventCount, error: trace.partialError || undefined });
  } catch (e) {
    parentPort.postMessage({ traceDone: true, file, traceId, error: e.message });
  } finally {
    trace.dispose();
  }
}

parentPort.on('message', (m) => {
  if (m.ack) {
    credit++;
    if (wake) {
      const w = wake;
      wake = null;
      w();
    }
  } else if (m.done) {
    parentPort.close();
  } else {
    load(m);
  }
});
