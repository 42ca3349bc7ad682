// The tracer's process-wide state: the generation counter, the tables of the two
// generations in flight, and the parts that work on them. One instance, never destroyed
// (threads may still touch it while the process exits).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "batch_list.h"
#include "batch_pool.h"
#include "cpu_profiler.h"
#include "goroutine_table.h"
#include "gotrace/tracer/tracer.h"
#include "labels.h"
#include "output.h"
#include "proc_table.h"
#include "stack_table.h"
#include "string_table.h"
#include "symbolizer.h"
#include "thread_state.h"

namespace gotrace::tracer::detail {

struct Runtime {
  Runtime();

  // Go's trace.gen: the generation being recorded; 0 while tracing is off. Threads read
  // it under their write flag; only the advancer (holding `control`) changes it.
  std::atomic<uint64_t> gen{0};
  // The first generation of the current (or last) trace, which identifies the trace.
  std::atomic<uint64_t> session{0};
  Options options;  // the current trace's; fixed while it runs

  // Held through start() and stop(), so one cannot begin while the other finishes.
  std::mutex lifecycle;
  // Serializes generation changes (the advancer, advance(), flight recordings) with the
  // start and stop steps.
  std::mutex control;
  uint64_t last_gen = 0;  // under `control`

  BatchPool pool;
  GoroutineTable goroutines;
  ProcTable procs;
  ThreadRegistry threads;
  LabelRegistry labels;
  Symbolizer symbolizer{labels};
  CpuProfiler cpu;
  Output output;

  // The two generations in flight, by gen % 2.
  StringTable strings[2];
  StackTable stacks[2];
  BatchList full[2] = {BatchList(pool), BatchList(pool)};
  std::atomic<bool> lossy[2] = {};
  Batch* cpu_batch[2] = {};                       // CPU samples, under `control`
  std::atomic<uint64_t> exited_dropped[2] = {};  // dropped events of threads that exited

  std::atomic<uint64_t> next_goid{1};
  std::atomic<uint64_t> next_task{1};
  // The first task id of the trace on (ids keep counting across traces): a task begun in
  // an earlier trace ends unrecorded, as its regions do.
  std::atomic<uint64_t> first_task{1};
  std::atomic<uint64_t> misuse{0};
  std::atomic<uint64_t> cpu_lost{0};

  ClockSnapshot clock;  // under `control`
  Stats last_stats;     // of the last trace, under `control`

  // The advancer thread.
  std::thread advancer;
  std::condition_variable advancer_cv;
  bool advancer_stop = false;  // under `control`
};

// The instance: created by the first start() (nothing reaches the tracer's slow paths
// before that), never destroyed.
extern Runtime* g_runtime;
inline Runtime& rt() { return *g_runtime; }
Runtime& init_runtime();

// A batch for one of a generation's tables (strings, stacks, CPU samples, frequency,
// statuses), written by no thread (or, for statuses, in the name of `thread`), beginning
// with `marker` (0: none), of `capacity` bytes. nullptr when the memory limit is reached:
// the generation is then marked lossy.
Batch* new_table_batch(uint64_t gen, uint8_t marker, uint64_t thread = kNoThread, uint32_t capacity = kBatchCapacity);

// Notes that `gen` lost data: nothing of it will be written.
void mark_lossy(uint64_t gen);

}  // namespace gotrace::tracer::detail
