// The reader side (Go's ReadTrace): finished generations, in order, to the sink, from a
// thread of its own so a slow sink never stalls the traced program; and the flight
// recorder's ring of the last generations.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <thread>

#include "batch.h"
#include "gotrace/tracer/tracer.h"

namespace gotrace::tracer::detail {

class BatchPool;

// One finished generation: its batches, ready to write as they are.
struct Generation {
  Generation(BatchPool& pool) : pool_(pool) {}
  ~Generation();
  Generation(const Generation&) = delete;
  Generation& operator=(const Generation&) = delete;

  uint64_t number = 0;
  Batch* batches = nullptr;     // a list, in write order
  uint64_t events = 0;          // timed events and CPU samples in `batches`
  uint64_t cpu_samples = 0;
  uint64_t dropped_events = 0;  // events that did not fit (then `lossy`)
  uint64_t bytes = 0;
  bool lossy = false;           // some data was dropped: it cannot be written
  // Events Go's reader orders (CPU samples are not): a trace's first generation needs one,
  // or Go 1.27's validator finds the procs of the next "undetermined after the first sync".
  bool has_ordered_events() const { return events > cpu_samples; }

 private:
  BatchPool& pool_;
};
using GenerationPtr = std::shared_ptr<const Generation>;

// The 16-byte header of every trace (FORMAT.md §1).
inline constexpr char kTraceHeader123[16] = {'g', 'o', ' ', '1', '.', '2', '3', ' ', 't', 'r', 'a', 'c', 'e', 0, 0, 0};
inline constexpr char kTraceHeader126[16] = {'g', 'o', ' ', '1', '.', '2', '6', ' ', 't', 'r', 'a', 'c', 'e', 0, 0, 0};

class Output {
 public:
  void begin(std::unique_ptr<Sink> sink, Format format, size_t flight_generations, size_t flight_bytes);
  // The next finished generation (called in generation order).
  void push(GenerationPtr g);
  // Every generation is pushed: waits until the sink has them all, then stops.
  void end();
  void add_stats(Stats& s) const;
  FlightRecording write_flight(Sink& sink);

 private:
  void run();
  void write(const Generation& g);
  void sink_failed(const Generation& g);
  void drop(const Generation& g);
  void drop_locked(const Generation& g);
  std::span<const uint8_t> header() const;
  // After each generation's batches, Go 1.26's format has one byte at top level.
  std::span<const uint8_t> end_of_generation() const;

  std::unique_ptr<Sink> sink_;
  Format format_ = Format::go1_26;
  std::thread thread_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<GenerationPtr> queue_;
  bool ending_ = false;

  // Owned by the output thread while it runs.
  bool header_written_ = false;
  bool gap_ = false;       // a generation was dropped since the last one written
  bool ended_ = false;     // the stream can take nothing more
  // The last generation without events held back at the start of a trace: written only
  // if the trace ends before one has events.
  GenerationPtr leading_empty_;

  // The flight recorder, under mu_.
  size_t flight_generations_ = 0;
  size_t flight_bytes_limit_ = 0;
  size_t flight_bytes_ = 0;
  std::deque<GenerationPtr> flight_;

  Stats stats_;  // under mu_
};

}  // namespace gotrace::tracer::detail
