// What every call site of the tracer sees inline: the "tracing may be on" flag and the
// thread's binding to its proc and goroutine. Everything else lives out of line, so a
// call site costs one predictable branch while tracing is off.
#pragma once

#include <atomic>
#include <cstdint>

namespace gotrace::tracer {

class Goroutine;
class Proc;

namespace detail {

// An optimistic hint, like Go's trace.enabled: true from just before a trace starts until
// just after it stops. The source of truth is the generation, read under the thread's
// write flag; a stale `true` only sends a call down the slow path, which then does nothing.
extern std::atomic<bool> g_enabled;

[[gnu::always_inline]] inline bool enabled() {
  return __builtin_expect(g_enabled.load(std::memory_order_relaxed), 0);
}

// The thread's role in the trace's model: a plain thread is itself a goroutine (with a
// proc of its own); a worker runs the goroutines of a scheduler on procs it is given.
enum class Role : uint8_t { Plain, Worker };

// What the program's scheduler says this thread is running. It is the scheduler's state,
// not the tracer's, so it is kept even while tracing is off (one store per scheduling
// call): a trace that starts later must know which proc and goroutine each thread holds,
// just as Go's tracer reads m.p and m.curg.
struct Binding {
  Proc* proc;           // the proc this thread holds, if any
  Goroutine* g;         // the goroutine running on this thread, if any
  void* stack_base;     // frame of the scheduler code that started `g`: stacks stop there
  uint8_t in_syscall;   // `g` is in a system call
  Role role;
};

extern constinit thread_local Binding t_binding;

// The binding, reached through a register. Under UBSan, GCC checks a thread-local's address
// for null with the flags of the `add` that computes it, and the linker may relax that
// `add` into a `lea`, which sets none: the check then fires at random. An opaque copy of
// the address makes the compiler test it for real.
[[gnu::always_inline]] inline Binding& binding() {
  Binding* b = &t_binding;
  asm("" : "+r"(b));
  return *b;
}

}  // namespace detail
}  // namespace gotrace::tracer
