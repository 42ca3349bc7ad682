// gotrace: read Go execution traces in JavaScript — the gotrace C++ core compiled to
// WebAssembly. Works in browsers (page or Worker) and in Node >= 18.
import createGotraceCore from './gotrace-core.mjs';

let corePromise = null;

const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;

async function instantiate() {
  const options = {};
  if (isNode) {
    // Node has no fetch of file: URLs: hand the module its bytes.
    const fsName = 'node:fs/promises';
    const fs = await import(/* @vite-ignore */ fsName);
    options.wasmBinary = await fs.readFile(new URL('./gotrace-core.wasm', import.meta.url));
  }
  return createGotraceCore(options);
}

/** Loads the WebAssembly core once (openTrace does this for you). */
export function loadCore() {
  if (!corePromise) corePromise = instantiate();
  return corePromise;
}

const KINDS = [
  'Bad', 'Sync', 'Metric', 'Label', 'StackSample', 'RangeBegin', 'RangeActive', 'RangeEnd',
  'TaskBegin', 'TaskEnd', 'RegionBegin', 'RegionEnd', 'Log', 'StateTransition', 'Experimental',
];

/** The event kinds of Go's trace model, indexed as in `events().kind`. */
export const eventKinds = Object.freeze([...KINDS]);

function unwrap(result) {
  if (result !== null && typeof result === 'object' && typeof result.error === 'string') {
    throw new Error(result.error);
  }
  return result;
}

function toBytes(input) {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError('openTrace expects a Uint8Array or an ArrayBuffer');
}

export class Trace {
  #core;
  #handle;
  /** The error that stopped reading early ("" when the whole trace was read). */
  partialError;

  constructor(core, handle) {
    this.#core = core;
    this.#handle = handle;
    this.partialError = handle.error();
  }

  #live() {
    if (!this.#handle) throw new Error('this trace has been disposed');
    return this.#handle;
  }

  /** Format, size, generations, events by kind, goroutines, procs, threads, time span
   *  (the object `gotrace stats --json` prints). */
  stats() {
    return JSON.parse(unwrap(this.#live().stats()));
  }

  /** The number of events read. */
  get eventCount() {
    return this.#live().eventCount();
  }

  /**
   * A page of events, in order: at most `limit` events with index >= `from`, optionally
   * only those of one goroutine, proc or thread, or of some kinds. Columns are typed
   * arrays; `text` holds each event as Go's Event.String() prints it. Continue with
   * `from: page.next`.
   */
  events({ from = 0, limit = 1000, filter = {} } = {}) {
    const any = -2;
    let mask = 0;
    for (const k of filter.kinds ?? []) {
      const i = KINDS.indexOf(k);
      if (i < 0) throw new Error(`unknown event kind ${k}`);
      mask |= 1 << i;
    }
    return unwrap(this.#live().events(from, limit, filter.goroutine ?? any, filter.proc ?? any,
      filter.thread ?? any, mask));
  }

  /** Frees the trace's memory in the WebAssembly module. */
  dispose() {
    if (this.#handle) {
      this.#handle.delete();
      this.#handle = null;
    }
  }
}

/**
 * Reads a Go execution trace (any format from Go 1.5 to Go 1.26). The bytes are copied
 * into WebAssembly memory once. Rejects with an Error naming what is wrong and where
 * (byte offset, generation, event). With `allowPartial`, a trace that breaks off after
 * some events resolves instead, with the reason in `trace.partialError`.
 */
export async function openTrace(input, { onProgress, allowPartial = false } = {}) {
  const bytes = toBytes(input);
  const core = await loadCore();
  let address;
  try {
    address = core._malloc(Math.max(bytes.length, 1));
  } catch (e) {
    throw new Error(`out of memory: cannot hold a ${bytes.length}-byte trace`);
  }
  if (!address) throw new Error(`out of memory: cannot hold a ${bytes.length}-byte trace`);
  core.HEAPU8.set(bytes, address);
  const progress = onProgress
    ? (done, total, events) => onProgress({ bytesDone: done, bytesTotal: total, events }) !== false
    : undefined;
  // The handle takes ownership of the copy and frees it once read.
  const handle = new core.WasmTrace(address, bytes.length, progress);
  const failed = handle.error() !== '' && (!allowPartial || !handle.usable() || handle.eventCount() === 0);
  if (failed) {
    const message = handle.error();
    handle.delete();
    throw new Error(message);
  }
  return new Trace(core, handle);
}
