// One opened trace, as the views see it (their `trace` prop): the client's API bound to
// that trace. The client (one worker) outlives the traces opened in it, so each open
// makes a new OpenedTrace: what views keep per `trace` (WeakMaps of answers, the track
// list) is then kept per trace, and a trace opened next starts with nothing kept. Once
// another trace is open, a call through this one rejects with CancelledError (the worker
// checks too) rather than be answered by the other trace.
import { TRACE_METHODS } from './client.js';

export class OpenedTrace {
  #client;
  #id;
  /** Where the times the views show count from (ns): the trace's start; for a part of a
   *  trace opened in parts (info.parts), the whole trace's start, as the part bar shows. */
  origin;
  /** Whether this is a part of a trace opened in parts (its views show the part; a
   *  goroutine's page asks for the goroutine's whole life). */
  inParts;

  /** `info` is what client.open() returned for this trace. */
  constructor(client, info) {
    this.#client = client;
    this.#id = info.trace;
    this.origin = info.parts ? info.parts.generations[0].start : info.stats.time.start;
    this.inParts = Boolean(info.parts);
    for (const m of TRACE_METHODS) this[m] = (...args) => this.call(m, ...args);
  }

  /** Whether this trace is still the one open in the worker. */
  get current() {
    return this.#client.traceId === this.#id;
  }

  call(method, ...args) {
    return this.#client.requestFor(this.#id, method, args);
  }

  /** As call(), abandoned when `signal` aborts (client.callWithSignal). */
  callWithSignal(signal, method, ...args) {
    return this.#client.requestFor(this.#id, method, args, signal);
  }

  /** Several timeline() queries in one round trip: requests are [track, t0, t1, pixels].
   *  `whole`: of a part of a trace opened in parts and read, the whole trace's around it. */
  timelines(requests, whole = false) {
    return this.#client.requestFor(this.#id, 'timelines', [requests, whole]);
  }
}
