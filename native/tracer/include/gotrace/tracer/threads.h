// Plain threads: a thread that is not a scheduler worker is one goroutine on a proc of its
// own, created the first time it is traced. RAII scopes mark where it blocks (mutex,
// condition variable, I/O, sleep) or sits in a system call; each costs one predictable
// branch at each end while tracing is off.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string_view>
#include <thread>

#include "gotrace/tracer/scheduler.h"

namespace gotrace::tracer {

namespace detail {
struct ScopeToken {
  uint64_t session = 0;  // the trace the scope began in; 0: nothing was recorded
  Goroutine* g = nullptr;
};
ScopeToken block_begin(BlockReason r);
void block_end(const ScopeToken& t);
ScopeToken syscall_begin();
void syscall_end(const ScopeToken& t);
void become_worker();
}  // namespace detail

// Names this thread's goroutine (shown as its start function). Call it before the thread
// is first traced; the default is the thread's OS name.
void set_thread_name(std::string_view name);

// Marks the calling thread a scheduler worker for its lifetime: it is not a goroutine
// itself but runs goroutines on procs (see scheduler.h).
class WorkerThread {
 public:
  WorkerThread() {
    detail::t_binding.role = detail::Role::Worker;
    if (detail::enabled()) detail::become_worker();
  }
  ~WorkerThread() { detail::t_binding.role = detail::Role::Plain; }
  WorkerThread(const WorkerThread&) = delete;
  WorkerThread& operator=(const WorkerThread&) = delete;
};

// The goroutine running on this thread (the thread's own, or a worker's current one) is
// blocked for the scope's lifetime.
class BlockScope {
 public:
  [[gnu::always_inline]] explicit BlockScope(BlockReason r) {
    if (detail::enabled()) token_ = detail::block_begin(r);
  }
  [[gnu::always_inline]] ~BlockScope() {
    if (token_.session) detail::block_end(token_);
  }
  BlockScope(const BlockScope&) = delete;
  BlockScope& operator=(const BlockScope&) = delete;

 private:
  detail::ScopeToken token_;
};

// The goroutine running on this thread is in a system call for the scope's lifetime.
class SyscallScope {
 public:
  [[gnu::always_inline]] SyscallScope() {
    if (detail::enabled()) token_ = detail::syscall_begin();
  }
  [[gnu::always_inline]] ~SyscallScope() {
    if (token_.session) detail::syscall_end(token_);
  }
  SyscallScope(const SyscallScope&) = delete;
  SyscallScope& operator=(const SyscallScope&) = delete;

 private:
  detail::ScopeToken token_;
};

// Locks `m`, recording a block (reason "sync") only when the lock is contended.
template <class Mutex>
void lock(Mutex& m) {
  if (m.try_lock()) return;
  BlockScope s(BlockReason::Sync);
  m.lock();
}

// A std::unique_lock whose contended acquisitions are traced.
template <class Mutex>
std::unique_lock<Mutex> unique_lock(Mutex& m) {
  lock(m);
  return std::unique_lock<Mutex>(m, std::adopt_lock);
}

// Waits on `cv`, traced as a block with reason "sync.(*Cond).Wait".
template <class Lock, class Predicate>
void wait(std::condition_variable& cv, Lock& lock, Predicate pred) {
  if (pred()) return;
  BlockScope s(BlockReason::CondWait);
  cv.wait(lock, pred);
}

// Sleeps, traced as a block with reason "sleep".
template <class Rep, class Period>
void sleep_for(std::chrono::duration<Rep, Period> d) {
  BlockScope s(BlockReason::Sleep);
  std::this_thread::sleep_for(d);
}

}  // namespace gotrace::tracer
