// Per-goroutine and per-proc tracing state (Go's traceSchedResourceState): whether the
// resource's status was written in a generation, and its sequence counter there.
#pragma once

#include <atomic>
#include <cstdint>

namespace gotrace::tracer::detail {

struct SchedResourceState {
  // Slots by gen % 4: the advancer must still see whether the status was written for the
  // generation it is finishing while the next one's slot is being cleared, which three
  // slots would do, but the index of four is a mask where three's is a division (a `div`
  // on the path of every GoStart, where the compiler does not make it a multiplication).
  std::atomic<uint32_t> status_traced[4] = {};
  // Two slots (by gen % 2): reset at each generation, so a status event or a creation
  // implies 0 and each later event carries the next number (FORMAT.md §2.9).
  std::atomic<uint64_t> seq[2] = {};

  // Claims the right to write the resource's status in `gen`; false if already written.
  bool acquire_status(uint64_t gen) {
    uint32_t zero = 0;
    if (!status_traced[gen % 4].compare_exchange_strong(zero, 1)) return false;
    ready_next_gen(gen);
    return true;
  }
  // Prepares the slots of the generation after `gen`.
  void ready_next_gen(uint64_t gen) {
    seq[(gen + 1) % 2].store(0, std::memory_order_relaxed);
    status_traced[(gen + 1) % 4].store(0, std::memory_order_relaxed);
  }
  bool status_was_traced(uint64_t gen) const {
    return status_traced[gen % 4].load(std::memory_order_acquire) != 0;
  }
  // For a resource created in `gen`: its creation event stands for its status.
  void set_status_traced(uint64_t gen) { status_traced[gen % 4].store(1, std::memory_order_release); }
  // Only the resource's owner calls this, so a load and a store suffice.
  uint64_t next_seq(uint64_t gen) {
    uint64_t v = seq[gen % 2].load(std::memory_order_relaxed) + 1;
    seq[gen % 2].store(v, std::memory_order_relaxed);
    return v;
  }
  void reset() {
    for (auto& s : status_traced) s.store(0, std::memory_order_relaxed);
    for (auto& s : seq) s.store(0, std::memory_order_relaxed);
  }
};

}  // namespace gotrace::tracer::detail
