// Ordering::advance and its per-event handlers. They are inline, and only the reader's
// merge loop includes them, so that natively the loop, the dispatch and the handler of
// each event compile into one function (a call per event cost 5% of the reader's
// instructions). In WebAssembly each handler is a function of its own (Ordering::handle).
#pragma once

#include <string>

#include "gotrace/error.h"
#include "gotrace/v2_spec.h"
#include "strings_util.h"
#include "order.h"

namespace gotrace::v2 {

// What an event requires of its context (Go's schedReqs).
enum class Req : uint8_t { MustNotHave, MayHave, MustHave };
struct SchedReqs {
  Req thread, proc, goroutine;
};
constexpr SchedReqs kUserGo{Req::MustHave, Req::MustHave, Req::MustHave};

[[noreturn, gnu::noinline, gnu::cold]] void order_fail(std::string msg);
std::string seq_string(uint64_t n, uint64_t gen);

[[gnu::always_inline]] inline void validate_ctx(const Context& ctx, SchedReqs r) {
  if (r.thread == Req::MustHave && ctx.m == kNoThread) order_fail("expected a thread but didn't have one");
  if (r.thread == Req::MustNotHave && ctx.m != kNoThread) order_fail("expected no thread but had one");
  if (r.proc == Req::MustHave && ctx.p == kNoProc) order_fail("expected a proc but didn't have one");
  if (r.proc == Req::MustNotHave && ctx.p != kNoProc) order_fail("expected no proc but had one");
  if (r.goroutine == Req::MustHave && ctx.g == kNoGoroutine) order_fail("expected a goroutine but didn't have one");
  if (r.goroutine == Req::MustNotHave && ctx.g != kNoGoroutine) order_fail("expected no goroutine but had one");
}

inline const char* evname(uint8_t type) { return spec(type).name.data() ? spec(type).name.data() : ""; }

inline uint8_t range_start_type(uint8_t type) {
  uint8_t s = spec(type).start_ev;
  return s != EvNone ? s : type;
}

// ---- resource state -------------------------------------------------------------

inline Ordering::GState* Ordering::g_state(GoID id) {
  uint32_t i = g_index_.find(id);
  return i != ResourceIndex::kNone ? &g_pool_[i] : nullptr;
}

inline Ordering::PState* Ordering::p_state(ProcID id) {
  uint32_t i = p_index_.find(id);
  return i != ResourceIndex::kNone ? &p_pool_[i] : nullptr;
}

// The state of the event's goroutine, which must exist and be in `want` (Go says "not
// Running" whichever state it wanted).
[[gnu::always_inline]] inline Ordering::GState* Ordering::current_g(const WireEvent& ev, const Context& cur, WireGoStatus want) {
  GState* s = g_state(cur.g);
  if (!s) order_fail(fmt("event %s for goroutine (%lld) that doesn't exist", evname(ev.type), (long long)cur.g));
  if (s->status != want) order_fail(fmt("%s event for goroutine that's not Running", evname(ev.type)));
  return s;
}

// The state of the event's proc, which must exist.
[[gnu::always_inline]] inline Ordering::PState* Ordering::current_p(const WireEvent& ev, const Context& cur) {
  PState* p = p_state(cur.p);
  if (!p) order_fail(fmt("uninitialized proc %lld found during %s", (long long)cur.p, evname(ev.type)));
  return p;
}

// ---- procs ---------------------------------------------------------------------

[[gnu::always_inline]] inline bool Ordering::proc_status(WireEvent& ev, const Generation&, const Context& cur, MState& next) {
  ProcID pid = static_cast<ProcID>(ev.args[0]);
  uint64_t status = ev.args[1];
  if (status >= kWireProcStatusCount) order_fail(fmt("invalid status for proc %lld: %llu", (long long)pid, (unsigned long long)status));
  auto wire = static_cast<WireProcStatus>(status);
  ProcState old = to_proc_state(wire);
  bool restored = false;
  if (PState* s = p_state(pid)) {
    if (wire == WireProcStatus::SyscallAbandoned && s->status == WireProcStatus::Syscall) {
      old = ProcState::Running;
      ev.args[1] = static_cast<uint64_t>(WireProcStatus::Syscall);
    } else if (wire == WireProcStatus::SyscallAbandoned && s->status == WireProcStatus::SyscallAbandoned) {
      old = ProcState::Idle;
      ev.args[1] = static_cast<uint64_t>(WireProcStatus::SyscallAbandoned);
    } else if (s->status != wire) {
      order_fail(fmt("inconsistent status for proc %lld: old %s vs. new %s", (long long)pid,
                     std::string(to_string(s->status)).c_str(), std::string(to_string(wire)).c_str()));
    }
    restored = s->restored;
    s->restored = false;
    s->seq = Seq{gen_, 0};
  } else {
    PState* n = new_p_state(pid);
    n->status = wire;
    n->seq = Seq{gen_, 0};
    old = gen_ == initial_gen_ ? ProcState::Undetermined : ProcState::NotExist;
  }
  Context report = cur;
  if (wire == WireProcStatus::Running || wire == WireProcStatus::Syscall) next.p = pid;
  if (wire == WireProcStatus::SyscallAbandoned && old == ProcState::Running) {
    // The proc is about to be stolen: report the event on the thread that holds it.
    bool found = false;
    ThreadID best = 0;
    m_index_.for_each([&](uint64_t mid, uint32_t slot) {
      const MState& st = m_pool_[slot];
      // Go takes whichever its map iteration yields last; we take the lowest id.
      if (st.p == pid && (!found || static_cast<ThreadID>(mid) < best)) {
        best = static_cast<ThreadID>(mid);
        found = true;
      }
    });
    if (!found) order_fail(fmt("failed to find sched context for proc %lld that's about to be stolen", (long long)pid));
    const MState& st = *m_state(best);
    report = Context{best, pid, st.g};
  }
  // No change (a proc in a syscall about to be stolen too: Running -> Running, as above).
  if (restored && old == to_proc_state(static_cast<WireProcStatus>(ev.args[1]))) [[unlikely]] old = ProcState::Undetermined;
  push_cold(report, ev, static_cast<uint64_t>(old));
  return true;
}

[[gnu::always_inline]] inline bool Ordering::proc_start(WireEvent& ev, const Generation&, const Context& cur, MState& next) {
  ProcID pid = static_cast<ProcID>(ev.args[0]);
  Seq seq{gen_, ev.args[1]};
  PState* s = p_state(pid);
  if (!s || s->status != WireProcStatus::Idle || !seq.succeeds(s->seq) || cur.p != kNoProc) return false;
  validate_ctx(cur, {Req::MustHave, Req::MustNotHave, Req::MayHave});
  s->status = WireProcStatus::Running;
  s->seq = seq;
  next.p = pid;
  push_cold(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::proc_stop(WireEvent& ev, const Generation&, const Context& cur, MState& next) {
  PState* s = p_state(cur.p);
  if (!s) order_fail(fmt("event %s for proc (%lld) that doesn't exist", evname(ev.type), (long long)cur.p));
  if (s->status != WireProcStatus::Running && s->status != WireProcStatus::Syscall) {
    order_fail(fmt("%s event for proc that's not Running or Syscall", evname(ev.type)));
  }
  validate_ctx(cur, {Req::MustHave, Req::MustHave, Req::MayHave});
  s->status = WireProcStatus::Idle;
  next.p = kNoProc;
  push_cold(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::proc_steal(WireEvent& ev, const Generation&, const Context& cur, MState& next) {
  ProcID pid = static_cast<ProcID>(ev.args[0]);
  Seq seq{gen_, ev.args[1]};
  PState* s = p_state(pid);
  if (!s || (s->status != WireProcStatus::Syscall && s->status != WireProcStatus::SyscallAbandoned) ||
      !seq.succeeds(s->seq)) {
    return false;
  }
  validate_ctx(cur, {Req::MustHave, Req::MayHave, Req::MayHave});
  WireProcStatus old = s->status;
  s->status = WireProcStatus::Idle;
  s->seq = seq;
  if (old == WireProcStatus::SyscallAbandoned) {
    push_cold(cur, ev, static_cast<uint64_t>(old));
    return true;
  }
  ThreadID mid = static_cast<ThreadID>(ev.args[2]);
  if (mid == cur.m) {
    if (cur.p != pid) {
      order_fail(fmt("tried to self-steal proc %lld (thread %lld), but got proc %lld instead", (long long)pid, (long long)mid,
                     (long long)cur.p));
    }
    next.p = kNoProc;
    push_cold(cur, ev, static_cast<uint64_t>(old));
    return true;
  }
  MState* victim = m_state(mid);
  if (!victim) order_fail(fmt("stole proc from non-existent thread %lld", (long long)mid));
  if (victim->p != pid) {
    order_fail(fmt("tried to steal proc %lld from thread %lld, but got proc %lld instead", (long long)pid, (long long)mid,
                   (long long)victim->p));
  }
  victim->p = kNoProc;
  push_cold(cur, ev, static_cast<uint64_t>(old));
  return true;
}

// ---- goroutines ----------------------------------------------------------------

[[gnu::always_inline]] inline bool Ordering::go_status(WireEvent& ev, const Generation&, const Context& cur, MState& next) {
  GoID gid = static_cast<GoID>(ev.args[0]);
  ThreadID mid = static_cast<ThreadID>(ev.args[1]);
  uint64_t status = ev.args[2];
  if (status >= kWireGoStatusCount) order_fail(fmt("invalid status for goroutine %lld: %llu", (long long)gid, (unsigned long long)status));
  auto wire = static_cast<WireGoStatus>(status);
  GoState old = to_go_state(wire);
  StringID reason = 0;  // of a goroutine restored waiting or runnable (GState::reason)
  if (GState* s = g_state(gid)) {
    if (s->status != wire) {
      order_fail(fmt("inconsistent status for goroutine %lld: old %s vs. new %s", (long long)gid,
                     std::string(to_string(s->status)).c_str(), std::string(to_string(wire)).c_str()));
    }
    if (s->restored) [[unlikely]] {
      s->restored = false;
      old = GoState::Undetermined;
      if (wire == WireGoStatus::Waiting || wire == WireGoStatus::Runnable) reason = s->reason;
    }
    s->seq = Seq{gen_, 0};
  } else if (gen_ == initial_gen_) {
    GState* n = new_g_state(gid);
    n->status = wire;
    n->seq = Seq{gen_, 0};
    old = GoState::Undetermined;
  } else {
    order_fail(fmt("found goroutine status for new goroutine after the first generation: id=%lld status=%s", (long long)gid,
                   std::string(to_string(wire)).c_str()));
  }
  Context report = cur;
  switch (wire) {
    case WireGoStatus::Running:
      next.g = gid;
      break;
    case WireGoStatus::Syscall: {
      if (mid == kNoThread) order_fail(fmt("found goroutine %lld in syscall without a thread", (long long)gid));
      if (mid == cur.m) {
        if (gen_ != initial_gen_ && cur.g != gid) {
          order_fail(fmt("inconsistent thread for syscalling goroutine %lld: thread has goroutine %lld", (long long)gid,
                         (long long)cur.g));
        }
        next.g = gid;
        break;
      }
      if (MState* other = m_state(mid)) {
        if (other->g != gid) {
          order_fail(fmt("inconsistent thread for syscalling goroutine %lld: thread has goroutine %lld", (long long)gid,
                         (long long)other->g));
        }
        report.g = other->g;
      } else {
        MState* n = new_m_state(mid);
        n->g = gid;
        n->p = kNoProc;
      }
      report.m = mid;
      break;
    }
    default:
      break;
  }
  push_cold(report, ev, static_cast<uint64_t>(old), reason);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::go_create(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  validate_ctx(cur, {Req::MustHave, Req::MustHave, Req::MayHave});
  if (GState* s = g_state(cur.g); s && s->status != WireGoStatus::Running) {
    order_fail(fmt("%s event for goroutine that's not Running", evname(ev.type)));
  }
  GoID newg = static_cast<GoID>(ev.args[0]);
  if (g_state(newg)) order_fail(fmt("tried to create goroutine (%lld) that already exists", (long long)newg));
  GState* n = new_g_state(newg);
  n->status = ev.type == EvGoCreateBlocked ? WireGoStatus::Waiting : WireGoStatus::Runnable;
  n->seq = Seq{gen_, 0};
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::go_stop_exec(WireEvent& ev, const Generation& gen, const Context& cur, MState& next) {
  validate_ctx(cur, kUserGo);
  GState* s = current_g(ev, cur, WireGoStatus::Running);
  switch (ev.type) {
    case EvGoDestroy:
      delete_g_state(cur.g);
      break;
    case EvGoStop:
    case EvGoBlock: {
      s->status = ev.type == EvGoStop ? WireGoStatus::Runnable : WireGoStatus::Waiting;
      // An id the generation lacks fails as the event is stored (push).
      const uint32_t reason = gen.strings.get(ev.args[0]);
      s->reason = reason == LocalIds::kMissing ? 0 : reason;
      break;
    }
  }
  next.g = kNoGoroutine;
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::go_start(WireEvent& ev, const Generation&, const Context& cur, MState& next) {
  GoID gid = static_cast<GoID>(ev.args[0]);
  Seq seq{gen_, ev.args[1]};
  GState* s = g_state(gid);
  if (!s || s->status != WireGoStatus::Runnable || !seq.succeeds(s->seq)) return false;
  validate_ctx(cur, {Req::MustHave, Req::MustHave, Req::MustNotHave});
  s->status = WireGoStatus::Running;
  s->seq = seq;
  next.g = gid;
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::go_unblock(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  GoID gid = static_cast<GoID>(ev.args[0]);
  Seq seq{gen_, ev.args[1]};
  GState* s = g_state(gid);
  if (!s || s->status != WireGoStatus::Waiting || !seq.succeeds(s->seq)) return false;
  s->status = WireGoStatus::Runnable;
  s->reason = 0;
  s->seq = seq;
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::go_switch(WireEvent& ev, const Generation&, const Context& cur, MState& next) {
  validate_ctx(cur, kUserGo);
  GState* curg = current_g(ev, cur, WireGoStatus::Running);
  GoID nextg = static_cast<GoID>(ev.args[0]);
  Seq seq{gen_, ev.args[1]};
  GState* ng = g_state(nextg);
  if (!ng || ng->status != WireGoStatus::Waiting || !seq.succeeds(ng->seq)) return false;
  push_cold(cur, ev);
  WireEvent synth;
  synth.time = ev.time;
  synth.offset = ev.offset;
  if (ev.type == EvGoSwitch) {
    curg->status = WireGoStatus::Waiting;
    curg->reason = 0;
    synth.type = EvGoBlock;  // no reason, no stack
    push_cold(cur, synth);
  } else {
    delete_g_state(cur.g);  // pool slots are stable: ng stays valid
    synth.type = EvGoDestroy;
    push_cold(cur, synth);
  }
  ng->status = WireGoStatus::Running;
  ng->seq = seq;
  next.g = nextg;
  Context start_ctx = cur;
  start_ctx.g = kNoGoroutine;
  WireEvent start;
  start.type = EvGoStart;
  start.time = ev.time;
  start.offset = ev.offset;
  start.args[0] = static_cast<uint64_t>(nextg);
  start.args[1] = ev.args[1];
  push_cold(start_ctx, start);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::go_syscall_begin(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  validate_ctx(cur, kUserGo);
  GState* s = current_g(ev, cur, WireGoStatus::Running);
  s->status = WireGoStatus::Syscall;
  PState* p = current_p(ev, cur);
  p->status = WireProcStatus::Syscall;
  Seq pseq{gen_, ev.args[0]};
  if (!pseq.succeeds(p->seq)) {
    order_fail(fmt("failed to advance %s: can't make sequence: %s -> %s", evname(ev.type),
                   seq_string(p->seq.n, p->seq.gen).c_str(), seq_string(pseq.n, pseq.gen).c_str()));
  }
  p->seq = pseq;
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::go_syscall_end(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  validate_ctx(cur, kUserGo);
  GState* s = current_g(ev, cur, WireGoStatus::Syscall);
  s->status = WireGoStatus::Running;
  PState* p = current_p(ev, cur);
  if (p->status != WireProcStatus::Syscall) {
    order_fail(fmt("expected proc %lld in state Syscall, but got %s instead", (long long)cur.p,
                   std::string(to_string(p->status)).c_str()));
  }
  p->status = WireProcStatus::Running;
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::go_syscall_end_blocked(WireEvent& ev, const Generation&, const Context& cur, MState& next) {
  if (cur.p != kNoProc) {
    PState* p = current_p(ev, cur);
    if (p->status == WireProcStatus::Syscall) return false;
  }
  validate_ctx(cur, {Req::MustHave, Req::MayHave, Req::MustHave});
  GState* s = current_g(ev, cur, WireGoStatus::Syscall);
  next.g = kNoGoroutine;
  s->status = WireGoStatus::Runnable;
  s->reason = 0;
  push_cold(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::go_create_syscall(WireEvent& ev, const Generation&, const Context& cur, MState& next) {
  validate_ctx(cur, {Req::MustHave, Req::MayHave, Req::MustNotHave});
  GoID newg = static_cast<GoID>(ev.args[0]);
  if (g_state(newg)) order_fail(fmt("tried to create goroutine (%lld) in syscall that already exists", (long long)newg));
  GState* n = new_g_state(newg);
  n->status = WireGoStatus::Syscall;
  n->seq = Seq{gen_, 0};
  next.g = newg;
  push_cold(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::go_destroy_syscall(WireEvent& ev, const Generation&, const Context& cur, MState& next) {
  validate_ctx(cur, {Req::MustHave, Req::MayHave, Req::MustHave});
  GState* s = g_state(cur.g);
  if (!s) order_fail(fmt("event %s for goroutine (%lld) that doesn't exist", evname(ev.type), (long long)cur.g));
  if (s->status != WireGoStatus::Syscall) order_fail(fmt("%s event for goroutine that's not Syscall", evname(ev.type)));
  delete_g_state(cur.g);
  next.g = kNoGoroutine;
  if (cur.p != kNoProc) {
    PState* p = p_state(cur.p);
    if (!p) order_fail(fmt("found invalid proc %lld during %s", (long long)cur.p, evname(ev.type)));
    if (p->status != WireProcStatus::Syscall) {
      order_fail(fmt("proc %lld in unexpected state %s during %s", (long long)cur.p, std::string(to_string(p->status)).c_str(),
                     evname(ev.type)));
    }
    p->status = WireProcStatus::SyscallAbandoned;
    next.p = kNoProc;
    WireEvent steal;
    steal.type = EvProcSteal;
    steal.time = ev.time;
    steal.offset = ev.offset;
    steal.args[0] = static_cast<uint64_t>(cur.p);
    push_cold(cur, steal, static_cast<uint64_t>(WireProcStatus::Syscall));
  }
  push_cold(cur, ev);
  return true;
}

// ---- user annotations ------------------------------------------------------------

[[gnu::always_inline]] inline bool Ordering::user_task_begin(WireEvent& ev, const Generation& gen, const Context& cur, MState&) {
  TaskID id = ev.args[0];
  if (active_tasks_.contains(id)) order_fail(fmt("task ID conflict: %llu", (unsigned long long)id));
  TaskID parent = ev.args[1];
  if (parent == kBackgroundTask) {
    parent = kNoTask;
    ev.args[1] = kNoTask;
  }
  StringID name = lookup_string(gen, ev.args[2], ev);
  active_tasks_[id] = TaskState{name, parent};
  validate_ctx(cur, kUserGo);
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::user_task_end(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  TaskID id = ev.args[0];
  uint64_t parent = kNoTask;
  StringID name = 0;
  if (TaskState* t = active_tasks_.find(id)) {
    parent = t->parent;
    name = t->name;
    active_tasks_.erase(id);
  }
  validate_ctx(cur, kUserGo);
  push(cur, ev, parent, name);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::user_region_begin(WireEvent& ev, const Generation& gen, const Context& cur, MState&) {
  validate_ctx(cur, kUserGo);
  StringID name = lookup_string(gen, ev.args[1], ev);
  GState* s = g_state(cur.g);
  if (!s) order_fail(fmt("encountered EvUserRegionBegin without known state for current goroutine %lld", (long long)cur.g));
  s->regions.push_back({ev.args[0], name});
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::user_region_end(WireEvent& ev, const Generation& gen, const Context& cur, MState&) {
  validate_ctx(cur, kUserGo);
  StringID name = lookup_string(gen, ev.args[1], ev);
  GState* s = g_state(cur.g);
  if (!s) order_fail(fmt("encountered EvUserRegionEnd without known state for current goroutine %lld", (long long)cur.g));
  if (!s->regions.empty()) {
    UserRegion r{ev.args[0], name};
    const UserRegion& top = s->regions.back();
    if (!(top == r)) {
      if (before_naming_) before_naming_();
      order_fail(fmt("misuse of region in goroutine %lld: region end {%llu %s} when the inner-most active region start "
                     "event is {%llu %s}",
                     (long long)s->id, (unsigned long long)r.task, std::string(strings_.get(r.name)).c_str(),
                     (unsigned long long)top.task, std::string(strings_.get(top.name)).c_str()));
    }
    s->regions.pop_back();
  }
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::annotation(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  validate_ctx(cur, kUserGo);
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::heap_metric(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  validate_ctx(cur, {Req::MustHave, Req::MustHave, Req::MayHave});
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::alloc_free(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  validate_ctx(cur, {Req::MustHave, Req::MayHave, Req::MayHave});
  push_cold(cur, ev);
  return true;
}

// ---- GC ------------------------------------------------------------------------

[[gnu::always_inline]] inline bool Ordering::gc_active(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  uint64_t seq = ev.args[0];
  if (gen_ == initial_gen_) {
    if (gc_state_ != GCState::Undetermined) order_fail("GCActive in the first generation isn't first GC event");
    gc_seq_ = seq;
    gc_state_ = GCState::Running;
    push_cold(cur, ev);
    return true;
  }
  if (seq != gc_seq_ + 1) return false;
  if (gc_state_ != GCState::Running) order_fail("encountered GCActive while GC was not in progress");
  gc_seq_ = seq;
  validate_ctx(cur, kUserGo);
  push_cold(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::gc_begin(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  uint64_t seq = ev.args[0];
  if (gc_state_ == GCState::Undetermined) {
    gc_seq_ = seq;
    gc_state_ = GCState::Running;
    push_cold(cur, ev);
    return true;
  }
  if (seq != gc_seq_ + 1) return false;
  if (gc_state_ == GCState::Running) order_fail("encountered GCBegin while GC was already in progress");
  gc_seq_ = seq;
  gc_state_ = GCState::Running;
  validate_ctx(cur, kUserGo);
  push_cold(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::gc_end(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  uint64_t seq = ev.args[0];
  if (seq != gc_seq_ + 1) return false;
  if (gc_state_ == GCState::NotRunning) order_fail("encountered GCEnd when GC was not in progress");
  if (gc_state_ == GCState::Undetermined) order_fail("encountered GCEnd when GC was in an undetermined state");
  gc_seq_ = seq;
  gc_state_ = GCState::NotRunning;
  validate_ctx(cur, kUserGo);
  push_cold(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::gc_sweep_begin(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  validate_ctx(cur, {Req::MustHave, Req::MustHave, Req::MayHave});
  // Go dereferences a missing proc here and panics; we report it.
  PState* p = current_p(ev, cur);
  p->ranges.begin(RangeType{range_start_type(ev.type), 0, 0});
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::gc_sweep_active(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  ProcID pid = static_cast<ProcID>(ev.args[0]);
  PState* p = p_state(pid);
  if (!p) order_fail(fmt("encountered GCSweepActive for unknown proc %lld", (long long)pid));
  p->ranges.active(RangeType{range_start_type(ev.type), 0, 0}, gen_ == initial_gen_);
  push_cold(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::gc_sweep_end(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  validate_ctx(cur, {Req::MustHave, Req::MustHave, Req::MayHave});
  PState* p = current_p(ev, cur);
  p->ranges.end(ev.type);
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::go_range_begin(WireEvent& ev, const Generation& gen, const Context& cur, MState&) {
  validate_ctx(cur, kUserGo);
  uint64_t desc = 0;
  StringID desc_global = 0;
  if (ev.type == EvSTWBegin) {
    desc = ev.args[0];
    uint32_t s = gen.strings.get(desc);
    desc_global = desc == 0 || s == LocalIds::kMissing ? 0 : s;
  }
  GState* s = g_state(cur.g);
  if (!s) {
    order_fail(fmt("encountered event of type %d without known state for current goroutine %lld", ev.type, (long long)cur.g));
  }
  s->ranges.begin(RangeType{range_start_type(ev.type), desc, desc_global});
  push(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::go_range_active(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  GoID gid = static_cast<GoID>(ev.args[0]);
  GState* s = g_state(gid);
  if (!s) order_fail(fmt("uninitialized goroutine %lld found during %s", (long long)gid, evname(ev.type)));
  s->ranges.active(RangeType{range_start_type(ev.type), 0, 0}, gen_ == initial_gen_);
  push_cold(cur, ev);
  return true;
}

[[gnu::always_inline]] inline bool Ordering::go_range_end(WireEvent& ev, const Generation&, const Context& cur, MState&) {
  validate_ctx(cur, kUserGo);
  GState* s = g_state(cur.g);
  if (!s) {
    order_fail(fmt("encountered event of type %d without known state for current goroutine %lld", ev.type, (long long)cur.g));
  }
  RangeType r = s->ranges.end(ev.type);
  if (ev.type == EvSTWEnd) ev.args[0] = r.desc;
  push(cur, ev, 0, r.desc_global);
  return true;
}

// ---- dispatch ----------------------------------------------------------------

// In WebAssembly a handler is called, not inlined into the merge loop: V8's optimizing
// compiler in Node 20 allocates registers poorly in one function that holds every
// handler (spills around each), and the large trace read 12% faster in Node with the
// handlers apart. The context goes as scalars so that the loop keeps it in registers.
template <Ordering::Handler h>
[[gnu::noinline]] bool Ordering::handle_out_of_line(WireEvent& ev, const Generation& gen, ThreadID m, ProcID p, GoID g, MState& next) {
  return (this->*h)(ev, gen, Context{m, p, g}, next);
}

template <Ordering::Handler h>
[[gnu::always_inline]] inline bool Ordering::handle(WireEvent& ev, const Generation& gen, const Context& cur, MState& next) {
#ifdef __EMSCRIPTEN__
  return handle_out_of_line<h>(ev, gen, cur.m, cur.p, cur.g, next);
#else
  return (this->*h)(ev, gen, cur, next);
#endif
}

[[gnu::always_inline]] inline bool Ordering::advance(WireEvent& ev, const Generation& gen, ThreadID m, void*& m_cache) {
  // Events of batches without a thread have no context and change none.
  MState* ms;
  if (m != kNoThread) [[likely]] {
    ms = static_cast<MState*>(m_cache);
    if (!ms) ms = m_state(m);
    if (!ms) ms = new_m_state(m);
    m_cache = ms;  // m_pool_ is a deque: the pointer stays valid
  } else {
    no_thread_ = MState{};
    ms = &no_thread_;
  }
  const Context cur{m, ms->p, ms->g};
  // Handlers write the thread's new binding straight into its state, and only once
  // they accept the event.
  MState& next = *ms;
  bool ok;
  // One switch over the event type: the handlers inline into it (natively).
  switch (ev.type) {
    case EvProcsChange:
    case EvGoLabel:
    case EvUserLog: ok = handle<&Ordering::annotation>(ev, gen, cur, next); break;
    case EvProcStart: ok = handle<&Ordering::proc_start>(ev, gen, cur, next); break;
    case EvProcStop: ok = handle<&Ordering::proc_stop>(ev, gen, cur, next); break;
    case EvProcSteal: ok = handle<&Ordering::proc_steal>(ev, gen, cur, next); break;
    case EvProcStatus: ok = handle<&Ordering::proc_status>(ev, gen, cur, next); break;
    case EvGoCreate:
    case EvGoCreateBlocked: ok = handle<&Ordering::go_create>(ev, gen, cur, next); break;
    case EvGoCreateSyscall: ok = handle<&Ordering::go_create_syscall>(ev, gen, cur, next); break;
    case EvGoStart: ok = handle<&Ordering::go_start>(ev, gen, cur, next); break;
    case EvGoDestroy:
    case EvGoStop:
    case EvGoBlock: ok = handle<&Ordering::go_stop_exec>(ev, gen, cur, next); break;
    case EvGoDestroySyscall: ok = handle<&Ordering::go_destroy_syscall>(ev, gen, cur, next); break;
    case EvGoUnblock: ok = handle<&Ordering::go_unblock>(ev, gen, cur, next); break;
    case EvGoSyscallBegin: ok = handle<&Ordering::go_syscall_begin>(ev, gen, cur, next); break;
    case EvGoSyscallEnd: ok = handle<&Ordering::go_syscall_end>(ev, gen, cur, next); break;
    case EvGoSyscallEndBlocked: ok = handle<&Ordering::go_syscall_end_blocked>(ev, gen, cur, next); break;
    case EvGoStatus:
    case EvGoStatusStack: ok = handle<&Ordering::go_status>(ev, gen, cur, next); break;
    case EvSTWBegin:
    case EvGCMarkAssistBegin: ok = handle<&Ordering::go_range_begin>(ev, gen, cur, next); break;
    case EvSTWEnd:
    case EvGCMarkAssistEnd: ok = handle<&Ordering::go_range_end>(ev, gen, cur, next); break;
    case EvGCMarkAssistActive: ok = handle<&Ordering::go_range_active>(ev, gen, cur, next); break;
    case EvGCActive: ok = handle<&Ordering::gc_active>(ev, gen, cur, next); break;
    case EvGCBegin: ok = handle<&Ordering::gc_begin>(ev, gen, cur, next); break;
    case EvGCEnd: ok = handle<&Ordering::gc_end>(ev, gen, cur, next); break;
    case EvGCSweepActive: ok = handle<&Ordering::gc_sweep_active>(ev, gen, cur, next); break;
    case EvGCSweepBegin: ok = handle<&Ordering::gc_sweep_begin>(ev, gen, cur, next); break;
    case EvGCSweepEnd: ok = handle<&Ordering::gc_sweep_end>(ev, gen, cur, next); break;
    case EvHeapAlloc:
    case EvHeapGoal: ok = handle<&Ordering::heap_metric>(ev, gen, cur, next); break;
    case EvUserTaskBegin: ok = handle<&Ordering::user_task_begin>(ev, gen, cur, next); break;
    case EvUserTaskEnd: ok = handle<&Ordering::user_task_end>(ev, gen, cur, next); break;
    case EvUserRegionBegin: ok = handle<&Ordering::user_region_begin>(ev, gen, cur, next); break;
    case EvUserRegionEnd: ok = handle<&Ordering::user_region_end>(ev, gen, cur, next); break;
    case EvGoSwitch:
    case EvGoSwitchDestroy: ok = handle<&Ordering::go_switch>(ev, gen, cur, next); break;
    default:
      if (ev.type >= EvSpan && ev.type <= EvGoroutineStackFree) {
        ok = handle<&Ordering::alloc_free>(ev, gen, cur, next);
        break;
      }
      order_fail(fmt("bad event type found while ordering: %d", ev.type));
  }
  if (ok && tracking_) record_touched(ev, cur, *ms);
  return ok;
}

}  // namespace gotrace::v2
