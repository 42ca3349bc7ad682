// Scheduler integration: a program's tasks are goroutines, its worker threads run them on
// procs. The scheduler reports each transition as it happens, exactly where Go's runtime
// calls its tracer: create, start, stop (yield), block with a reason, unblock, system
// call enter and exit, end. Every function costs one predictable branch (plus, for the
// calls that change what a thread runs, one thread-local store) while tracing is off.
//
// Ownership rule (Go's invariant): only the thread that owns a goroutine reports its
// transitions — the thread running it, or the one that takes it out of a wait queue to
// unblock it. A goroutine's block must be reported before it becomes visible to the
// thread that will unblock it (e.g. under the same lock as the wait queue).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>

#include "gotrace/tracer/detail/fast_path.h"

namespace gotrace::tracer {

// Why a goroutine blocks. The strings are Go's, so Go's tools sort blocking into the
// same profiles (sync, network, ...) as they do for Go programs.
enum class BlockReason : uint8_t {
  Unspecified,  // "unspecified"
  Forever,      // "forever"
  Network,      // "network": sockets, pipes, any I/O wait
  Select,       // "select": waiting on several channels
  CondWait,     // "sync.(*Cond).Wait": condition variables
  Sync,         // "sync": mutexes and other locks
  ChanSend,     // "chan send"
  ChanRecv,     // "chan receive"
  Sleep,        // "sleep": timers
  Preempted,    // "preempted"
};

// Why a running goroutine gives up its thread while staying runnable.
enum class StopReason : uint8_t {
  Unspecified,  // "unspecified"
  Yield,        // "runtime.Gosched": a voluntary yield
  Preempted,    // "preempted"
};

std::string_view to_string(BlockReason r);
std::string_view to_string(StopReason r);

// The trace's handle on one goroutine (one task of the program). Embed it in the task;
// it holds nothing while tracing is off. Not copyable; moving it moves the identity.
class Goroutine {
 public:
  constexpr Goroutine() noexcept = default;
  // `name` labels the goroutine in viewers (its start function); it must outlive the
  // goroutine's creation call.
  explicit constexpr Goroutine(const char* name) noexcept : name_(name) {}
  Goroutine(Goroutine&& o) noexcept { *this = std::move(o); }
  Goroutine& operator=(Goroutine&& o) noexcept {
    std::swap(node_, o.node_);
    std::swap(incarnation_, o.incarnation_);
    name_ = o.name_;
    entry_ = o.entry_;
    return *this;
  }
  Goroutine(const Goroutine&) = delete;
  Goroutine& operator=(const Goroutine&) = delete;
  ~Goroutine() {
    if (node_ && detail::enabled()) forget();
  }

  void set_name(const char* name) noexcept { name_ = name; }
  // The code the goroutine runs (e.g. a coroutine's resume function): symbolized as its
  // start frame when no name is given.
  void set_entry(const void* entry) noexcept { entry_ = entry; }
  const char* name() const noexcept { return name_; }
  const void* entry() const noexcept { return entry_; }

  // The goroutine's id in the trace being recorded, or 0 if it has none (yet).
  uint64_t id() const;

 private:
  friend struct GoroutineAccess;
  void forget();

  void* node_ = nullptr;  // the tracer's record of this goroutine (detail::GoroutineNode)
  uint32_t incarnation_ = 0;
  const char* name_ = nullptr;
  const void* entry_ = nullptr;
};

// The trace's handle on one proc: a worker's right to run goroutines (Go's P).
class Proc {
 public:
  constexpr Proc() noexcept = default;
  Proc(const Proc&) = delete;
  Proc& operator=(const Proc&) = delete;
  // The proc's id in the trace being recorded, or -1.
  int64_t id() const;

 private:
  friend struct ProcAccess;
  int64_t id_ = -1;
  uint64_t session_ = 0;
};

namespace detail {
void go_create(Goroutine& g, bool blocked);
void go_start(Goroutine& g, void* stack_base);
void go_stop(StopReason r);
void go_block(BlockReason r);
void go_block_custom(std::string_view reason);
void go_unblock(Goroutine& g);
void go_end();
void syscall_enter();
void syscall_exit();
void proc_start(Proc& p);
void proc_stop();
}  // namespace detail

// `g` is created by the running code, ready to run (or blocked, waiting to be unblocked).
[[gnu::always_inline]] inline void go_create(Goroutine& g) {
  if (detail::enabled()) detail::go_create(g, false);
}
[[gnu::always_inline]] inline void go_create_blocked(Goroutine& g) {
  if (detail::enabled()) detail::go_create(g, true);
}

// This worker thread starts running `g` on the proc it holds. Call it from the scheduler
// code that then resumes `g`: stacks of `g` stop at that frame.
[[gnu::always_inline]] inline void go_start(Goroutine& g) {
  if (detail::enabled()) return detail::go_start(g, __builtin_frame_address(0));
  detail::t_binding.g = &g;
  detail::t_binding.in_syscall = 0;
  detail::t_binding.stack_base = __builtin_frame_address(0);
}

// The goroutine running on this thread yields; it stays runnable.
[[gnu::always_inline]] inline void go_stop(StopReason r = StopReason::Yield) {
  if (detail::enabled()) return detail::go_stop(r);
  detail::t_binding.g = nullptr;
}

// The goroutine running on this thread blocks; another thread will unblock it.
[[gnu::always_inline]] inline void go_block(BlockReason r) {
  if (detail::enabled()) return detail::go_block(r);
  detail::t_binding.g = nullptr;
}
[[gnu::always_inline]] inline void go_block(std::string_view reason) {
  if (detail::enabled()) return detail::go_block_custom(reason);
  detail::t_binding.g = nullptr;
}

// `g`, blocked, becomes runnable. Called by the thread that wakes it.
[[gnu::always_inline]] inline void go_unblock(Goroutine& g) {
  if (detail::enabled()) detail::go_unblock(g);
}

// The goroutine running on this thread ends.
[[gnu::always_inline]] inline void go_end() {
  if (detail::enabled()) return detail::go_end();
  detail::t_binding.g = nullptr;
}

// The goroutine running on this thread enters / leaves a blocking system call; it keeps
// its thread and proc meanwhile.
[[gnu::always_inline]] inline void syscall_enter() {
  if (detail::enabled()) return detail::syscall_enter();
  detail::t_binding.in_syscall = 1;
}
[[gnu::always_inline]] inline void syscall_exit() {
  if (detail::enabled()) return detail::syscall_exit();
  detail::t_binding.in_syscall = 0;
}

// This thread (a worker) takes / gives back a proc. A worker holds a proc while it runs
// goroutines or looks for work, and gives it back before it sleeps.
[[gnu::always_inline]] inline void proc_start(Proc& p) {
  if (detail::enabled()) return detail::proc_start(p);
  detail::t_binding.proc = &p;
  detail::t_binding.role = detail::Role::Worker;
}
[[gnu::always_inline]] inline void proc_stop() {
  if (detail::enabled()) return detail::proc_stop();
  detail::t_binding.proc = nullptr;
}

}  // namespace gotrace::tracer
