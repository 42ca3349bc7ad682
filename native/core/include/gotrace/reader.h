// Reading a whole trace into an EventStore: the entry point of the core.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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

struct ReadOptions {
  // Called after each generation (v2) or phase (v1). Returning false cancels the read,
  // which then ends with a "canceled" error.
  std::function<bool(const ReadProgress&)> on_progress;
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

// read_trace while the bytes arrive, in order (a file read in chunks): `buffer` is the
// whole file's memory, filled from the start. arrived(n) says that its first n bytes are
// there and reads the generations of a v2 trace that lie whole in them (a v1 trace is
// read at the end); finish(), once every byte is there, reads the rest. The result is
// read_trace's over the same bytes; the work done before finish() is work the reading
// of the file leaves time for. Never throws for bad input.
class TraceReading {
 public:
  explicit TraceReading(std::span<const uint8_t> buffer, ReadOptions options = {});
  TraceReading(const TraceReading&) = delete;
  TraceReading& operator=(const TraceReading&) = delete;
  ~TraceReading();

  void arrived(size_t bytes);
  ReadResult finish();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace gotrace
