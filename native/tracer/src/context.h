// What a thread runs, as the reader will see it. Go's eventWriter writes the status of the
// thread's proc and goroutine before the first event of each generation; this does that,
// and more: the scheduler's binding (detail::Binding) may have moved on while tracing was
// off, or the trace may have just begun, so it first writes the events that bring the
// reader's view of the thread to the binding — adopting goroutines and procs the trace
// has not seen, starting, stopping and resuming them. Every API call goes through here.
#pragma once

#include <cstdint>
#include <cstring>

#include "event_writer.h"
#include "gotrace/v2_spec.h"
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
inline GoroutineNode* resolve(Goroutine& g) {
  auto* n = static_cast<GoroutineNode*>(GoroutineAccess::node(g));
  if (!n || n->incarnation.load(std::memory_order_acquire) != GoroutineAccess::incarnation(g)) return nullptr;
  if (!n->live.load(std::memory_order_relaxed)) return nullptr;
  return n;
}

// `g`, which the trace has not seen, is blocked: writes what makes it known as waiting
// (a status in the trace's first generation, a creation later). nullptr if it cannot.
GoroutineNode* adopt_waiting(const Locker& l, Goroutine& g);

// A fresh goroutine id, from the thread's block of them (Go's goidcache).
uint64_t next_goid_block(ThreadState* m);
inline uint64_t next_goid(ThreadState* m) {
  if (__builtin_expect(m->goid_next == m->goid_end, 0)) return next_goid_block(m);
  return m->goid_next++;
}

// The start frame of `g`: its name (through the thread's cache of names, so creating
// goroutines seldom takes the registry's lock) or its entry point.
uint64_t label_pc_slow(const char* name, LabelCacheEntry& e);
inline uint64_t start_pc_of(ThreadState* m, Goroutine& g) {
  const char* name = g.name();
  if (!name) return uint64_t(reinterpret_cast<uintptr_t>(g.entry()));
  LabelCacheEntry& e = m->labels[(reinterpret_cast<uintptr_t>(name) >> 4) % std::size(m->labels)];
  // (strcmp, not operator==: one pass, with no strlen before it.)
  if (__builtin_expect(e.name == name && std::strcmp(e.stored->c_str(), name) == 0, 1)) return e.pc;
  return label_pc_slow(name, e);
}

// A new record for the new goroutine `g`, with `status`, its status traced in l.gen.
inline GoroutineNode* new_goroutine(const Locker& l, Goroutine& g, uint8_t status) {
  ThreadState* m = l.m;
  GoroutineNode* n = rt().goroutines.allocate(m->node_cache);
  n->trace.reset();
  n->trace.set_status_traced(l.gen);
  n->status.store(status, std::memory_order_relaxed);
  n->gen.store(l.gen, std::memory_order_relaxed);
  n->id.store(next_goid(m), std::memory_order_relaxed);
  n->m.store(status == kGoRunning ? m->id : kNoThread, std::memory_order_relaxed);
  n->start_pc.store(start_pc_of(m, g), std::memory_order_relaxed);
  GoroutineAccess::incarnation(g) = GoroutineTable::publish(n);
  GoroutineAccess::node(g) = n;
  return n;
}

// The one-frame stack naming a goroutine (0: none). Programs create many goroutines of
// one kind in a row: the thread remembers the last one.
uint64_t start_stack_slow(const Locker& l, uint64_t pc);
inline uint64_t start_stack(const Locker& l, const GoroutineNode* n) {
  uint64_t pc = n->start_pc.load(std::memory_order_relaxed);
  if (!pc) return 0;
  const auto& last = l.m->last_start_stack;
  if (__builtin_expect(last.gen == l.gen && last.pc == pc, 1)) return last.id;
  return start_stack_slow(l, pc);
}

// The status of `g` (or `p`) in l.gen, if not written yet. `running_here`: `g` is the
// thread's own goroutine (its status names this thread). `status`: the one to write for
// a goroutine this thread has claimed (claim_go), which was `status` before.
void ensure_go_status(const Locker& l, GoroutineNode* g, bool running_here, uint8_t status = kGoBad);
void ensure_proc_status(const Locker& l, ProcNode* p);

// Frees the record of a goroutine that ended.
inline void free_goroutine(const Locker& l, GoroutineNode* n) { rt().goroutines.free(l.m->node_cache, n); }

// The ids the CPU profiler reports this thread's samples under. Nothing reads them while
// the profiler is off (attach_thread sets them when a trace with the profiler begins).
inline void update_sample_ids(ThreadState* m) {
  if (rt().cpu.hz() == 0) return;
  m->sample_p.store(m->view_p ? m->view_p->id : -1, std::memory_order_relaxed);
  m->sample_g.store(m->view_g ? m->view_g->id.load(std::memory_order_relaxed) : 0, std::memory_order_relaxed);
}

// Claims `g`, in status `from`, for an unblock or a start: the events that take a sequence
// number from another thread than the one `g` last ran on. The claim is a compare-and-swap
// to kGoBusy, so when threads break the ownership rule (two wake the same goroutine, one
// wakes a goroutine that runs elsewhere, two start it) only one of them writes, and the
// numbers are taken one at a time, each after the event that made the next one possible;
// the others find the claim gone and count a misuse. The claimer sets the new status,
// with release, after writing its event. A thread that read the generation before another
// wrote events of `g` in the next one must not claim it either: its event would go into
// the earlier generation, before those (only a thread breaking the rule can be so late).
inline bool claim_go(const Locker& l, GoroutineNode* g, uint8_t from) {
  if (!g->status.compare_exchange_strong(from, kGoBusy, std::memory_order_acquire, std::memory_order_relaxed))
    return false;
  if (__builtin_expect(g->gen.load(std::memory_order_relaxed) > l.gen, 0)) {
    g->status.store(from, std::memory_order_release);
    return false;
  }
  return true;
}

// `g` is now in `status`, with the events this thread wrote of it in l.gen (the end of a
// claim, or of a run on this thread).
inline void set_go_status(const Locker& l, GoroutineNode* g, uint8_t status) {
  g->gen.store(l.gen, std::memory_order_relaxed);
  g->status.store(status, std::memory_order_release);
}

// `g`, claimed by this thread (claim_go), starts here. Its sequence number counts on through the
// generation, as Go's do: numbers that repeated within a generation (a status written in
// the middle of one resets the count) would leave the reader only the timestamps to
// order events of different threads by, and a thread writing events faster than the clock
// ticks runs its timestamps ahead of the clock (they strictly increase in a batch).
[[gnu::always_inline]] inline void write_go_start(const Locker& l, GoroutineNode* g) {
  emit(l, v2::EvGoStart, g->id.load(std::memory_order_relaxed), g->trace.next_seq(l.gen));
  g->m.store(l.m->id, std::memory_order_relaxed);
  set_go_status(l, g, kGoRunning);
}

// The most frequent change of binding: a worker that keeps its proc starts a runnable
// goroutine whose status this generation already has. Only its GoStart is needed; this
// writes it without the general walk of sync_context_slow (which would do the same, at
// three times the cost). go_start tries it first. False, having written nothing, if the
// case is any other.
inline bool start_on_same_proc(const Locker& l, Binding& b) {
  ThreadState* m = l.m;
  if (m->synced.gen != l.gen || m->synced.proc != b.proc || !b.proc || m->synced.view_p != m->view_p ||
      !m->view_p || m->view_g || !b.g || b.in_syscall)
    return false;
  GoroutineNode* g = resolve(*b.g);
  if (!g || !g->trace.status_was_traced(l.gen) || !claim_go(l, g, kGoRunnable)) return false;
  write_go_start(l, g);
  m->view_g = g;
  update_sample_ids(m);
  m->synced = {l.gen, b.proc, b.g, m->view_p, g, 0};
  return true;
}

inline void count_misuse() { rt().misuse.fetch_add(1, std::memory_order_relaxed); }

}  // namespace detail
}  // namespace gotrace::tracer
