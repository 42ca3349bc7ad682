#include "context.h"

#include "gotrace/v2_spec.h"

namespace gotrace::tracer::detail {

namespace {

bool first_generation(const Locker& l) { return l.gen == rt().session.load(std::memory_order_relaxed); }

// The record of the proc behind `p`, giving it an id in this trace if it has none.
ProcNode* proc_node(const Locker& l, Proc& p) {
  uint64_t session = l.m->session;
  int64_t& id = ProcAccess::id(p);
  uint64_t& s = ProcAccess::session(p);
  if (s != session) {
    int64_t fresh = rt().procs.allocate_id();
    if (fresh < 0) return nullptr;
    id = fresh;
    s = session;
  }
  return rt().procs.claim(id, session);
}

void write_go_status(const Locker& l, GoroutineNode* g, uint64_t m, uint8_t status) {
  if (status == kGoSyscall || status == kGoRunning) m = g->m.load(std::memory_order_relaxed);
  uint64_t id = g->id.load(std::memory_order_relaxed);
  if (uint64_t stack = start_stack(l, g)) emit(l, v2::EvGoStatusStack, id, m, status, stack);
  else emit(l, v2::EvGoStatus, id, m, status);
}

// The goroutine behind `g`, unknown to the trace, runs on this thread (which holds a proc).
GoroutineNode* adopt_running(const Locker& l, Goroutine& g) {
  if (first_generation(l)) {
    // It existed before the trace began: a status says so (FORMAT.md §2.11).
    GoroutineNode* n = new_goroutine(l, g, kGoRunning);
    write_go_status(l, n, l.m->id, kGoRunning);
    return n;
  }
  // After the first generation only creation can introduce a goroutine.
  GoroutineNode* n = new_goroutine(l, g, kGoRunnable);
  emit(l, v2::EvGoCreate, n->id.load(std::memory_order_relaxed), start_stack(l, n), 0);
  if (!claim_go(l, n, kGoRunnable)) return n;  // (another thread took the new handle: misuse)
  write_go_start(l, n);
  return n;
}

// The reader believes `old` runs on this thread but the scheduler has moved on without
// saying so: let it yield, as the least surprising repair.
bool unbind_stale_goroutine(const Locker& l) {
  ThreadState* m = l.m;
  GoroutineNode* old = m->view_g;
  uint8_t status = old->status.load(std::memory_order_relaxed);
  if (!m->view_p || status != kGoRunning) return false;
  ensure_go_status(l, old, true);
  emit(l, v2::EvGoStop, string_id(l, to_string(StopReason::Unspecified)), 0);
  set_go_status(l, old, kGoRunnable);
  m->view_g = nullptr;
  count_misuse();
  return true;
}

bool sync_proc(const Locker& l, ProcNode* want) {
  ThreadState* m = l.m;
  if (m->view_p == want) {
    if (want) ensure_proc_status(l, want);
    return true;
  }
  if (ProcNode* old = m->view_p) {
    ensure_proc_status(l, old);
    emit(l, v2::EvProcStop);
    old->status.store(kProcIdle, std::memory_order_relaxed);
    m->view_p = nullptr;
  }
  if (!want) return true;
  uint8_t status = want->status.load(std::memory_order_relaxed);
  if (status == kProcUnseen) {
    // New to the trace: it appears idle, then starts here.
    want->trace.acquire_status(l.gen);
    emit(l, v2::EvProcStatus, want->id, uint64_t(kProcIdle));
    want->status.store(kProcIdle, std::memory_order_relaxed);
    status = kProcIdle;
  }
  if (status != kProcIdle) return false;  // another thread holds it
  ensure_proc_status(l, want);
  emit(l, v2::EvProcStart, want->id, want->trace.next_seq(l.gen));
  want->m.store(m->id, std::memory_order_relaxed);
  want->status.store(kProcRunning, std::memory_order_relaxed);
  m->view_p = want;
  return true;
}

bool sync_goroutine(const Locker& l, Goroutine* handle, void* fp) {
  ThreadState* m = l.m;
  GoroutineNode* want = handle ? resolve(*handle) : nullptr;
  if (!handle) return true;  // nothing runs here (a stale view_g was handled by the caller)
  if (want && m->view_g == want) {
    ensure_go_status(l, want, true);
    return true;
  }
  if (!m->view_p) return false;  // a goroutine runs only on a proc
  if (!want) {
    m->view_g = adopt_running(l, *handle);
    return true;
  }
  uint8_t was = want->status.load(std::memory_order_relaxed);
  if ((was != kGoWaiting && was != kGoRunnable) || !claim_go(l, want, was)) return false;  // runs elsewhere
  ensure_go_status(l, want, false, was);
  if (was == kGoWaiting) {
    // Resumed without an unblock from another thread: it woke itself (a BlockScope).
    emit(l, v2::EvGoUnblock, want->id.load(std::memory_order_relaxed), want->trace.next_seq(l.gen),
         fp ? capture_stack(l, fp) : 0);
  }
  write_go_start(l, want);
  m->view_g = want;
  return true;
}

void sync_syscall(const Locker& l, bool in_syscall, void* fp) {
  ThreadState* m = l.m;
  GoroutineNode* g = m->view_g;
  ProcNode* p = m->view_p;
  if (!g || !p) return;
  uint8_t status = g->status.load(std::memory_order_relaxed);
  if (in_syscall && status == kGoRunning) {
    emit(l, v2::EvGoSyscallBegin, p->trace.next_seq(l.gen), fp ? capture_stack(l, fp) : 0);
    g->status.store(kGoSyscall, std::memory_order_relaxed);
    p->status.store(kProcSyscall, std::memory_order_relaxed);
  } else if (!in_syscall && status == kGoSyscall) {
    emit(l, v2::EvGoSyscallEnd);
    g->status.store(kGoRunning, std::memory_order_relaxed);
    p->status.store(kProcRunning, std::memory_order_relaxed);
  }
}

}  // namespace

uint64_t next_goid_block(ThreadState* m) {
  constexpr uint64_t kBlock = 16;
  m->goid_next = rt().next_goid.fetch_add(kBlock, std::memory_order_relaxed);
  m->goid_end = m->goid_next + kBlock;
  return m->goid_next++;
}

uint64_t label_pc_slow(const char* name, LabelCacheEntry& e) {
  const std::string* stored = nullptr;
  uint64_t pc = rt().labels.pc(name, &stored);
  e = {name, stored, pc};
  return pc;
}

GoroutineNode* adopt_waiting(const Locker& l, Goroutine& g) {
  ThreadState* m = l.m;
  if (first_generation(l)) {
    GoroutineNode* n = new_goroutine(l, g, kGoWaiting);
    write_go_status(l, n, kNoThread, kGoWaiting);
    return n;
  }
  // Creation needs a proc, and a running creator if any.
  if (!m->view_p || (m->view_g && m->view_g->status.load(std::memory_order_relaxed) != kGoRunning)) return nullptr;
  GoroutineNode* n = new_goroutine(l, g, kGoWaiting);
  emit(l, v2::EvGoCreateBlocked, n->id.load(std::memory_order_relaxed), start_stack(l, n), 0);
  return n;
}

uint64_t start_stack_slow(const Locker& l, uint64_t pc) {
  uint64_t id = stack_id(l, std::span<const uint64_t>(&pc, 1));
  l.m->last_start_stack = {l.gen, pc, id};
  return id;
}

void ensure_go_status(const Locker& l, GoroutineNode* g, bool running_here, uint8_t status) {
  if (g->trace.status_was_traced(l.gen) || !g->trace.acquire_status(l.gen)) return;
  if (status == kGoBad) status = g->status.load(std::memory_order_relaxed);
  write_go_status(l, g, running_here ? l.m->id : kNoThread, status);
}

void ensure_proc_status(const Locker& l, ProcNode* p) {
  if (p->trace.status_was_traced(l.gen) || !p->trace.acquire_status(l.gen)) return;
  emit(l, v2::EvProcStatus, p->id, uint64_t(p->status.load(std::memory_order_relaxed)));
}

bool sync_context_slow(const Locker& l, void* fp) {
  ThreadState* m = l.m;
  Binding& b = binding();
  // A plain thread is its own goroutine, on a proc of its own, from its first trace call.
  if (b.role == Role::Plain && !b.proc) {
    // (in_syscall stays: the first call may be a SyscallScope, already set.)
    b.proc = &m->own_p;
    b.g = &m->own_g;
    b.stack_base = nullptr;
  }
  ProcNode* want_p = nullptr;
  if (b.proc && !(want_p = proc_node(l, *b.proc))) return false;  // out of proc ids
  GoroutineNode* want_g = b.g ? resolve(*b.g) : nullptr;
  bool ok = true;
  if (m->view_g && m->view_g != want_g) ok = unbind_stale_goroutine(l);
  ok = ok && sync_proc(l, want_p);
  ok = ok && sync_goroutine(l, b.g, fp);
  if (ok) sync_syscall(l, b.in_syscall != 0, fp);
  update_sample_ids(m);
  if (ok) m->synced = {l.gen, b.proc, b.g, m->view_p, m->view_g, b.in_syscall};
  else m->synced.gen = 0;
  return ok;
}

}  // namespace gotrace::tracer::detail
