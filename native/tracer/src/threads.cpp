// Plain threads (threads.h): each is a goroutine with a proc of its own. Blocking and
// system-call scopes end and resume the running goroutine on the same thread.
#include "gotrace/tracer/threads.h"

#include "context.h"
#include "gotrace/v2_spec.h"
#include "thread_exit.h"

namespace gotrace::tracer {

void set_thread_name(std::string_view name) {
  if (detail::ThreadState* m = detail::current_thread()) {
    m->name.assign(name);
    m->own_g.set_name(m->name.c_str());
  }
}

namespace detail {

[[gnu::noinline]] ScopeToken block_begin(BlockReason r) {
  void* fp = __builtin_frame_address(0);
  Binding& b = binding();
  ScopedLocker l;
  if (!l) return {};
  ThreadState* m = l->m;
  GoroutineNode* g = sync_context(*l) ? m->view_g : nullptr;
  // A worker waiting between goroutines has nothing to block (it gives up its proc instead).
  if (!g || !m->view_p || g->status.load(std::memory_order_relaxed) != kGoRunning) return {};
  emit(*l, v2::EvGoBlock, string_id(*l, to_string(r)), capture_stack(*l, fp));
  set_go_status(*l, g, kGoWaiting);
  m->view_g = nullptr;
  update_sample_ids(m);
  ScopeToken t{m->session, b.g};
  b.g = nullptr;
  return t;
}

[[gnu::noinline]] void block_end(const ScopeToken& t) {
  void* fp = __builtin_frame_address(0);
  // The goroutine runs again; sync_context writes its unblock and start (or, in a trace
  // begun meanwhile, adopts it as running).
  binding().g = t.g;
  ScopedLocker l;
  if (l && !sync_context(*l, fp)) count_misuse();
}

[[gnu::noinline]] ScopeToken syscall_begin() {
  void* fp = __builtin_frame_address(0);
  Binding& b = binding();
  ScopedLocker l;
  if (!l) return {};
  ThreadState* m = l->m;
  b.in_syscall = 1;
  if (!sync_context(*l, fp) || !m->view_g) {
    b.in_syscall = 0;
    return {};
  }
  return ScopeToken{m->session, b.g};
}

[[gnu::noinline]] void syscall_end(const ScopeToken&) {
  binding().in_syscall = 0;
  ScopedLocker l;
  if (l && !sync_context(*l)) count_misuse();
}

[[gnu::noinline]] void become_worker() {
  // A plain thread already traced as a goroutine stops being one.
  ScopedLocker l;
  if (l) end_plain_thread(*l);
}

// The plain thread's goroutine ends and its proc is given back (a thread that exits or
// becomes a worker).
void end_plain_thread(const Locker& l) {
  ThreadState* m = l.m;
  Binding& b = binding();
  if (b.proc != &m->own_p) return;
  bool ok = sync_context(l);
  if (ok && m->view_g && m->view_g == resolve(m->own_g)) {
    GoroutineNode* g = m->view_g;
    if (g->status.load(std::memory_order_relaxed) == kGoSyscall && m->view_p) {
      emit(l, v2::EvGoSyscallEnd);
      m->view_p->status.store(kProcRunning, std::memory_order_relaxed);
    }
    emit(l, v2::EvGoDestroy);
    m->view_g = nullptr;
    free_goroutine(l, g);
  }
  if (ProcNode* p = m->view_p) {
    emit(l, v2::EvProcStop);
    p->status.store(kProcIdle, std::memory_order_relaxed);
    m->view_p = nullptr;
  }
  if (ProcAccess::session(m->own_p) == m->session) {
    rt().procs.release_id(ProcAccess::id(m->own_p));
    ProcAccess::session(m->own_p) = 0;
  }
  b.proc = nullptr;
  b.g = nullptr;
  update_sample_ids(m);
}

}  // namespace detail
}  // namespace gotrace::tracer
