// The page's handle on the trace: a promise API mirroring the npm package's Trace
// (wasm-bindings/js/index.d.ts), run in the worker (../worker/worker.js).
//
//   const client = new TraceClient();
//   const info = await client.open(fileOrBlob, { onProgress });  // { stats, partialError, eventCount, bytes }
//   client.cancel();                       // stops a load (or anything in flight): rejects with CancelledError
//   await client.stats(); await client.timeline(track, t0, t1, pixels); …  // same arguments as Trace
//   await client.call('anyTraceMethod', ...args);                          // the general form
//   await client.callWithSignal(signal, 'timeline', ...args);              // abandoned if signal aborts
//
// Typed arrays in results are transferred, not copied. Requests run one at a time, in order.
// The views reach the open trace through an OpenedTrace (openedTrace.js), one per open.
import traceWorkerUrl from '../worker/worker.js?worker&url';
import { policyWorker } from './policyWorker.js';

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

// The Trace methods forwarded by name (others go through call()).
export const TRACE_METHODS = [
  'stats', 'events', 'eventAt', 'goroutines', 'tasks', 'regions', 'mmu', 'pprof', 'flame', 'tracks',
  'timeline', 'sliceDetails', 'sqlSchema', 'sqlTable',
];

export class TraceClient {
  #worker = null;
  #next = 1;
  #pending = new Map();
  #traceId = null;  // the worker's number for the trace open in it (null: none)

  constructor() {
    for (const m of TRACE_METHODS) {
      if (!(m in this)) this[m] = (...args) => this.call(m, ...args);
    }
  }

  #ensure() {
    if (this.#worker) return this.#worker;
    const w = policyWorker(traceWorkerUrl, { name: 'gotrace' });
    w.onmessage = (e) => {
      const { id, progress, result, error, cancelled } = e.data;
      const p = this.#pending.get(id);
      if (!p) return;
      if (progress) {
        p.onProgress?.(progress);
        return;
      }
      this.#pending.delete(id);
      if (cancelled) p.reject(new CancelledError());
      else if (error !== undefined) p.reject(new Error(error));
      else p.resolve(result);
    };
    w.onerror = (e) => {
      e.preventDefault?.();
      this.#fail(new Error(`the trace worker failed: ${e.message || 'unknown error'}`));
    };
    this.#worker = w;
    return w;
  }

  #fail(error) {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.#worker?.terminate();
    this.#worker = null;
    this.#traceId = null;  // the trace went with the worker
    for (const p of pending) p.reject(error);
  }

  /** Calls a Trace method in the worker. */
  call(method, ...args) {
    return this.#request(method, args);
  }

  /**
   * The same as call(), abandoned when `signal` (an AbortSignal) aborts: the promise
   * rejects with CancelledError, and the worker stops building the analysis the request
   * waits for (what it built so far is kept; the trace stays open).
   */
  callWithSignal(signal, method, ...args) {
    return this.#request(method, args, undefined, signal);
  }

  /**
   * A request for the trace the worker numbers `trace` (what open() returned as
   * info.trace): rejects with CancelledError once another trace is open. OpenedTrace's.
   */
  requestFor(trace, method, args, signal) {
    if (trace !== this.#traceId) return Promise.reject(new CancelledError());
    return this.#request(method, args, undefined, signal, trace);
  }

  /** The worker's number for the trace open in it, null when none is. */
  get traceId() {
    return this.#traceId;
  }

  #request(method, args, onProgress, signal, trace) {
    const w = this.#ensure();
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(new CancelledError());
        return;
      }
      this.#pending.set(id, { resolve, reject, onProgress });
      w.postMessage({ id, method, args, trace });
      signal?.addEventListener('abort', () => {
        if (!this.#pending.delete(id)) return;
        w.postMessage({ abandon: id });
        reject(new CancelledError());
      }, { once: true });
    });
  }

  /**
   * Reads and parses a trace (a File or Blob; gzip is inflated). onProgress receives
   * { phase: 'reading' | 'parsing', bytesDone, bytesTotal, events? }. The trace open
   * before stays open until this one is read: if it cannot be, that one is still open.
   * info.trace numbers the new trace (for requestFor and OpenedTrace).
   */
  async open(blob, { onProgress, whole = false } = {}) {
    // Said as such: the reader's word for it (as Go's) is "not a Go execution trace?".
    if (blob.size === 0) throw new Error('the file is empty (0 bytes)');
    const info = await this.#request('open', [blob, { whole }], onProgress);
    this.#traceId = info.trace;
    return info;
  }

  /**
   * Of a trace opened in parts (info.parts), opens generations [first, last] in place of
   * the part open (closed first), as a new trace (info.trace); if it cannot be, no trace
   * is open.
   */
  async openPart(first, last, { onProgress } = {}) {
    try {
      const info = await this.#request('openPart', [first, last], onProgress);
      this.#traceId = info.trace;
      return info;
    } catch (e) {
      this.#traceId = null;
      throw e;
    }
  }

  /** Starts the worker and has it compile the WebAssembly core ahead of the first open
   *  (not a request: nothing waits on it, and it does not make the client busy). */
  warm() {
    // The part limits a page sets before it starts (tests: a reload keeps them).
    const limits = { partBytes: window.gotracePartBytes, partEvents: window.gotracePartEvents };
    this.#ensure().postMessage({ id: 0, method: 'warm', args: [limits] });
  }

  /** Several timeline() queries in one round trip: requests are [track, t0, t1, pixels]. */
  timelines(requests) {
    return this.#request('timelines', [requests]);
  }

  /** Stops whatever is in flight; its promises reject with CancelledError. The open
   *  trace is lost too (the worker is replaced). */
  cancel() {
    this.#fail(new CancelledError());
  }

  /** Frees the worker. */
  dispose() {
    this.#fail(new CancelledError());
  }

  get busy() {
    return this.#pending.size > 0;
  }
}
