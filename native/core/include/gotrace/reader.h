// Reading a whole trace into an EventStore: the entry point of the core.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>

#include "gotrace/error.h"
#include "gotrace/event_store.h"

namespace gotrace {

struct ReadProgress {
  uint64_t bytes_done = 0;
  uint64_t bytes_total = 0;
  uint64_t events = 0;
};

// Where the Sync events of the stream fall, and so, through Go's timestamp fix-up,
// the times of the events next to them.
enum class SyncPlacement {
  // Go 1.23: one after each generation, at its last time + 1; none in an old-format trace.
  Go123,
  // Go 1.27 (since Go 1.25): one at the start of each generation, at its earliest
  // time, and a final one; for an old-format trace one at the first time - 1 and one
  // at the last time + 1. What `gotrace dump` lists.
  Go127,
};

struct ReadOptions {
  // Go 1.27's by default, as the Go people run today reads traces; the analyses follow
  // the placement (Go 1.23's rules with Go 1.23's Syncs, for Go 1.23's references).
  SyncPlacement syncs = SyncPlacement::Go127;
  // Called after each generation (v2) or phase (v1). Returning false cancels the read,
  // which then ends with a "canceled" error.
  std::function<bool(const ReadProgress&)> on_progress;
  // Called after each generation of a Go 1.22+ trace with the store as it is: a reader
  // that streams looks at the generation's new events and releases them
  // (EventStore::release_before), so that memory does not grow with the trace. The
  // events after the last call (a final Sync; all of an older trace's) are in the store
  // when read_trace returns. Returning false cancels, as on_progress.
  std::function<bool(EventStore&)> on_generation;
  // Keep, for each generation of a Go 1.22+ trace, what reading needs to begin there
  // (GenerationInfo::resume): so that read_generations can read any of them again.
  bool resume_points = false;
};

// How much work ordering took: a hostile trace must not make it grow faster than
// the number of events (the hardening tests check this).
struct ReadWork {
  uint64_t advance_attempts = 0;  // events offered to the ordering engine
  uint64_t parked = 0;            // of which had to wait for another thread's event
};

struct ReadResult {
  EventStore store;                 // every event read before the error, if any
  std::optional<TraceError> error;  // why reading stopped early
  ReadWork work;
  bool ok() const { return !error.has_value(); }
};

// The 16-byte header: "go 1.N trace" padded with NULs.
struct TraceHeader {
  int go_minor = 0;
};

// Parses the header; throws TraceError ("bad file format: not a Go execution trace?" or
// "unknown or unsupported trace version go 1.N").
TraceHeader parse_header(std::span<const uint8_t> bytes);

// Reads, orders and validates a trace. Never throws for bad input: the events read up
// to a problem are kept and the problem is in `error`.
ReadResult read_trace(std::span<const uint8_t> bytes, const ReadOptions& options = {});
// The same into `result` (fresh), whose store stays where it is: for on_generation
// callbacks whose consumers keep a reference to it.
void read_trace_into(std::span<const uint8_t> bytes, ReadResult& result, const ReadOptions& options = {});

// A trace read from elsewhere a piece at a time (a file; a Blob in a browser): `read`
// copies the `n` bytes at `offset` into `out` and says whether it could. A Go 1.22+ trace
// read from one holds about a generation of its bytes at a time; an older trace (one
// generation) is read whole. A failed read ends the read with an error naming where.
struct TraceSource {
  uint64_t size = 0;
  std::function<bool(uint64_t offset, size_t n, uint8_t* out)> read;
  // Each read asks for at least this much (fewer, larger reads; in a browser each costs
  // a copy of its own), up to the trace's end.
  size_t read_ahead = 8 << 20;
};
void read_trace_into(const TraceSource& source, ReadResult& result, const ReadOptions& options = {});

// Reads generations [first, last] (indices into whole.generations) of a Go 1.22+ trace
// again, from the bytes `whole` was read from with options.resume_points, into `result`
// (fresh): the events are those the whole read had there, in the same order, with the
// same times, states, strings and stacks (result's tables begin as copies of whole's, so
// their ids are whole's too), but that the first status of each goroutine and proc alive
// before `first` reads from Undetermined, as in a trace's first generation (so analyses
// of the run begin their states where it begins); its generations are those read, and
// its Syncs are numbered as the whole read's.
// Only those generations' bytes (and the header) are read. Reading never throws: a
// problem (generations that were not kept, bytes that changed) is in result.error.
void read_generations(std::span<const uint8_t> bytes, const EventStore& whole, size_t first, size_t last, ReadResult& result,
                      const ReadOptions& options = {});
void read_generations(const TraceSource& source, const EventStore& whole, size_t first, size_t last, ReadResult& result,
                      const ReadOptions& options = {});

// The generations goroutine `id`, seen in generations [first, last], lives in: back to the
// one it began in (was created in, or the trace's first) and on to the one it ended in
// (or the trace's last), as the resume points of `whole` (read with
// options.resume_points) say which goroutines were alive as each generation began.
struct GenerationRun {
  size_t first = 0, last = 0;
};
GenerationRun generations_of_goroutine(const EventStore& whole, GoID id, size_t first, size_t last);

}  // namespace gotrace
