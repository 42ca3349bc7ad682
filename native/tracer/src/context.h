// What a thread runs, as the reader will see it. Go's eventWriter writes the status of the
// thread's proc and goroutine before the first event of each generation; this does that,
// and more: the scheduler's binding (detail::Binding) may have moved on while tracing was
// off, or the trace may have just begun, so it first writes the events that bring the
// reader's view of the thread to the binding — adopting goroutines and procs the trace
// has not seen, starting, stopping and resuming them. Every API call goes through here.
#pragma once

#include <cstdint>

#include "event_writer.h"
#include "statuses.h"

namespace gotrace::tracer {

struct GoroutineAccess {
  static void*& node(Goroutine& g) { return g.node_; }
  static uint32_t& incarnation(Goroutine& g) { return g.incarnation_; }
};

struct ProcAccess {
  static int64_t& id(Proc& p) { return p.id_; }
  static uint64_t& session(Proc& p) { return p.session_; }
};

namespace detail {

// Makes the reader's view of l.m equal the thread's binding and writes the statuses this
// generation still needs. False if the binding cannot be shown (e.g. two threads claim
// one proc): the caller then drops its event and counts a misuse. `fp`, if given, is the
// caller's frame, for the stacks of transitions this writes.
bool sync_context_slow(const Locker& l, void* fp);
inline bool sync_context(const Locker& l, void* fp = nullptr) {
  ThreadState* m = l.m;
  const Binding& b = binding();
  if (__builtin_expect(m->synced.gen == l.gen && m->synced.proc == b.proc && m->synced.g == b.g &&
                           m->synced.view_p == m->view_p && m->synced.view_g == m->view_g &&
                           m->synced.in_syscall == b.in_syscall && b.proc,
                       1))
    return true;
  return sync_context_slow(l, fp);
}

// The tracer's record of `g` in the current trace, or nullptr if it has none.
GoroutineNode* resolve(Goroutine& g);

// `g`, which the trace has not seen, is blocked: writes what makes it known as waiting
// (a status in the trace's first generation, a creation later). nullptr if it cannot.
GoroutineNode* adopt_waiting(const Locker& l, Goroutine& g);

// A new record for the new goroutine `g`, with `status`, its status traced in l.gen.
GoroutineNode* new_goroutine(const Locker& l, Goroutine& g, uint8_t status);

// The one-frame stack naming a goroutine (0: none).
uint64_t start_stack(const Locker& l, const GoroutineNode* n);

// The status of `g` (or `p`) in l.gen, if not written yet. `running_here`: `g` is the
// thread's own goroutine (its status names this thread).
void ensure_go_status(const Locker& l, GoroutineNode* g, bool running_here);
void ensure_proc_status(const Locker& l, ProcNode* p);

// Frees the record of a goroutine that ended.
void free_goroutine(const Locker& l, GoroutineNode* n);

// The ids the CPU profiler reports this thread's samples under.
inline void update_sample_ids(ThreadState* m) {
  m->sample_p.store(m->view_p ? m->view_p->id : -1, std::memory_order_relaxed);
  m->sample_g.store(m->view_g ? m->view_g->id.load(std::memory_order_relaxed) : 0, std::memory_order_relaxed);
}

inline void count_misuse() { rt().misuse.fetch_add(1, std::memory_order_relaxed); }

}  // namespace detail
}  // namespace gotrace::tracer
