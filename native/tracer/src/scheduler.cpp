// The scheduler-integration API (scheduler.h): each call is one of Go's scheduling events.
// Calls that only change what a thread runs (start, proc start/stop, syscalls) update
// the binding and let sync_context write the transition; the others write their event
// after it.
#include "context.h"
#include "gotrace/v2_spec.h"

namespace gotrace::tracer {

std::string_view to_string(BlockReason r) {
  switch (r) {
    case BlockReason::Unspecified: return "unspecified";
    case BlockReason::Forever: return "forever";
    case BlockReason::Network: return "network";
    case BlockReason::Select: return "select";
    case BlockReason::CondWait: return "sync.(*Cond).Wait";
    case BlockReason::Sync: return "sync";
    case BlockReason::ChanSend: return "chan send";
    case BlockReason::ChanRecv: return "chan receive";
    case BlockReason::Sleep: return "sleep";
    case BlockReason::Preempted: return "preempted";
  }
  return "unspecified";
}

std::string_view to_string(StopReason r) {
  switch (r) {
    case StopReason::Unspecified: return "unspecified";
    case StopReason::Yield: return "runtime.Gosched";
    case StopReason::Preempted: return "preempted";
  }
  return "unspecified";
}

uint64_t Goroutine::id() const {
  auto* self = const_cast<Goroutine*>(this);
  detail::GoroutineNode* n = detail::enabled() ? detail::resolve(*self) : nullptr;
  return n ? n->id.load(std::memory_order_relaxed) : 0;
}

int64_t Proc::id() const {
  if (!detail::enabled() || session_ != detail::rt().session.load(std::memory_order_relaxed)) return -1;
  return id_;
}

void Goroutine::forget() {
  detail::ScopedLocker l;
  if (!l) return;
  detail::GoroutineNode* n = detail::resolve(*this);
  // A goroutine dropped while it runs on this thread stays in the reader's view; leave it.
  if (n && n != l->m->view_g) detail::free_goroutine(*l, n);
  node_ = nullptr;
}

namespace detail {

namespace {

// Ends the running goroutine's run: GoStop or GoBlock (with a reason and a stack), or
// GoDestroy. Inline in each caller, which makes it as short as each case allows.
[[gnu::always_inline]] inline void end_run(uint8_t type, std::string_view reason, void* fp) {
  Binding& b = binding();
  ScopedLocker l;
  if (l) {
    ThreadState* m = l->m;
    GoroutineNode* g = sync_context(*l) ? m->view_g : nullptr;
    if (g && m->view_p && g->status.load(std::memory_order_relaxed) == kGoRunning) {
      if (type == v2::EvGoDestroy) emit(*l, type);
      else emit(*l, type, string_id(*l, reason), capture_stack(*l, fp));
      m->view_g = nullptr;
      if (type == v2::EvGoDestroy) {
        free_goroutine(*l, g);
        // The handle (the binding's goroutine, which g stands for) is done with: its
        // destructor then has no record to forget, and skips the write flag.
        if (b.g) GoroutineAccess::node(*b.g) = nullptr;
      } else {
        set_go_status(*l, g, type == v2::EvGoBlock ? kGoWaiting : kGoRunnable);
      }
      update_sample_ids(m);
    } else {
      count_misuse();
    }
  }
  b.g = nullptr;
}

}  // namespace

[[gnu::noinline]] void go_create(Goroutine& g, bool blocked) {
  void* fp = __builtin_frame_address(0);
  ScopedLocker l;
  if (!l) return;
  ThreadState* m = l->m;
  // GoCreate needs a proc, and a running creator if any (FORMAT.md §2.11).
  if (!sync_context(*l) || !m->view_p || resolve(g) ||
      (m->view_g && m->view_g->status.load(std::memory_order_relaxed) != kGoRunning)) {
    count_misuse();
    return;
  }
  GoroutineNode* n = new_goroutine(*l, g, blocked ? kGoWaiting : kGoRunnable);
  emit(*l, blocked ? v2::EvGoCreateBlocked : v2::EvGoCreate, n->id.load(std::memory_order_relaxed),
       start_stack(*l, n), capture_stack(*l, fp));
}

[[gnu::noinline]] void go_start(Goroutine& g, void* stack_base) {
  Binding& b = binding();
  // Whatever ran here before is over (a scheduler that forgot to say so is repaired by
  // sync_context).
  b.g = &g;
  b.in_syscall = 0;
  b.stack_base = stack_base;
  ScopedLocker l;
  if (l && !start_on_same_proc(*l, b) && !sync_context(*l)) count_misuse();
}

[[gnu::noinline]] void go_stop(StopReason r) { end_run(v2::EvGoStop, to_string(r), __builtin_frame_address(0)); }

[[gnu::noinline]] void go_block(BlockReason r) {
  end_run(v2::EvGoBlock, to_string(r), __builtin_frame_address(0));
}

[[gnu::noinline]] void go_block_custom(std::string_view reason) {
  end_run(v2::EvGoBlock, reason, __builtin_frame_address(0));
}

[[gnu::noinline]] void go_unblock(Goroutine& g) {
  void* fp = __builtin_frame_address(0);
  ScopedLocker l;
  if (!l) return;
  // The unblocking thread's own proc and goroutine get their statuses too (Go's GoUnpark
  // goes through eventWriter), though GoUnblock needs no context.
  sync_context(*l);
  GoroutineNode* n = resolve(g);
  if (!n) n = adopt_waiting(*l, g);
  if (!n) {
    count_misuse();
    return;
  }
  // Only a blocked goroutine can be woken, and only once (claim_go).
  if (!claim_go(*l, n, kGoWaiting)) {
    count_misuse();
    return;
  }
  ensure_go_status(*l, n, false, kGoWaiting);
  emit(*l, v2::EvGoUnblock, n->id.load(std::memory_order_relaxed), n->trace.next_seq(l->gen), capture_stack(*l, fp));
  set_go_status(*l, n, kGoRunnable);
}

[[gnu::noinline]] void go_end() { end_run(v2::EvGoDestroy, {}, nullptr); }

[[gnu::noinline]] void syscall_enter() {
  void* fp = __builtin_frame_address(0);
  Binding& b = binding();
  b.in_syscall = 1;
  ScopedLocker l;
  if (l && !sync_context(*l, fp)) count_misuse();
}

[[gnu::noinline]] void syscall_exit() {
  Binding& b = binding();
  b.in_syscall = 0;
  ScopedLocker l;
  if (l && !sync_context(*l)) count_misuse();
}

[[gnu::noinline]] void proc_start(Proc& p) {
  Binding& b = binding();
  b.proc = &p;
  b.role = Role::Worker;
  ScopedLocker l;
  if (l && !sync_context(*l)) count_misuse();
}

[[gnu::noinline]] void proc_stop() {
  Binding& b = binding();
  b.proc = nullptr;
  ScopedLocker l;
  if (l && !sync_context(*l)) count_misuse();
}

}  // namespace detail
}  // namespace gotrace::tracer
