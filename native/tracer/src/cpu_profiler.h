// CPU samples (Go's tracecpu.go): a per-thread CPU-time timer sends SIGPROF; the handler,
// which may only do async-signal-safe things, records the interrupted stack into a ring
// owned by its thread; the advancer moves the samples into the trace's CPU-sample batches.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace gotrace::tracer::detail {

struct ThreadState;

inline constexpr int kCpuSampleFrames = 64;

struct CpuSample {
  uint64_t gen = 0;    // the generation the thread was in
  int64_t time = 0;    // trace clock
  uint64_t m = 0;
  int64_t p = -1;
  uint64_t g = 0;
  uint32_t frames = 0;
  uint64_t pcs[kCpuSampleFrames];  // the interrupted PC first, then call sites
};

// One producer (the thread's signal handler), one consumer (the advancer).
struct CpuRing {
  static constexpr uint32_t kSlots = 64;
  std::atomic<uint32_t> head{0};  // next slot to write
  std::atomic<uint32_t> tail{0};  // next slot to read
  std::atomic<uint64_t> lost{0};  // samples that found the ring full
  CpuSample slots[kSlots];
};

class CpuProfiler {
 public:
  // A trace begins with `hz` samples per CPU-second per thread (0: none).
  void begin(int hz);
  // The calling thread joins the current trace: its ring and timer.
  void attach(ThreadState* m);
  // Stops `m`'s timer (from any thread, with the thread registry locked).
  void detach(ThreadState* m);
  // The calling thread exits (with the thread registry locked): timer off, its pending
  // samples kept for the advancer, ring freed.
  void release(ThreadState* m);
  // Moves the samples of generations <= gen out of `m`'s ring; adds the lost count.
  void drain(ThreadState* m, uint64_t gen, std::vector<CpuSample>& out, uint64_t& lost);
  // The same for the samples of threads that exited.
  void drain_exited(uint64_t gen, std::vector<CpuSample>& out, uint64_t& lost);
  int hz() const { return hz_; }

 private:
  int hz_ = 0;
  std::mutex exited_mu_;
  std::vector<CpuSample> exited_;
};

}  // namespace gotrace::tracer::detail
