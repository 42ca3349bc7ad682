// Reading one generation of a v2 trace: its batches grouped by thread, its string,
// stack and CPU-sample tables, its frequency (and, from Go 1.25, its clock snapshot).
// Strings and stacks are interned into the store as they are read.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "gotrace/error.h"
#include "gotrace/event_store.h"
#include "byte_window.h"
#include "go_numbers.h"
#include "local_ids.h"

namespace gotrace::v2 {

struct Batch {
  ThreadID m = kNoThread;
  uint64_t gen = 0;
  uint64_t time = 0;             // raw trace-clock timestamp of the batch header
  const uint8_t* data = nullptr;  // payload
  uint32_t size = 0;
  uint64_t offset = 0;       // file offset of the batch header
  uint64_t data_offset = 0;  // file offset of the payload
  uint8_t experiment = 0;
};

struct CpuSample {
  Context ctx;
  Time time = 0;         // raw timestamp until the generation is complete, then ns
  uint64_t stack = 0;    // generation-local stack id
  uint64_t offset = 0;   // file offset of the sample
};

// All batches of one thread, in file order.
struct ThreadBatches {
  ThreadID m = kNoThread;
  std::vector<Batch> batches;
};

struct Generation {
  uint64_t number = 0;
  double ns_per_tick = 0;  // 0 until the frequency is seen, as in Go
  uint64_t frequency = 0;
  std::vector<ThreadBatches> threads;  // in order of each thread's first batch
  std::vector<CpuSample> cpu_samples;  // sorted by time
  LocalIds strings;                    // wire string id -> StringID
  LocalIds stacks;                     // wire stack id -> StackID
  std::optional<ClockSnapshot> clock;
  std::vector<ExperimentalBatch> experimental;
  uint64_t file_offset = 0, file_end = 0;
  uint32_t batch_count = 0;
  // Go's generation.minTs: the earliest batch time (raw), where a batch time of 0
  // counts as none.
  uint64_t min_ts = 0;
  void see_batch_time(uint64_t t) {
    if (min_ts == 0 || t < min_ts) min_ts = t;
  }

  // Go's frequency.mul: float64(t) * nsPerTick, truncated.
  Time ns(uint64_t ticks) const {
    // With a whole number of ns per tick (64 for Go's usual 15.625 MHz clock) the
    // double product is exact below exact_ticks, so integer arithmetic gives Go's result.
    if (ticks < exact_ticks) return static_cast<Time>(ticks * whole_ns_per_tick);
    return go_float_to_int64(static_cast<double>(ticks) * ns_per_tick);
  }
  void set_frequency(uint64_t f) {
    frequency = f;
    ns_per_tick = 1.0 / (static_cast<double>(f) / 1e9);
    whole_ns_per_tick = 0;
    exact_ticks = 0;
    if (ns_per_tick >= 1 && ns_per_tick < 1e9 && ns_per_tick == static_cast<double>(static_cast<uint64_t>(ns_per_tick))) {
      whole_ns_per_tick = static_cast<uint64_t>(ns_per_tick);
      exact_ticks = (uint64_t{1} << 53) / whole_ns_per_tick;
    }
  }
  uint64_t whole_ns_per_tick = 0;
  uint64_t exact_ticks = 0;
};

// Reads generations one after another from the bytes after the header.
class GenerationReader {
 public:
  GenerationReader(ByteWindow& file, uint64_t start, int go_minor, EventStore& store);

  // The next generation, or nullptr at the end of the trace. Throws TraceError when
  // the generation cannot be read. A read error found after the generation's
  // batches (in the next one) is returned in `deferred`: the generation is valid and
  // its events come first. Its batches' bytes stay in the window until the next call.
  std::unique_ptr<Generation> next(std::optional<TraceError>& deferred);

  uint64_t offset() const { return pos_; }
  uint64_t size() const { return file_.size(); }

 private:
  // Reads a batch header and payload at pos_; returns false at end of file.
  bool read_batch(Batch& b);
  void process_batch(Generation& g, const Batch& b);
  void add_strings(Generation& g, const Batch& b);
  void add_stacks(Generation& g, const Batch& b);
  void add_cpu_samples(Generation& g, const Batch& b);
  void parse_frequency(Generation& g, const Batch& b);
  void parse_sync(Generation& g, const Batch& b);
  void finish(Generation& g);
  std::unique_ptr<Generation> next_delimited_by_number(std::optional<TraceError>& deferred);
  std::unique_ptr<Generation> next_with_end_marker();

  // Points the batches kept (the generation's and the one spilled after it) at their
  // bytes where the window holds them now.
  void place_batches(Generation& g);

  ByteWindow& file_;
  uint64_t pos_;  // a file offset: a trace read from a source may pass 4 GiB in WebAssembly
  int go_minor_;
  EventStore& store_;
  std::optional<Batch> spill_;
  bool started_ = false;

  // Per-generation scratch for stacks, resolved once the generation's strings are known.
  struct PendingFrame {
    uint64_t func = 0, file = 0, line = 0;
  };
  struct PendingStack {
    uint64_t id;
    uint32_t first_pc, npcs;
  };
  std::vector<uint64_t> stack_pcs_;
  std::vector<PendingStack> pending_stacks_;
  FlatMap<PendingFrame> pcs_;  // first frame seen for each pc wins, as in Go
};

}  // namespace gotrace::v2
