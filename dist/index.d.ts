// Types of the gotrace npm package.

export interface ReadProgress {
  bytesDone: number;
  bytesTotal: number;
  events: number;
}

export interface OpenOptions {
  /** Called as the reader finishes each part of the trace; return false to cancel. */
  onProgress?: (p: ReadProgress) => boolean | void;
  /** Resolve with the events read so far when the trace breaks off (see Trace.partialError). */
  allowPartial?: boolean;
}

export type EventKind =
  | 'Bad' | 'Sync' | 'Metric' | 'Label' | 'StackSample' | 'RangeBegin' | 'RangeActive' | 'RangeEnd'
  | 'TaskBegin' | 'TaskEnd' | 'RegionBegin' | 'RegionEnd' | 'Log' | 'StateTransition' | 'Experimental';

export declare const eventKinds: readonly EventKind[];

export interface TraceStats {
  format: { go_version: string; family: 'v1' | 'v2' };
  bytes: number;
  bytes_used: number;
  generations: number;
  events: number;
  events_by_kind: Partial<Record<EventKind, number>>;
  events_by_type: Record<string, number>;
  goroutines: number;
  procs: number;
  threads: number;
  gcs: number;
  stacks: number;
  strings: number;
  time: { start: number; end: number; duration: number };
  error: string | null;
}

export interface EventFilter {
  goroutine?: number;
  proc?: number;
  thread?: number;
  kinds?: EventKind[];
}

export interface EventPage {
  index: Float64Array;
  time: Float64Array;
  goroutine: Float64Array;
  proc: Float64Array;
  thread: Float64Array;
  /** Indexes into eventKinds. */
  kind: Uint8Array;
  /** Each event as Go's Event.String() prints it. */
  text: string[];
  /** Where the next page starts. */
  next: number;
}

export declare class Trace {
  /** Why reading stopped early ("" when the whole trace was read). */
  readonly partialError: string;
  readonly eventCount: number;
  stats(): TraceStats;
  events(options?: { from?: number; limit?: number; filter?: EventFilter }): EventPage;
  dispose(): void;
}

export declare function loadCore(): Promise<unknown>;
export declare function openTrace(bytes: Uint8Array | ArrayBuffer, options?: OpenOptions): Promise<Trace>;
