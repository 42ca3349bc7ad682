#include "gotrace/event_view.h"

#include <array>

namespace gotrace {
using namespace v2;

namespace {

constexpr std::array<EventKind, 256> build_kinds() {
  std::array<EventKind, 256> k{};
  k[EvCPUSample] = EventKind::StackSample;
  k[EvProcsChange] = k[EvHeapAlloc] = k[EvHeapGoal] = EventKind::Metric;
  for (uint8_t t : {EvProcStart, EvProcStop, EvProcSteal, EvProcStatus, EvGoCreate, EvGoCreateSyscall, EvGoStart,
                    EvGoDestroy, EvGoDestroySyscall, EvGoStop, EvGoBlock, EvGoUnblock, EvGoSyscallBegin,
                    EvGoSyscallEnd, EvGoSyscallEndBlocked, EvGoStatus, EvGoSwitch, EvGoSwitchDestroy,
                    EvGoCreateBlocked, EvGoStatusStack}) {
    k[t] = EventKind::StateTransition;
  }
  k[EvSTWBegin] = k[EvGCBegin] = k[EvGCSweepBegin] = k[EvGCMarkAssistBegin] = EventKind::RangeBegin;
  k[EvGCActive] = k[EvGCSweepActive] = k[EvGCMarkAssistActive] = EventKind::RangeActive;
  k[EvSTWEnd] = k[EvGCEnd] = k[EvGCSweepEnd] = k[EvGCMarkAssistEnd] = EventKind::RangeEnd;
  k[EvGoLabel] = EventKind::Label;
  k[EvUserTaskBegin] = EventKind::TaskBegin;
  k[EvUserTaskEnd] = EventKind::TaskEnd;
  k[EvUserRegionBegin] = EventKind::RegionBegin;
  k[EvUserRegionEnd] = EventKind::RegionEnd;
  k[EvUserLog] = EventKind::Log;
  for (int t = EvSpan; t <= EvGoroutineStackFree; t++) k[t] = EventKind::Experimental;
  k[EvSyncOut] = EventKind::Sync;
  return k;
}

constexpr std::array<EventKind, 256> kKinds = build_kinds();

}  // namespace

EventKind kind_of_type(uint8_t type) { return kKinds[type]; }

Metric EventView::metric() const {
  switch (type()) {
    case EvProcsChange: return {"/sched/gomaxprocs:threads", s_->ab(i_)};
    case EvHeapAlloc: return {"/memory/classes/heap/objects:bytes", s_->ab(i_)};
    case EvHeapGoal: return {"/gc/heap/goal:bytes", s_->ab(i_)};
  }
  return {};
}

Label EventView::label() const {
  return {str(s_->a(i_)), ResourceID{ResourceKind::Goroutine, goroutine()}};
}

Range EventView::range() const {
  switch (type()) {
    case EvSTWBegin:
    case EvSTWEnd: return {"stop-the-world (" + std::string(str(s_->a(i_))) + ")", range_scope()};
    case EvGCBegin:
    case EvGCActive:
    case EvGCEnd: return {"GC concurrent mark phase", range_scope()};
    case EvGCSweepBegin:
    case EvGCSweepActive:
    case EvGCSweepEnd: return {"GC incremental sweep", range_scope()};
    case EvGCMarkAssistBegin:
    case EvGCMarkAssistEnd:
    case EvGCMarkAssistActive: return {"GC mark assist", range_scope()};
  }
  return {};
}

ResourceID EventView::range_scope() const {
  switch (type()) {
    case EvSTWBegin:
    case EvSTWEnd:
    case EvGCMarkAssistBegin:
    case EvGCMarkAssistEnd: return {ResourceKind::Goroutine, goroutine()};
    case EvGCSweepBegin:
    case EvGCSweepActive:
    case EvGCSweepEnd: return {ResourceKind::Proc, proc()};  // Go 1.23 uses the context's proc even for GCSweepActive
    case EvGCMarkAssistActive: return {ResourceKind::Goroutine, static_cast<int64_t>(s_->ab(i_))};
  }
  return {ResourceKind::None, 0};
}

RangeAttributes EventView::range_attributes() const {
  RangeAttributes out;
  if (type() != EvGCSweepEnd) return out;
  uint32_t k = s_->a(i_);
  out.items = {RangeAttribute{"bytes swept", s_->extra(k)}, RangeAttribute{"bytes reclaimed", s_->extra(k + 1)}};
  out.count = 2;
  return out;
}

Task EventView::task() const {
  uint32_t k = s_->a(i_);
  return {s_->extra(k), s_->extra(k + 1), str(static_cast<StringID>(s_->extra(k + 2)))};
}

Region EventView::region() const { return {s_->ab(i_), str(s_->c(i_))}; }

Log EventView::log() const {
  uint32_t k = s_->a(i_);
  const auto category = static_cast<StringID>(s_->extra(k + 1)), message = static_cast<StringID>(s_->extra(k + 2));
  return {s_->extra(k), str(category), str(message), category, message};
}

StateTransition EventView::state_transition() const {
  StateTransition st;
  auto go = [&](GoID id, GoState from, GoState to) {
    st.resource = {ResourceKind::Goroutine, id};
    st.old_state = static_cast<uint8_t>(from);
    st.new_state = static_cast<uint8_t>(to);
  };
  auto proc = [&](ProcID id, ProcState from, ProcState to) {
    st.resource = {ResourceKind::Proc, id};
    st.old_state = static_cast<uint8_t>(from);
    st.new_state = static_cast<uint8_t>(to);
  };
  auto own_stack = [&] {
    st.stack = stack();
    st.has_stack = st.stack != 0;
  };
  const auto arg_g = static_cast<GoID>(s_->ab(i_));
  switch (type()) {
    case EvProcStart:
      proc(static_cast<ProcID>(s_->ab(i_)), ProcState::Idle, ProcState::Running);
      break;
    case EvProcStop:
      proc(this->proc(), ProcState::Running, ProcState::Idle);
      break;
    case EvProcSteal: {
      auto old = static_cast<WireProcStatus>(s_->c(i_));
      proc(static_cast<ProcID>(s_->ab(i_)),
           old == WireProcStatus::SyscallAbandoned ? ProcState::Idle : ProcState::Running, ProcState::Idle);
      break;
    }
    case EvProcStatus:
      proc(static_cast<ProcID>(s_->ab(i_)), static_cast<ProcState>(s_->c(i_) & 0xff),
           to_proc_state(static_cast<WireProcStatus>(s_->c(i_) >> 8)));
      break;
    case EvGoCreate:
    case EvGoCreateBlocked:
      go(arg_g, GoState::NotExist, type() == EvGoCreateBlocked ? GoState::Waiting : GoState::Runnable);
      st.stack = s_->c(i_);
      st.has_stack = true;  // even without a start stack (see event_view.h)
      break;
    case EvGoCreateSyscall:
      go(arg_g, GoState::NotExist, GoState::Syscall);
      break;
    case EvGoStart:
      go(arg_g, GoState::Runnable, GoState::Running);
      break;
    case EvGoDestroy:
      go(goroutine(), GoState::Running, GoState::NotExist);
      own_stack();
      break;
    case EvGoDestroySyscall:
      go(goroutine(), GoState::Syscall, GoState::NotExist);
      break;
    case EvGoStop:
      go(goroutine(), GoState::Running, GoState::Runnable);
      st.reason = str(s_->a(i_));
      own_stack();
      break;
    case EvGoBlock:
      go(goroutine(), GoState::Running, GoState::Waiting);
      st.reason = str(s_->a(i_));
      own_stack();
      break;
    case EvGoUnblock:
    case EvGoSwitch:
    case EvGoSwitchDestroy:
      go(arg_g, GoState::Waiting, GoState::Runnable);
      break;
    case EvGoSyscallBegin:
      go(goroutine(), GoState::Running, GoState::Syscall);
      own_stack();
      break;
    case EvGoSyscallEnd:
      go(goroutine(), GoState::Syscall, GoState::Running);
      own_stack();
      break;
    case EvGoSyscallEndBlocked:
      go(goroutine(), GoState::Syscall, GoState::Runnable);
      own_stack();
      break;
    case EvGoStatus:
    case EvGoStatusStack:
      go(arg_g, static_cast<GoState>(s_->c(i_) & 0xff), to_go_state(static_cast<WireGoStatus>((s_->c(i_) >> 8) & 0xff)));
      if (const StringID why = s_->status_reason(i_)) st.reason = str(why);
      // Since Go 1.26 the status's stack is the goroutine's, so its transition's too
      // (in a store read as Go 1.27 reads it; Go 1.23 gave it none).
      if (s_->format.leading_syncs) own_stack();
      break;
  }
  return st;
}

Experimental EventView::experimental() const {
  const EventSpec& sp = spec(type());
  Experimental e;
  e.name = sp.name;
  uint32_t k = s_->a(i_);
  for (int i = 1; i < sp.nargs; i++) {
    e.arg_names.push_back(sp.args[i]);
    e.args.push_back(s_->extra(k + i - 1));
  }
  return e;
}

SyncInfo EventView::sync() const {
  SyncInfo info;
  const uint32_t k = s_->a(i_);
  info.n = uint64_t{k} + 1 + s_->generations_before;  // one Sync per generation, and a final one
  if (k < s_->generations.size()) info.clock = s_->generations[k].clock;
  return info;
}

}  // namespace gotrace
