// The timeline's state rules, shared by the index (timeline_build.cpp) and the whole
// trace's overview made in a streamed read (timeline_overview.cpp).
#pragma once

#include <array>

#include "gotrace/event_slices.h"
#include "gotrace/event_view.h"
#include "gotrace/flat_map.h"
#include "gotrace/id_map.h"
#include "timeline_data.h"
#include "timeline_families.h"
#include "analysis/transition.h"

namespace gotrace::analysis::detail {

using namespace v2;

inline bool executing(GoState s) { return s == GoState::Running || s == GoState::Syscall; }

// The state rules, after cmd/trace's generators: which events change each proc, thread,
// range and goroutine track, told to `Tracks` (per kind, emit(id, event, slot, goroutine)
// for a change: the family's state slot from then on, kGap for none, and the goroutine a
// proc or thread runs,
// note(id) for a track with no change yet, retire(id) for one with no more, aux(id) for
// a goroutine's start function) and each event to `Series` (timeline_data.h's
// SeriesBuilder). The index keeps the events; the overview (timeline_overview.h) reads
// each change as it comes.
// A goroutine's start function (a StringID; 0: none yet), as the goroutine summary names
// it: the root frame of the first transition stack since the goroutine was created (a
// reused id is named again).
inline void name_goroutine(const EventStore& s, uint32_t& func, const StateTransition& st) {
  if (st.go_from() == GoState::NotExist || st.go_from() == GoState::Undetermined) func = 0;
  if (func != 0 || !st.has_stack || st.stack == 0) return;
  auto frames = s.stacks.frames(st.stack);
  if (!frames.empty()) func = s.stacks.frame(frames.back()).func;
}

template <class Tracks, class Series>
class TimelineRules {
 public:
  TimelineRules(const EventStore& s, Tracks& out, Series& series, bool threads)
      : s_(s), out_(out), series_(series), threads_(threads) {}

  void run(size_t from, size_t to) {
    // A chunk's columns at a time (EventStore::ChunkColumns), in slices (event_slices.h).
    for_each_event_slice_between(from, to, [&](size_t a, size_t b) {
      s_.for_each_chunk(a, b, [&](const EventStore::ChunkColumns& col, size_t first, size_t end) {
        run_events(col, first, end);
      });
    });
  }
  void finish() { series_.finish(); }

 private:
  void run_events(const EventStore::ChunkColumns& col, size_t from, size_t to) {
    const auto& kinds = event_kinds();
    for (size_t i = from; i < to; i++) {
      const uint8_t type = col.type(i);
      const auto e = static_cast<uint32_t>(i);
      series_.before(i, col.time(i));
      switch (kinds[type]) {
        case EventKind::StateTransition: {
          const StateTransition st = read_transition(s_, col, e, type);
          series_.transition(st);
          transition(e, st);
          break;
        }
        case EventKind::RangeBegin:
        case EventKind::RangeActive:
        case EventKind::RangeEnd: range(e, type); break;
        case EventKind::Metric: series_.metric(type, col.ab(i)); break;
        default: break;
      }
      series_.after(i);
    }
  }

  struct ExecLane {
    int8_t slot = kGap;
    GoID g = kNoGoroutine;
  };
  // Proc or thread -> its current slice. Their ids are small, so an array answers for
  // nearly all (no hashing on the path every transition takes); a hash map the rest.
  class ExecLanes {
   public:
    ExecLane& operator[](int64_t id) {
      const auto k = static_cast<uint64_t>(id);
      if (k >= kDense) return sparse_[k];
      if (k >= dense_.size()) dense_.resize(std::max<size_t>(k + 1, dense_.size() * 2));
      return dense_[k];
    }
    ExecLane* find(int64_t id) {
      const auto k = static_cast<uint64_t>(id);
      if (k >= kDense) return sparse_.find(k);
      return k < dense_.size() ? &dense_[k] : nullptr;
    }

   private:
    static constexpr uint64_t kDense = 4096;
    std::vector<ExecLane> dense_;
    FlatMap<ExecLane> sparse_;
  };
  // The goroutines executing on procs or threads, and what each of those shows.
  struct ExecView {
    TrackKind kind;
    IdMap<int64_t, -1> on;  // goroutine -> proc or thread it executes on
    ExecLanes lanes;
  };

  void emit(TrackKind k, int64_t id, uint32_t e, int slot, GoID g) { out_[static_cast<size_t>(k)].emit(id, e, slot, g); }

  void transition(uint32_t e, const StateTransition& st) {
    if (st.resource.kind == ResourceKind::Proc) {
      // Every proc of the trace has a track, as in cmd/trace and `gotrace stats`, also
      // one that ran no goroutine (idle throughout, or only running the scheduler); so
      // has the thread that started or stopped it.
      out_[static_cast<size_t>(TrackKind::Proc)].note(st.resource.id);
      if (threads_ && s_.context(e).m >= 0) out_[static_cast<size_t>(TrackKind::Thread)].note(s_.context(e).m);
      if (st.proc_from() != st.proc_to() && st.proc_to() == ProcState::Idle) proc_lost(e, st.resource.id);
      if (ExecFamily::proc_in_syscall_from_before(s_, e)) {
        const Context& c = s_.context(e);
        exec(procs_, e, c.g, GoState::Undetermined, GoState::Syscall, st.resource.id);
        if (threads_) exec(threads_view_, e, c.g, GoState::Undetermined, GoState::Syscall, c.m);
      }
      return;
    }
    if (st.resource.kind != ResourceKind::Goroutine) return;
    // As cmd/trace's threadgen: every thread a goroutine's transition happened on has a
    // track, also one that only unblocks goroutines (the netpoller, sysmon) or reports
    // their statuses, and shows nothing running.
    if (threads_ && s_.context(e).m >= 0) out_[static_cast<size_t>(TrackKind::Thread)].note(s_.context(e).m);
    if (st.old_state == st.new_state) return;
    const GoID g = st.resource.id;
    auto& gs = out_[static_cast<size_t>(TrackKind::Goroutine)];
    gs.note(g);  // its lane: build_goroutine_lanes
    name(gs.aux(g), st);
    if (st.go_to() == GoState::NotExist) out_[static_cast<size_t>(TrackKind::MarkAssist)].retire(g);
    const Context& c = s_.context(e);
    exec(procs_, e, g, st.go_from(), st.go_to(), c.p);
    if (threads_) exec(threads_view_, e, g, st.go_from(), st.go_to(), c.m);
  }

  void name(uint32_t& func, const StateTransition& st) { name_goroutine(s_, func, st); }

  // gState.start / stop / block / syscallBegin on a proc or thread. Every event recorded
  // here reads back (ExecFamily) as the state recorded. (A goroutine that started
  // elsewhere without stopping first — not seen in valid traces — leaves its old track
  // showing it until that track's next change: no event there could say otherwise.)
  void exec(ExecView& v, uint32_t e, GoID g, GoState from, GoState to, int64_t where) {
    const int64_t cur = v.on.get(g);
    if (executing(to)) {
      const int64_t target = where >= 0 ? where : cur;
      if (target < 0) return;  // a syscall with no proc: nowhere to draw it
      const int8_t slot = to == GoState::Running ? 0 : 1;
      ExecLane& lane = v.lanes[target];
      if (lane.slot != slot || lane.g != g) {
        emit(v.kind, target, e, slot, g);
        lane = {slot, g};
      }
      v.on.set(g, target);
    } else if (executing(from) && cur >= 0) {
      ExecLane* lane = v.lanes.find(cur);
      if (lane && lane->slot != kGap && lane->g == g) {
        emit(v.kind, cur, e, kGap, kNoGoroutine);
        *lane = {};
      }
      v.on.erase(g);
    }
  }

  // A proc stopped or was stolen: a goroutine still in a syscall on it keeps its thread
  // but no longer has the proc (procgen.go's inSyscall).
  void proc_lost(uint32_t e, ProcID p) {
    ExecLane* lane = procs_.lanes.find(p);
    if (!lane || lane->slot == kGap) return;
    emit(TrackKind::Proc, p, e, kGap, kNoGoroutine);
    if (procs_.on.get(lane->g) == p) procs_.on.erase(lane->g);
    *lane = {};
  }

  void range(uint32_t e, uint8_t type) {
    TrackKind k;
    int64_t id = 0;
    switch (type) {
      case EvGCBegin:
      case EvGCActive:
      case EvGCEnd: k = TrackKind::GC; break;
      case EvSTWBegin:
      case EvSTWEnd: k = TrackKind::STW; break;
      case EvGCSweepBegin:
      case EvGCSweepActive:
      case EvGCSweepEnd:
        k = TrackKind::Sweep;
        id = s_.context(e).p;  // Go 1.23's scope for all three (event_view.h)
        break;
      case EvGCMarkAssistActive:
        k = TrackKind::MarkAssist;
        id = static_cast<int64_t>(s_.ab(e));
        break;
      case EvGCMarkAssistBegin:
      case EvGCMarkAssistEnd:
        k = TrackKind::MarkAssist;
        id = s_.context(e).g;
        break;
      default: return;
    }
    if (id < 0) return;
    uint8_t& active = active_[static_cast<size_t>(k)][static_cast<uint64_t>(id)];
    const bool begins = event_kinds()[type] != EventKind::RangeEnd;
    if (begins == (active != 0)) return;  // nested begin or end without begin: no change
    emit(k, id, e, begins ? 0 : kGap, kNoGoroutine);
    active = begins;
  }

  const EventStore& s_;
  Tracks& out_;
  Series& series_;
  bool threads_;
  ExecView procs_{TrackKind::Proc, {}, {}};
  ExecView threads_view_{TrackKind::Thread, {}, {}};
  std::array<FlatMap<uint8_t>, kTrackKinds> active_;
};

}  // namespace gotrace::analysis::detail
