// Go's Summarizer (internal/trace/summary.go) as a consumer of run_event_pass
// (event_pass.h): summarize() runs it alone, analyze() beside the MMU's builders.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "gotrace/analysis/summary.h"
#include "gotrace/event_view.h"
#include "id_map.h"
#include "range_names.h"
#include "string_ids.h"

namespace gotrace::analysis::detail {

class Summarizer {
 public:
  Summarizer(const EventStore& s, const RangeNames& names);

  void begin_event(Time t) {
    if (!any_) {
      any_ = true;
      first_ts_ = t;
    }
    if (sync_ts_ == 0) sync_ts_ = t;
    last_ts_ = t;
  }
  void end_event(Time) {}
  void sync(Time t) { sync_ts_ = t; }  // for RangeActive
  void transition(size_t i, Time t, const Context& ctx, const StateTransition& st) {
    if (st.resource.kind == ResourceKind::Goroutine) {
      goroutine_transition(i, t, ctx, st);
    } else if (st.resource.kind == ResourceKind::Proc) {
      proc_transition(t, st);
    }
  }
  void range(size_t i, EventKind kind, Time t, const Context& ctx, const RangeRef& r);
  void other(size_t i, EventKind kind, Time t, const Context& ctx) {
    switch (kind) {
      case EventKind::RegionBegin:
      case EventKind::RegionEnd:
      case EventKind::TaskBegin:
      case EventKind::TaskEnd:
      case EventKind::Log:
        annotation(i, kind, t, ctx);
        break;
      default:
        break;
    }
  }

  Summary finish();

  // What few goroutines need: ranges in progress, regions.
  struct Extra {
    std::vector<std::pair<uint32_t, Time>> last_range;  // Go's lastRangeTime
    std::vector<uint32_t> active_regions;               // stack of indices into regions_
    // Ended regions: (start time, or INT64_MIN without a start; index into regions_), so
    // that sorting them by start does not need the regions themselves.
    std::vector<std::pair<Time, uint32_t>> regions;
  };

  // One goroutine while the events go by: Go's GoroutineSummary with its private
  // goroutineSummary (the pending state). With hundreds of thousands of goroutines the
  // pass is bound by memory: the record is three cache lines, and what most transitions
  // touch is in the first.
  struct alignas(64) G {
    // Pending: when the goroutine entered its current state.
    Time last_start = 0;
    Time last_runnable = 0;
    Time last_block = 0;
    Time last_syscall = 0;
    Time last_syscall_block = 0;
    // Go's GoroutineExecStats (as ExecStats).
    int64_t exec = 0;
    int64_t sched_wait = 0;
    uint32_t last_block_reason = 0;
    StringID name = 0;  // start function (the string table's id of its name; 0 = "")
    int64_t syscall = 0;
    int64_t syscall_block = 0;
    int64_t total = 0;
    std::vector<StatEntry> block;
    GoID id = 0;
    Time creation_time = 0;
    Time start_time = 0;
    Time end_time = 0;
    uint64_t pc = 0;
    std::vector<StatEntry> ranges;
    std::unique_ptr<Extra> extra;

    Extra& x() {
      if (!extra) extra = std::make_unique<Extra>();
      return *extra;
    }
    bool in_region() const { return extra && !extra->active_regions.empty(); }
  };

 private:
  static constexpr uint32_t kNone = ~0u;
  G* find(GoID id) {
    uint32_t k = index_.get(id);
    return k != kNone ? &at(k) : nullptr;
  }
  static constexpr unsigned kChunkShift = 12;
  G& at(uint32_t k) { return chunks_[k >> kChunkShift][k & ((1u << kChunkShift) - 1)]; }
  G& create(GoID id);
  uint32_t task_index(TaskID id);
  void task_goroutine(uint32_t task, GoID g) {
    // A set in Go; sorted and made unique at the end, and repeats in a row (most of
    // them: one goroutine's regions and logs) dropped now.
    auto& gs = tasks_[task].goroutines;
    if (gs.empty() || gs.back() != g) gs.push_back(g);
  }
  ExecStats snapshot(const G& g, Time ts) const;
  void snapshot_into(ExecStats& r, const G& g, Time ts) const;
  void end_region(G& g, uint32_t k) {
    const RegionSummary& r = regions_[k];
    g.x().regions.push_back({r.has_start() ? r.start : INT64_MIN, k});
  }
  void finalize(G& g, Time last_ts, uint64_t trigger);
  void goroutine_transition(size_t i, Time t, const Context& ctx, const StateTransition& st);
  void proc_transition(Time t, const StateTransition& st);
  void annotation(size_t i, EventKind kind, Time t, const Context& ctx);
  static uint64_t range_on_proc(ProcID p, uint32_t name) {
    // Go keys rangesP by (proc, name); range names are few, proc ids fit in 44 bits.
    return static_cast<uint64_t>(p) << 20 | name;
  }

  const EventStore& s_;
  const RangeNames& names_;
  // The records, in chunks: they never move, and a new one is made in place.
  std::vector<std::unique_ptr<G[]>> chunks_;
  uint32_t count_ = 0;
  IdMap<uint32_t, kNone> index_;     // goroutine id -> gs_ (Go's Summarizer.gs)
  std::vector<TaskSummary> tasks_;
  IdMap<uint32_t, kNone> task_index_;  // task id -> tasks_
  std::vector<RegionSummary> regions_;
  // Go's syscallingP (proc -> goroutine in a syscall on it) and syscallingG (goroutine
  // -> its proc; only goroutines in a syscall, so few: a small hash map).
  static constexpr int64_t kNoSyscall = INT64_MIN;
  IdMap<GoID, kNoSyscall> syscalling_p_;
  FlatMap<ProcID> syscalling_g_;
  FlatMap<GoID> ranges_p_;         // (proc, range name) -> goroutine
  StringIds reasons_;
  ExecStats scratch_, scratch2_;  // reused by region ends (their capacity, not their values)
  Time last_ts_ = 0;
  Time sync_ts_ = 0;
  Time first_ts_ = 0;
  bool any_ = false;
};

}  // namespace gotrace::analysis::detail
