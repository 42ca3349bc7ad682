// A traced thread: the trace's M. Each has a write flag, one batch per generation in
// flight, its view of what it runs as the events written so far say, and caches that
// keep the fast path off shared data. Only the thread itself writes here, except the
// advancer, which takes a finished generation's batch once the write flag is clear.
#pragma once

#include <atomic>
#include <cstdint>
#include <ctime>
#include <mutex>
#include <signal.h>
#include <string>

#include "batch.h"
#include "goroutine_table.h"
#include "gotrace/tracer/scheduler.h"
#include "proc_table.h"

namespace gotrace::tracer::detail {

struct CpuRing;

// Per-thread caches of one generation's string and stack ids. An entry is used only in
// the generation it was filled in, so stale entries are never looked at.
struct StringCacheEntry {
  uint64_t gen = 0;
  const char* data = nullptr;  // the caller's pointer (string literals come back the same)
  size_t size = 0;
  uint64_t id = 0;
  const std::string* stored = nullptr;  // the table's copy, alive while `gen` is recorded
};
struct LabelCacheEntry {
  const char* name = nullptr;           // the caller's pointer
  const std::string* stored = nullptr;  // the registry's copy, for the content check
  uint64_t pc = 0;
};
struct StackCacheEntry {
  uint64_t gen = 0;
  uint64_t hash = 0;
  uint64_t id = 0;
  uint32_t frames = 0;
};

struct ThreadState {
  // The write flag (Go's mTraceState.seqlock): odd while this thread writes trace data.
  // The advancer waits for it to be even before taking a finished generation's batch.
  alignas(64) std::atomic<uint64_t> seqlock{0};
  Batch* buf[2] = {};      // the batch being filled, by generation % 2
  uint64_t session = 0;    // the trace the fields below belong to
  uint64_t id = 0;         // the OS thread id: the trace's M id

  // What the reader will think this thread holds after the events written so far.
  ProcNode* view_p = nullptr;
  GoroutineNode* view_g = nullptr;
  // The binding, generation and view when the view was last brought in line with the
  // binding: while all stay the same, it needs nothing (the fast path of sync_context).
  // Events that change the view themselves (a block, an end) thereby void it.
  struct {
    uint64_t gen = 0;
    const void* proc = nullptr;
    const void* g = nullptr;
    const ProcNode* view_p = nullptr;
    const GoroutineNode* view_g = nullptr;
    uint8_t in_syscall = 0;
  } synced;

  uint64_t dropped[2] = {};  // events dropped, by generation % 2 (the generation is lost)
  NodeCache node_cache;
  uint64_t goid_next = 0, goid_end = 0;  // a block of goroutine ids (Go's goidcache)
  StringCacheEntry strings[64];
  StackCacheEntry stacks[256];
  LabelCacheEntry labels[16];
  // The last start stack (a goroutine's one-frame stack) looked up, by its PC: programs
  // create many goroutines of one kind in a row.
  struct {
    uint64_t gen = 0;
    uint64_t pc = 0;
    uint64_t id = 0;
  } last_start_stack;
  uintptr_t stack_lo = 0, stack_hi = 0;  // this thread's stack, bounds for unwinding

  // A plain thread's own goroutine and proc (threads.h).
  Goroutine own_g;
  Proc own_p;
  std::string name;

  // CPU profiling: the samples the signal handler takes on this thread, and the ids it
  // reports them under (plain words the handler can read at any moment).
  std::atomic<CpuRing*> cpu{nullptr};  // set by the thread, read by the advancer
  timer_t cpu_timer{};
  bool has_cpu_timer = false;
  std::atomic<int64_t> sample_p{-1};
  std::atomic<uint64_t> sample_g{0};

  ThreadState* next = nullptr;  // in the registry
};

// Every thread that has written trace data and not exited. The advancer walks it with the
// lock held; a thread takes the lock only to join or leave.
class ThreadRegistry {
 public:
  std::mutex& mutex() { return mu_; }
  ThreadState* head() const { return head_; }  // with mutex() held
  void add(ThreadState* m);
  void remove(ThreadState* m);

 private:
  std::mutex mu_;
  ThreadState* head_ = nullptr;
};

// The calling thread's state, registering it on first use; nullptr once it is exiting.
ThreadState* current_thread();

extern constinit thread_local ThreadState* t_thread;

}  // namespace gotrace::tracer::detail
