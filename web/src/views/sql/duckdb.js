// DuckDB-Wasm, started for the SQL view only: this module and the engine's files (the
// worker script and the .wasm, ~33 MB) are fetched from the app's own origin the first
// time the view opens, never with the app. The "eh" build is the one shipped: it needs
// WebAssembly exception handling, which every browser of the last few years has; the
// threaded build needs cross-origin isolation, which a static site cannot count on.
import { AsyncDuckDB, VoidLogger } from '@duckdb/duckdb-wasm';
import engineUrl from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import workerUrl from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import { policyWorker } from '../../model/policyWorker.js';

// The engine's worker runs under the page's policy (policyWorker.js), so whatever DuckDB
// may try to fetch (an extension, a remote file) is held to the page's own origin as the
// page is.
function engineWorker() {
  return { worker: policyWorker(workerUrl, { type: 'classic', name: 'duckdb' }) };
}

/** A new, empty in-memory database in its own worker, and a connection to it. */
export async function startDuckDB() {
  const { worker } = engineWorker();
  const db = new AsyncDuckDB(new VoidLogger(), worker);
  try {
    await db.instantiate(new URL(engineUrl, location.href).href);
    // Nothing is ever read from outside: no extension is fetched, no remote file opened.
    await db.open({ query: { castBigIntToDouble: false } });
    const conn = await db.connect();
    await conn.query("SET autoinstall_known_extensions = false; SET autoload_known_extensions = false");
    // Tables compressed in memory: the events of a 94 MB trace (17 M rows, 20 columns)
    // take 3.5 GB as they are, more than a WebAssembly memory of 4 GB can hold beside the
    // engine, and a few hundred megabytes compressed.
    await conn.query("ATTACH ':memory:' AS trace (COMPRESS); USE trace");
    return { db, conn };
  } catch (e) {
    await db.terminate();
    throw e;
  }
}
