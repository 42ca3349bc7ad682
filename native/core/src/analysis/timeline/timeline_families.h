// What a lane's entries mean. A lane stores only event indices; its family reads, from
// the event alone, the state that begins there (or a gap), the slice's detail, and
// whether the first entry stands for a state already under way when the trace began
// (then its slice starts at the trace's start, as cmd/trace back-dates it).
#pragma once

#include <array>

#include "gotrace/analysis/timeline.h"
#include "gotrace/event_slices.h"
#include "gotrace/event_store.h"
#include "gotrace/event_view.h"
#include "gotrace/v2_spec.h"
#include "analysis/event_kinds.h"
#include "analysis/transition.h"

namespace gotrace::analysis::detail {

inline constexpr int kGap = -1;

// The entries of the goroutines' tracks among events [from, to), in order: every
// transition of a goroutine that changes its state (gstate.go), as f(event, type,
// transition, the event's chunk's columns). In slices (event_slices.h).
template <class F>
void for_each_goroutine_change(const EventStore& s, size_t from, size_t to, F&& f) {
  const auto& kinds = event_kinds();
  // A chunk's columns at a time (EventStore::ChunkColumns), in slices (event_slices.h).
  auto changes = [&](const EventStore::ChunkColumns& col, size_t first, size_t end) {
    for (size_t i = first; i < end; i++) {
      const uint8_t type = col.type(i);
      if (kinds[type] != EventKind::StateTransition) continue;
      const StateTransition st = read_transition(s, col, i, type);
      if (st.resource.kind == ResourceKind::Goroutine && st.old_state != st.new_state)
        f(static_cast<uint32_t>(i), type, st, col);
    }
  };
  for_each_event_slice_between(from, to, [&](size_t first, size_t end) { s.for_each_chunk(first, end, changes); });
}

// The families read events from the store or, in a pass, from their chunk's columns
// (EventStore::ChunkColumns): `Events` is either.
template <class Events>
GoState status_new_state(const Events& s, uint32_t e) {
  return to_go_state(static_cast<WireGoStatus>((s.c(e) >> 8) & 0xff));
}
template <class Events>
bool status_from_undetermined(const Events& s, uint32_t e) {
  return static_cast<GoState>(s.c(e) & 0xff) == GoState::Undetermined;
}
inline bool is_go_status(uint8_t type) { return type == v2::EvGoStatus || type == v2::EvGoStatusStack; }

// Goroutine tracks: one entry per state change of the goroutine.
struct GoroutineFamily {
  static constexpr std::array<SliceState, 4> kStates = {SliceState::Running, SliceState::Runnable, SliceState::Waiting,
                                                        SliceState::Syscall};
  static int slot_of(GoState g) {
    switch (g) {
      case GoState::Running: return 0;
      case GoState::Runnable: return 1;
      case GoState::Waiting: return 2;
      case GoState::Syscall: return 3;
      default: return kGap;
    }
  }
  template <class Events>
  static int slot(const Events& s, uint32_t e, int64_t& detail) {
    detail = 0;
    using namespace v2;
    switch (s.type(e)) {
      case EvGoCreate:
      case EvGoUnblock:
      case EvGoSwitch:
      case EvGoSwitchDestroy:
      case EvGoSyscallEndBlocked: return 1;
      case EvGoStop: detail = s.a(e); return 1;
      case EvGoBlock: detail = s.a(e); return 2;
      case EvGoCreateBlocked: return 2;
      case EvGoStart:
      case EvGoSyscallEnd: return 0;
      case EvGoCreateSyscall:
      case EvGoSyscallBegin: return 3;
      case EvGoStatus:
      case EvGoStatusStack: {
        const int k = slot_of(status_new_state(s, e));
        // Runnable or waiting since before the store's first generation, for this reason.
        if (k == 1 || k == 2) detail = s.status_reason(e);
        return k;
      }
      default: return kGap;
    }
  }
  template <class Events>
  static bool backdated(const Events& s, uint32_t e) {
    return is_go_status(s.type(e)) && status_from_undetermined(s, e);
  }
};

// Proc and thread tracks: the goroutine they run, running or in a syscall.
struct ExecFamily {
  static constexpr std::array<SliceState, 2> kStates = {SliceState::Running, SliceState::Syscall};
  static int slot(const EventStore& s, uint32_t e, int64_t& detail) {
    using namespace v2;
    switch (s.type(e)) {
      case EvGoStart: detail = static_cast<int64_t>(s.ab(e)); return 0;
      case EvGoSyscallEnd: detail = s.context(e).g; return 0;
      case EvGoSyscallBegin: detail = s.context(e).g; return 1;
      case EvGoCreateSyscall: detail = static_cast<int64_t>(s.ab(e)); return 1;
      case EvGoStatus:
      case EvGoStatusStack: {
        detail = static_cast<int64_t>(s.ab(e));
        GoState to = status_new_state(s, e);
        return to == GoState::Running ? 0 : to == GoState::Syscall ? 1 : kGap;
      }
      case EvProcStatus:  // an entry only when proc_in_syscall_from_before (timeline_build.cpp)
        if (proc_in_syscall_from_before(s, e)) {
          detail = s.context(e).g;
          return 1;
        }
        detail = 0;
        return kGap;
      default: detail = 0; return kGap;
    }
  }
  static bool backdated(const EventStore& s, uint32_t e) {
    return GoroutineFamily::backdated(s, e) || proc_in_syscall_from_before(s, e);
  }
  // A proc's first status (a ProcStatus from Undetermined; c = old state | wire status
  // << 8) saying its thread has been in a syscall, with its goroutine, since before the
  // store's first generation: in a run of generations read again that goroutine may have
  // no event at all, and this status is then all that says so.
  static bool proc_in_syscall_from_before(const EventStore& s, uint32_t e) {
    return s.type(e) == v2::EvProcStatus && static_cast<ProcState>(s.c(e) & 0xff) == ProcState::Undetermined &&
           static_cast<WireProcStatus>(s.c(e) >> 8) == WireProcStatus::Syscall && s.context(e).g >= 0;
  }
};

// Range tracks (GC, STW, sweep, mark assist): active between a begin and its end.
struct RangeFamily {
  static constexpr std::array<SliceState, 1> kStates = {SliceState::Active};
  static int slot(const EventStore& s, uint32_t e, int64_t& detail) {
    detail = 0;
    switch (event_kinds()[s.type(e)]) {
      case EventKind::RangeBegin:
        if (s.type(e) == v2::EvSTWBegin) detail = s.a(e);
        return 0;
      case EventKind::RangeActive: return 0;
      default: return kGap;
    }
  }
  // A range already active when the trace began (Go's viewer: before the first Sync).
  static bool backdated(const EventStore& s, uint32_t e) { return event_kinds()[s.type(e)] == EventKind::RangeActive; }
};

// Calls f with the family of a track kind.
template <class F>
decltype(auto) with_family(TrackKind kind, F&& f) {
  switch (kind) {
    case TrackKind::Goroutine: return f(GoroutineFamily{});
    case TrackKind::Proc:
    case TrackKind::Thread: return f(ExecFamily{});
    default: return f(RangeFamily{});
  }
}

}  // namespace gotrace::analysis::detail
