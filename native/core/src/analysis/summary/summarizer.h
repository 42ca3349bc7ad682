// Go's Summarizer (internal/trace/summary.go) as a consumer of run_event_pass
// (event_pass.h): summarize() runs it alone, analyze() beside the MMU's builders.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/summary_archive.h"
#include "gotrace/event_view.h"
#include "gotrace/id_map.h"
#include "range_names.h"
#include "analysis/string_ids.h"

namespace gotrace::analysis::detail {

// How many events of each type the trace is expected to have, for sizing the summaries:
// the store's, scaled by the file's size when it holds only a streamed read's first
// generations (report.cpp).
std::array<uint64_t, 256> expected_events(const EventStore& store);

class Summarizer {
 public:
  // The bytes an archive takes of each, as measured (a 925 MB Go 1.27 trace: 5.25 M
  // goroutines, with their index and places), rounded up.
  static constexpr uint64_t kArchivedGoroutineBytes = 48, kArchivedRegionBytes = 32, kArchivedTaskBytes = 48;
  // events_by_type: the store's counts by type if known (else counted here).
  Summarizer(const EventStore& s, const RangeNames& names, const std::array<uint64_t, 256>* events_by_type = nullptr);

  // The room a summarizer makes for events of these counts by type, for every goroutine,
  // task and region they can make, and the bytes summary_bytes() then says: what a reader
  // with a budget checks before any of it is reserved (in WebAssembly a reservation
  // takes address space, untouched or not).
  struct Room {
    uint64_t goroutines = 0, tasks = 0, regions = 0;  // 64 bits, also where size_t has 32
  };
  static Room room_for(const std::array<uint64_t, 256>& events_by_type);
  static uint64_t bytes_for(const Room& room) {
    return room.goroutines * sizeof(GoroutineSummary) + room.regions * sizeof(RegionSummary) +
           room.tasks * sizeof(TaskSummary);
  }

  // What an archive (archive_ended) of that many takes, with what finds each in it.
  static uint64_t archived_bytes_for(const Room& room) {
    return room.goroutines * kArchivedGoroutineBytes + room.regions * kArchivedRegionBytes +
           room.tasks * kArchivedTaskBytes;
  }

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

  // summarize()'s pass over events [from, to) (each event once, in order):
  // run_event_pass's, with the common goroutine transitions read straight from their
  // columns (no StateTransition, block reasons by string id).
  void run(RangeNames& names, size_t from, size_t to);

  Summary finish();

  // Puts each goroutine away as it ends (with its regions) and each task as it ends, in
  // an archive, so that the summarizer holds only what is live: before the first event.
  // finish_archived() then gives the summaries; finish() may not be called.
  // `room`, if given: the goroutines and tasks foretold, for which room is made.
  void archive_ended(const Room* room = nullptr);
  // `rest` gets what finish() gives besides goroutines, tasks and regions (the names the
  // stats refer to, the first and last times).
  ArchivedSummary finish_archived(Summary& rest);
  // With archive_ended: keeps goroutine `id` alone (with its regions) and no task. Every
  // other goroutine and every task is let go as it ends (named after its end, it begins
  // again from nothing: nothing of `id`'s summary depends on it then), so that one
  // goroutine's summary over a long run of generations holds only what is live.
  void keep_only(GoID id) { keep_only_ = id; }

  // Records every interval the figures are summed from into `out` (summarize_intervals).
  void record_intervals(std::vector<GoInterval>* out) { intervals_ = out; }
  // Hands the intervals on instead, `batch` at a time as they are counted (the last ones
  // at finish()), goroutines named, through `buffer`: they are never all held. Right
  // only where no goroutine id is reused (reused_ids()): the summary leaves the earlier
  // goroutine out, whose intervals will have been handed on.
  void stream_intervals(std::vector<GoInterval>* buffer, size_t batch,
                        std::function<void(std::span<const GoInterval>)> sink) {
    intervals_ = buffer;
    stream_batch_ = batch;
    stream_ = std::move(sink);
  }
  bool reused_ids() const { return replaced_; }
  // Notes, as they go by, the events the views read after the summary is made (a
  // region's start event, for its stack; a task's logs, for their fields), for a
  // streamed reader that releases the events (StreamedSummary).
  struct Noted {
    std::vector<uint64_t> region_starts;
    std::vector<uint64_t> logs;
  };
  void note_events(Noted* out) { noted_ = out; }
  // The bytes of the arrays of summaries, as reserved (what they point to aside): what a
  // reader with a memory budget watches.
  size_t summary_bytes() const {
    return static_cast<size_t>(bytes_for({goroutines_.capacity(), tasks_.capacity(), regions_.capacity()}));
  }
  // With an archive: what it holds, with what is kept of each goroutine and task to find
  // it there (the summaries of the live ones are summary_bytes()).
  size_t archived_bytes() const;
  // The block reasons so far (an interval's `reason` indexes them).
  const std::vector<std::string_view>& block_reasons() const { return reasons_.strings(); }

  // What few goroutines need: ranges in progress, regions.
  struct Extra {
    std::vector<std::pair<uint32_t, Time>> last_range;  // Go's lastRangeTime
    std::vector<uint32_t> active_regions;               // stack of indices into regions_
    // Ended regions: (start time, or INT64_MIN without a start; index into regions_), so
    // that sorting them by start does not need the regions themselves.
    std::vector<std::pair<Time, uint32_t>> regions;
  };

  // The pending state of one live goroutine (Go's private goroutineSummary): in a slot
  // of a small pool, given back when the goroutine ends (at most a few hundred are live
  // at once, where traces hold hundreds of thousands of goroutines), so that the pass
  // works in memory that stays in cache and finishing visits only the live ones. A
  // goroutine without a slot has nothing pending.
  struct Pending {
    // When the goroutine entered its current state.
    Time last_start = 0;
    Time last_runnable = 0;
    Time last_block = 0;
    Time last_syscall = 0;
    Time last_syscall_block = 0;
    ProcID syscall_p = 0;  // Go's syscallingG: the proc of the syscall it is in
    uint32_t last_block_reason = 0;
    std::unique_ptr<Extra> extra;

    bool in_region() const { return extra && !extra->active_regions.empty(); }
  };

 private:
  static constexpr uint32_t kNone = ~0u;
  // The record of goroutine id (kNone if never seen), taken back out of the archive if it
  // was put away (an event after its end).
  uint32_t find(GoID id) {
    const uint32_t g = index_.get(id);
    if (archived_ && g != kNone && !(summary_at_[g] & kInSlot)) [[unlikely]]
      restore(g);
    return g;
  }
  GoroutineSummary& summary_of(uint32_t g) { return goroutines_[archived_ ? static_cast<uint32_t>(summary_at_[g]) : g]; }
  const GoroutineSummary& summary_of(uint32_t g) const {
    return goroutines_[archived_ ? static_cast<uint32_t>(summary_at_[g]) : g];
  }
  // With an archive: goroutine g (ended) put away, and taken back.
  void retire(uint32_t g);
  [[gnu::noinline]] void restore(uint32_t g);
  uint32_t new_region();
  uint32_t task_slot(TaskID id);
  void retire_task(uint32_t slot);
  uint32_t create(GoID id);
  // Out of line: once per goroutine, where the transitions around it are per event.
  [[gnu::noinline]] uint32_t appear(size_t i, Time t, GoID id, GoState from, GoID creator);
  void enter_regions_at_start(uint32_t g, GoID id);
  // Go 1.27: a goroutine named for the first time has been in its state since the last
  // sync, and that time counts.
  template <class Reason>
  [[gnu::noinline]] void count_since_sync(size_t i, uint32_t g, Time t, GoState to, ProcID proc, Reason reason);
  // An interval counted for goroutine record g (only when intervals_ is set; its
  // `goroutine` is the record until finish() names it).
  [[gnu::noinline]] void interval(uint32_t g, GoState state, GoFigure figure, Time start, Time end, uint64_t start_event,
                                  uint64_t end_event, uint32_t reason = 0);
  // The intervals of what is pending for record g at ts (as add_pending counts them).
  void pending_intervals(uint32_t g, Time ts, uint64_t end_event);
  [[gnu::noinline]] void out_intervals(size_t i, uint32_t g, Time t, GoState from, const Pending& p);
  uint32_t task_index(TaskID id);
  void task_goroutine(uint32_t task, GoID g) {
    // A set in Go; sorted and made unique at the end, and repeats in a row (most of
    // them: one goroutine's regions and logs) dropped now.
    auto& gs = tasks_[task].goroutines;
    if (gs.empty() || gs.back() != g) gs.push_back(g);
  }
  ExecStats snapshot(uint32_t g, Time ts) const;
  void snapshot_into(ExecStats& r, uint32_t g, Time ts) const;
  void add_pending(ExecStats& r, uint32_t g, Time ts) const;
  void end_region(uint32_t g, uint32_t k) {
    const RegionSummary& r = regions_[k];
    x(g).regions.push_back({r.has_start() ? r.start : INT64_MIN, k});
  }
  // Goroutine g's pending state, or null if nothing is pending.
  const Pending* pending_if(uint32_t g) const {
    const uint32_t k = records_[g].slot;
    return k != kNone ? &pending_[k] : nullptr;
  }
  // Goroutine g's pending state, given a slot (with nothing pending) if it has none.
  // References to other goroutines' states do not survive it.
  [[gnu::always_inline]] Pending& pending(uint32_t g) {
    uint32_t k = records_[g].slot;
    if (k == kNone) [[unlikely]]
      k = new_slot(g);
    return pending_[k];
  }
  [[gnu::noinline]] uint32_t new_slot(uint32_t g);
  bool in_region(uint32_t g) const {
    const Pending* p = pending_if(g);
    return p && p->in_region();
  }
  // Goroutine g's Extra, made if it has none: one a goroutine that ended gave back, if
  // any (its vectors keep their memory), so that there are as many as goroutines live
  // at once rather than as goroutines in the trace.
  Extra& x(uint32_t g) {
    std::unique_ptr<Extra>& e = pending(g).extra;
    if (!e) {
      if (spare_extras_.empty()) {
        e = std::make_unique<Extra>();
      } else {
        e = std::move(spare_extras_.back());
        spare_extras_.pop_back();
      }
    }
    return *e;
  }
  void order_regions(uint32_t g);
  void finalize(uint32_t g, Time last_ts, uint64_t trigger);
  void run_events(RangeNames& names, size_t from, size_t to);  // one slice of run()
  void run_event(RangeNames& names, const std::array<EventKind, 256>& kinds, const EventStore::ChunkColumns& col,
                 size_t i);
  void goroutine_transition(size_t i, Time t, const Context& ctx, const StateTransition& st);
  // One goroutine's transition: `creator` is the event's goroutine (for a creation),
  // `proc` its proc (for a syscall); reason() gives the block reason's id, or kForever,
  // and is called only for a transition into Waiting.
  static constexpr uint32_t kForever = ~0u - 1;
  template <class Reason>
  void go_transition(size_t i, Time t, GoID id, GoState from, GoState to, GoID creator, ProcID proc, StackID stack,
                     bool has_stack, Reason reason);
  uint32_t block_reason(StringID s);
  void proc_transition(Time t, const StateTransition& st);
  void annotation(size_t i, EventKind kind, Time t, const Context& ctx);
  static uint64_t range_on_proc(ProcID p, uint32_t name) {
    // Go keys rangesP by (proc, name); range names are few, proc ids fit in 44 bits.
    return static_cast<uint64_t>(p) << 20 | name;
  }

  const EventStore& s_;
  const RangeNames& names_;
  // Goroutine k is goroutines_[k] with records_[k]. A record whose id was reused stays,
  // replaced (Go replaces the summary): finish leaves it out.
  struct Record {
    uint32_t slot = kNone;  // its Pending in pending_, if any
    StringID name = 0;      // start function (the string table's id of its name; 0: not named)
  };
  std::vector<GoroutineSummary> goroutines_;  // by record, or (with an archive) in slots
  std::vector<Record> records_;
  std::vector<Pending> pending_;      // slots of live goroutines
  std::vector<uint32_t> free_slots_;  // of pending_
  bool replaced_ = false;
  std::vector<std::unique_ptr<Extra>> spare_extras_;  // emptied, for x()
  IdMap<uint32_t, kNone> index_;     // goroutine id -> record (Go's Summarizer.gs)
  std::vector<TaskSummary> tasks_;
  IdMap<uint32_t, kNone> task_index_;  // task id -> tasks_ (with kArchivedTask: its place in task_archived_at_)
  std::vector<RegionSummary> regions_;
  Noted* noted_ = nullptr;
  // With an archive (archive_ended): each record's summary, its slot of goroutines_
  // (with kInSlot) or where it lies in the archive; where each task put away lies; the
  // slots of goroutines_, regions_ and tasks_ left free.
  static constexpr uint32_t kArchivedTask = 1u << 31;
  static constexpr uint64_t kInSlot = uint64_t{1} << 63;
  std::unique_ptr<ArchivedSummary> archived_;
  std::vector<uint64_t> summary_at_;        // by record
  std::vector<uint64_t> task_archived_at_;  // by kArchivedTask index
  std::vector<uint32_t> free_summaries_, free_regions_, free_tasks_;
  std::vector<RegionSummary> restored_regions_;  // reused by restore()
  // summary_at_ of a goroutine keep_only let go: this bit and its id.
  static constexpr uint64_t kLetGo = uint64_t{1} << 62;
  static bool let_go(uint64_t at) { return (at & (kInSlot | kLetGo)) == kLetGo; }
  std::optional<GoID> keep_only_;
  // The store's regions_at_start by goroutine: (goroutine, index there), sorted.
  std::vector<std::pair<GoID, uint32_t>> seeds_;
  GoroutineSummary restored_;
  // Go's syscallingP (proc -> goroutine in a syscall on it); its syscallingG is
  // Pending::syscall_p.
  static constexpr int64_t kNoSyscall = INT64_MIN;
  IdMap<GoID, kNoSyscall> syscalling_p_;
  FlatMap<GoID> ranges_p_;         // (proc, range name) -> goroutine
  StringIds reasons_;
  std::vector<uint32_t> reason_of_string_;  // block_reason's: string id -> reason (or kNone)
  ExecStats scratch_, scratch2_;  // reused by region ends (their capacity, not their values)
  Time last_ts_ = 0;
  Time sync_ts_ = 0;
  // Go 1.27's summarizer, for a store with Go 1.27's Syncs (one leading each generation);
  // Go 1.23's otherwise, whose Syncs follow each generation.
  bool go127_ = false;
  Time first_ts_ = 0;
  bool any_ = false;
  std::vector<GoInterval>* intervals_ = nullptr;
  std::vector<uint64_t> entered_;  // with intervals_: each record's transition into its state
  size_t stream_batch_ = 0;  // with stream_intervals: intervals_ is a buffer of this many
  std::function<void(std::span<const GoInterval>)> stream_;
  void hand_on_intervals();
};

}  // namespace gotrace::analysis::detail
