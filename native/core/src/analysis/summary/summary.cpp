// A port of Go's Summarizer (internal/trace/summary.go): Go 1.27's on a store with its
// Syncs, Go 1.23's on a store with Go 1.23's (see go127_ in summarizer.h). Where Go would
// dereference a goroutine it never saw (a nil pointer there; impossible in a trace Go's
// reader accepts), the event is skipped instead.
#include "gotrace/analysis/summary.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "analysis/event_pass.h"
#include "gotrace/event_slices.h"
#include "gotrace/go_int.h"
#include "gotrace/v2_spec.h"
#include "summarizer.h"

namespace gotrace::analysis {
namespace {

// A free slot of `pool`: one given back (reset when it was), or a new one.
template <class T>
uint32_t take_slot(std::vector<T>& pool, std::vector<uint32_t>& free) {
  if (free.empty()) {
    pool.emplace_back();
    return static_cast<uint32_t>(pool.size() - 1);
  }
  const uint32_t k = free.back();
  free.pop_back();
  return k;
}

// A record made new in place (its lists' memory freed), for its slot's next tenant.
template <class T>
void reset(T& v) {
  std::destroy_at(&v);
  std::construct_at(&v);
}

template <class Entries>
void add(Entries& entries, uint32_t name, int64_t ns) {
  for (StatEntry& e : entries) {
    if (e.name == name) {
      e.ns = wrap_add(e.ns, ns);
      return;
    }
  }
  entries.push_back({name, ns});
}

// Go's GoroutineExecStats.sub: s − v over the keys of s.
ExecStats sub(ExecStats s, const ExecStats& v) {
  s.exec -= v.exec;
  s.sched_wait -= v.sched_wait;
  s.syscall -= v.syscall;
  s.syscall_block -= v.syscall_block;
  s.total -= v.total;
  for (StatEntry& e : s.block) e.ns -= ExecStats::get(v.block, e.name);
  for (StatEntry& e : s.ranges) e.ns -= ExecStats::get(v.ranges, e.name);
  return s;
}

}  // namespace

namespace detail {

uint32_t Summarizer::task_index(TaskID id) {
  uint32_t k = task_index_.get(static_cast<int64_t>(id));
  if (k == kNone) return task_slot(id);
  if (archived_ && (k & kArchivedTask)) [[unlikely]] {  // named again after its end: taken back
    archived_->restored++;
    const uint64_t where = task_archived_at_[k & ~kArchivedTask];
    k = task_slot(id);
    archived_->archive.task(where, tasks_[k]);
  }
  return k;
}

// A slot of tasks_ for task id, empty but for the id.
uint32_t Summarizer::task_slot(TaskID id) {
  const uint32_t k = take_slot(tasks_, free_tasks_);
  tasks_[k].id = id;
  task_index_.set(static_cast<int64_t>(id), k);
  return k;
}

Summarizer::Room Summarizer::room_for(const std::array<uint64_t, 256>& of_type) {
  const uint64_t goroutines = of_type[v2::EvGoCreate] + of_type[v2::EvGoCreateBlocked] + of_type[v2::EvGoCreateSyscall] +
                              of_type[v2::EvGoStatus] + of_type[v2::EvGoStatusStack];
  return {goroutines + 16, of_type[v2::EvUserTaskBegin] + 16, of_type[v2::EvUserRegionBegin] + 16};
}

Summarizer::Summarizer(const EventStore& s, const RangeNames& names, const std::array<uint64_t, 256>* events_by_type)
    : s_(s), names_(names), go127_(s.format.leading_syncs) {
  // Room for every goroutine, task and region that can appear, so that the arrays do
  // not grow by copying. (Counting types is cheap next to the pass.)
  // Counts foretold for a file read streamed may be more than memory has room for (a
  // huge file whose first generation is small): then the arrays grow as they fill.
  const Room room = room_for(events_by_type ? *events_by_type : s.count_by_type());
  try {
    goroutines_.reserve(static_cast<size_t>(room.goroutines));
    records_.reserve(static_cast<size_t>(room.goroutines));
    tasks_.reserve(static_cast<size_t>(room.tasks));
    regions_.reserve(static_cast<size_t>(room.regions));
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
  for (uint32_t k = 0; k < s.regions_at_start.size(); k++) seeds_.push_back({s.regions_at_start[k].g, k});
  std::sort(seeds_.begin(), seeds_.end());
}

// Go's snapshotStat: the statistics of goroutine g as they would be if every pending
// state ended at ts.
ExecStats Summarizer::snapshot(uint32_t g, Time ts) const {
  ExecStats r;
  snapshot_into(r, g, ts);
  return r;
}

// The same into r, reusing its vectors' memory.
void Summarizer::snapshot_into(ExecStats& r, uint32_t g, Time ts) const {
  const ExecStats& st = summary_of(g).stats;
  r.exec = st.exec;
  r.sched_wait = st.sched_wait;
  r.syscall = st.syscall;
  r.syscall_block = st.syscall_block;
  r.total = st.total;
  r.block = st.block;
  r.ranges = st.ranges;
  add_pending(r, g, ts);
}

// What goroutine g's pending states add to its statistics r by ts.
void Summarizer::add_pending(ExecStats& r, uint32_t g, Time ts) const {
  if (r.total == 0) r.total = ts - summary_of(g).creation_time;
  const Pending* pending = pending_if(g);
  if (!pending) return;
  const Pending& p = *pending;
  if (p.last_start != 0) r.exec += ts - p.last_start;
  if (p.last_runnable != 0) r.sched_wait += ts - p.last_runnable;
  if (p.last_block != 0) add(r.block, p.last_block_reason, ts - p.last_block);
  if (p.last_syscall != 0) r.syscall += ts - p.last_syscall;
  // Go adds the time since the P was lost to the scheduler wait here (while a finished
  // syscall counts it as syscall_block): kept as Go has it.
  if (p.last_syscall_block != 0) r.sched_wait += ts - p.last_syscall_block;
  if (p.extra)
    for (auto& [name, t] : p.extra->last_range) add(r.ranges, name, ts - t);
}

// Go's finalize: goroutine g ended (trigger is the event) or the trace did (kNoEvent).
void Summarizer::finalize(uint32_t g, Time last_ts, uint64_t trigger) {
  GoroutineSummary& sum = summary_of(g);
  if (trigger != kNoEvent) sum.end_time = s_.time(trigger);
  if (intervals_) [[unlikely]]
    pending_intervals(g, last_ts, trigger);
  // The statistics become the snapshot at last_ts (updated in place).
  add_pending(sum.stats, g, last_ts);
  const uint32_t slot = records_[g].slot;
  if (slot == kNone) return;  // nothing was pending
  Pending& p = pending_[slot];
  // Go's `*(g.goroutineSummary) = goroutineSummary{}`: nothing is pending any more.
  p.last_start = p.last_runnable = p.last_block = p.last_syscall = p.last_syscall_block = 0;
  p.last_block_reason = 0;
  if (p.extra) {
    Extra& x = *p.extra;
    x.last_range.clear();
    // System goroutines get no regions, even though they inherit a task when created
    // inside a region (e.g. GC workers started by a GC triggered within one).
    if (!x.active_regions.empty() && !is_system_goroutine(sum.name)) {
      ExecStats final_stats = snapshot(g, last_ts);
      for (uint32_t k : x.active_regions) {
        RegionSummary& reg = regions_[k];
        reg.end_event = trigger;
        reg.end = trigger != kNoEvent ? s_.time(trigger) : 0;
        reg.stats = sub(final_stats, reg.stats);
        end_region(g, k);
      }
    }
    x.active_regions.clear();
  }
  // An ended goroutine gives its Extra back (its regions go to its summary now), and its
  // slot: nothing is pending.
  if (trigger != kNoEvent) {
    if (p.extra) {
      order_regions(g);
      p.extra->regions.clear();
      spare_extras_.push_back(std::move(p.extra));
    }
    records_[g].slot = kNone;
    free_slots_.push_back(slot);
  }
}

// Goroutine g's ended regions, into its summary by start time, regions without a start
// first: a stable sort (Go's is not, but equal start times are rare). Those already
// there (a goroutine that went on after its end) ended first.
void Summarizer::order_regions(uint32_t g) {
  auto& v = pending(g).extra->regions;
  auto& out = summary_of(g).regions;
  if (v.empty()) return;
  if (!out.empty()) {
    std::vector<std::pair<Time, uint32_t>> all;
    for (uint32_t k : out) all.push_back({regions_[k].has_start() ? regions_[k].start : INT64_MIN, k});
    all.insert(all.end(), v.begin(), v.end());
    v.swap(all);
    out.clear();
  }
  auto earlier = [](const std::pair<Time, uint32_t>& a, const std::pair<Time, uint32_t>& b) { return a.first < b.first; };
  if (v.size() > 32) {
    std::stable_sort(v.begin(), v.end(), earlier);
  } else {
    for (size_t j = 1; j < v.size(); j++) {  // insertion sort: no allocation for a few
      auto cur = v[j];
      size_t m = j;
      for (; m > 0 && earlier(cur, v[m - 1]); m--) v[m] = v[m - 1];
      v[m] = cur;
    }
  }
  out.reserve(v.size());
  for (auto& [start, region] : v) out.push_back(region);
}

uint32_t Summarizer::new_slot(uint32_t g) {
  uint32_t k;
  if (free_slots_.empty()) {
    k = static_cast<uint32_t>(pending_.size());
    pending_.emplace_back();
  } else {
    k = free_slots_.back();
    free_slots_.pop_back();
  }
  records_[g].slot = k;
  return k;
}

uint32_t Summarizer::create(GoID id) {
  const auto k = static_cast<uint32_t>(records_.size());
  replaced_ |= index_.get(id) != kNone;
  index_.set(id, k);
  records_.emplace_back();
  if (!archived_) {  // the summary is the record's
    goroutines_.emplace_back().id = id;
    return k;
  }
  const uint32_t slot = take_slot(goroutines_, free_summaries_);
  goroutines_[slot].id = id;
  summary_at_.push_back(kInSlot | slot);
  return k;
}

uint32_t Summarizer::new_region() { return take_slot(regions_, free_regions_); }

void Summarizer::archive_ended(const Room* room) {
  archived_ = std::make_unique<ArchivedSummary>();
  // Only what is live is held now: no room for every goroutine, task and region.
  std::vector<GoroutineSummary>().swap(goroutines_);
  std::vector<TaskSummary>().swap(tasks_);
  std::vector<RegionSummary>().swap(regions_);
  // Where each goroutine and task lies, with room for all foretold: grown by doubling,
  // these would hold both copies at once.
  if (!room) return;
  try {
    records_.reserve(static_cast<size_t>(room->goroutines));
    summary_at_.reserve(static_cast<size_t>(room->goroutines));
    task_archived_at_.reserve(static_cast<size_t>(room->tasks));
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
}

// Goroutine g ended: its summary and regions into the archive, their slots freed.
void Summarizer::retire(uint32_t g) {
  const auto slot = static_cast<uint32_t>(summary_at_[g]);
  GoroutineSummary& s = goroutines_[slot];
  if (keep_only_ && s.id != *keep_only_) {
    summary_at_[g] = kLetGo | (static_cast<uint64_t>(s.id) & (kLetGo - 1));
  } else {
    summary_at_[g] = archived_->archive.put_goroutine(s, regions_);
    archived_->regions += s.regions.size();
  }
  for (uint32_t k : s.regions) {
    reset(regions_[k]);
    free_regions_.push_back(k);
  }
  reset(s);
  free_summaries_.push_back(slot);
}

// An event names goroutine g after its end (as Go's summarizer allows): back from the
// archive, as it was put away.
void Summarizer::restore(uint32_t g) {
  if (let_go(summary_at_[g])) [[unlikely]] {
    const uint32_t slot = take_slot(goroutines_, free_summaries_);
    goroutines_[slot].id = static_cast<GoID>(summary_at_[g] & (kLetGo - 1));
    summary_at_[g] = kInSlot | slot;
    return;
  }
  archived_->restored++;
  archived_->archive.goroutine(summary_at_[g], restored_, restored_regions_);
  archived_->regions -= restored_regions_.size();
  const uint32_t slot = take_slot(goroutines_, free_summaries_);
  GoroutineSummary& s = goroutines_[slot];
  s = restored_;
  s.regions.clear();
  for (RegionSummary& r : restored_regions_) {
    const uint32_t k = new_region();
    regions_[k] = std::move(r);
    s.regions.push_back(k);
  }
  summary_at_[g] = kInSlot | slot;
}

void Summarizer::retire_task(uint32_t k) {
  const TaskID id = tasks_[k].id;
  if (keep_only_) {
    task_index_.erase(static_cast<int64_t>(id));
  } else {
    task_index_.set(static_cast<int64_t>(id), kArchivedTask | static_cast<uint32_t>(task_archived_at_.size()));
    task_archived_at_.push_back(archived_->archive.put_task(tasks_[k]));
  }
  reset(tasks_[k]);
  free_tasks_.push_back(k);
}

// A goroutine created, or named for the first time. From Undetermined it has existed
// since the last sync. A reused id replaces the old summary, as in Go.
uint32_t Summarizer::appear(size_t i, Time t, GoID id, GoState from, GoID creator_id) {
  // Go 1.27 lets only a created goroutine inherit; Go 1.23 also one named for the first
  // time by an event of another goroutine (e.g. a GoStatus in a flight recording).
  const uint32_t creator = go127_ && from == GoState::Undetermined ? kNone : find(creator_id);
  const uint32_t inherited =
      creator != kNone && in_region(creator) ? pending_if(creator)->extra->active_regions.back() : kNone;
  const uint32_t g = create(id);
  summary_of(g).creation_time = from == GoState::Undetermined ? sync_ts_ : t;
  if (from == GoState::Undetermined && !seeds_.empty()) [[unlikely]]
    enter_regions_at_start(g, id);
  // A new goroutine inherits the task of its creator's innermost region, as a synthetic
  // region that starts at its creation.
  if (inherited != kNone) {
    RegionSummary r;
    r.task = regions_[inherited].task;
    r.goroutine = id;
    r.start_event = i;
    r.start = t;
    if (noted_) noted_->region_starts.push_back(i);
    const uint32_t k = new_region();
    regions_[k] = std::move(r);
    x(g).active_regions.push_back(k);
  }
  return g;
}

// Generations read again: goroutine id, named for the first time, is in the regions it
// was in as they began (EventStore::regions_at_start), begun before the store's events.
void Summarizer::enter_regions_at_start(uint32_t g, GoID id) {
  auto it = std::lower_bound(seeds_.begin(), seeds_.end(), std::pair<GoID, uint32_t>{id, 0});
  for (; it != seeds_.end() && it->first == id; ++it) {
    const EventStore::RegionAtStart& seed = s_.regions_at_start[it->second];
    RegionSummary r;
    r.task = seed.task;
    r.name = s_.strings.get(seed.name);
    r.goroutine = id;
    const uint32_t k = new_region();
    regions_[k] = std::move(r);
    x(g).active_regions.push_back(k);
    const uint32_t task = task_index(seed.task);
    tasks_[task].regions.push_back(k);
    task_goroutine(task, id);
  }
}

template <class Reason>
void Summarizer::count_since_sync(size_t i, uint32_t g, Time t, GoState to, ProcID proc, Reason reason) {
  ExecStats& stats = summary_of(g).stats;
  const int64_t d = t - sync_ts_;
  auto counted = [&](GoFigure f, uint32_t why = 0) {
    if (intervals_) interval(g, to, f, sync_ts_, t, kNoEvent, i, why);
  };
  switch (to) {
    case GoState::Running:
      stats.exec += d;
      counted(GoFigure::Exec);
      break;
    case GoState::Waiting: {
      uint32_t why = reason();
      if (why == kForever) why = reasons_.get("forever");
      add(stats.block, why, d);
      counted(GoFigure::Block, why);
      break;
    }
    case GoState::Runnable:
      stats.sched_wait += d;
      counted(GoFigure::SchedWait);
      break;
    case GoState::Syscall:
      // With a P it has had that P since the start: a syscall; without, a blocked one.
      (proc == kNoProc ? stats.syscall_block : stats.syscall) += d;
      counted(proc == kNoProc ? GoFigure::SyscallBlock : GoFigure::Syscall);
      break;
    default:
      break;
  }
}

void Summarizer::interval(uint32_t g, GoState state, GoFigure figure, Time start, Time end, uint64_t start_event,
                          uint64_t end_event, uint32_t reason) {
  GoInterval iv;
  iv.goroutine = g;
  iv.start = start;
  iv.end = end;
  iv.start_event = start_event;
  iv.end_event = end_event;
  iv.reason = reason;
  iv.state = state;
  iv.figure = figure;
  intervals_->push_back(iv);
  if (stream_batch_ && intervals_->size() >= stream_batch_) [[unlikely]]
    hand_on_intervals();
}

void Summarizer::hand_on_intervals() {
  for (GoInterval& iv : *intervals_) iv.goroutine = summary_of(static_cast<uint32_t>(iv.goroutine)).id;
  stream_(*intervals_);
  intervals_->clear();
}

void Summarizer::pending_intervals(uint32_t g, Time ts, uint64_t end_event) {
  const Pending* pending = pending_if(g);
  if (!pending) return;
  const Pending& p = *pending;
  const uint64_t entered = g < entered_.size() ? entered_[g] : kNoEvent;
  if (p.last_start != 0) interval(g, GoState::Running, GoFigure::Exec, p.last_start, ts, entered, end_event);
  if (p.last_runnable != 0) interval(g, GoState::Runnable, GoFigure::SchedWait, p.last_runnable, ts, entered, end_event);
  if (p.last_block != 0)
    interval(g, GoState::Waiting, GoFigure::Block, p.last_block, ts, entered, end_event, p.last_block_reason);
  if (p.last_syscall != 0) interval(g, GoState::Syscall, GoFigure::Syscall, p.last_syscall, ts, entered, end_event);
  // Go's quirk (add_pending): the time since the P was lost also counts as sched wait.
  if (p.last_syscall_block != 0)
    interval(g, GoState::Syscall, GoFigure::SchedWait, p.last_syscall_block, ts, kNoEvent, end_event);
}

// The intervals a transition out of `from` at t counts (as go_transition counts them).
void Summarizer::out_intervals(size_t i, uint32_t g, Time t, GoState from, const Pending& p) {
  const uint64_t entered = g < entered_.size() ? entered_[g] : kNoEvent;
  switch (from) {
    case GoState::Running:
      interval(g, from, GoFigure::Exec, p.last_start, t, entered, i);
      break;
    case GoState::Waiting:
      if (p.last_block != 0) interval(g, from, GoFigure::Block, p.last_block, t, entered, i, p.last_block_reason);
      break;
    case GoState::Runnable:
      if (p.last_runnable != 0) interval(g, from, GoFigure::SchedWait, p.last_runnable, t, entered, i);
      break;
    case GoState::Syscall:
      if (p.last_syscall == 0) break;
      if (p.last_syscall_block != 0) {
        interval(g, from, GoFigure::Syscall, p.last_syscall, p.last_syscall_block, entered, kNoEvent);
        interval(g, from, GoFigure::SyscallBlock, p.last_syscall_block, t, kNoEvent, i);
      } else {
        interval(g, from, GoFigure::Syscall, p.last_syscall, t, entered, i);
      }
      break;
    default:
      break;
  }
}

template <class Reason>
[[gnu::always_inline]] inline void Summarizer::go_transition(size_t i, Time t, GoID id, GoState from, GoState to,
                                                             GoID creator_id, ProcID proc, StackID stack,
                                                             bool has_stack, Reason reason) {
  if (from == to) return;  // tells nothing new

  uint32_t g;
  if (from == GoState::Undetermined || from == GoState::NotExist) {
    g = appear(i, t, id, from, creator_id);
    if (go127_ && from == GoState::Undetermined) count_since_sync(i, g, t, to, proc, reason);
  } else if (g = find(id); g == kNone) {
    return;
  }
  GoroutineSummary& sum = summary_of(g);
  Pending& p = pending(g);
  if (intervals_) [[unlikely]]
    out_intervals(i, g, t, from, p);

  // Transition out.
  switch (from) {
    case GoState::Running:
      sum.stats.exec += t - p.last_start;
      p.last_start = 0;
      break;
    case GoState::Waiting:
      if (p.last_block != 0) {
        add(sum.stats.block, p.last_block_reason, t - p.last_block);
        p.last_block = 0;
      }
      break;
    case GoState::Runnable:
      if (p.last_runnable != 0) {
        sum.stats.sched_wait += t - p.last_runnable;
        p.last_runnable = 0;
      }
      break;
    case GoState::Syscall:
      if (p.last_syscall != 0) {
        if (p.last_syscall_block != 0) {
          sum.stats.syscall_block += t - p.last_syscall_block;
          sum.stats.syscall += p.last_syscall_block - p.last_syscall;
        } else {
          sum.stats.syscall += t - p.last_syscall;
        }
        p.last_syscall = 0;
        p.last_syscall_block = 0;
        // Go deletes syscallingP[syscallingG[id]].
        syscalling_p_.erase(p.syscall_p);
      }
      break;
    default:
      break;
  }

  // Not named yet: the root frame of a transition stack is its start function, the same
  // for every transition of this goroutine.
  if (records_[g].name == 0 && has_stack && stack != 0) {
    auto frames = s_.stacks.frames(stack);
    if (!frames.empty()) {
      const Frame& f = s_.stacks.frame(frames.back());
      sum.pc = f.pc;
      records_[g].name = f.func;
      sum.name = s_.strings.get(f.func);
    }
  }

  // Transition in.
  if (intervals_) [[unlikely]] {
    if (entered_.size() <= g) entered_.resize(std::max<size_t>(g + 1, entered_.size() * 2), kNoEvent);
    entered_[g] = i;
  }
  switch (to) {
    case GoState::Running:
      p.last_start = t;
      if (sum.start_time == 0) sum.start_time = t;
      break;
    case GoState::Runnable:
      p.last_runnable = t;
      break;
    case GoState::Waiting:
      if (const uint32_t why = reason(); why != kForever) {
        p.last_block = t;
        p.last_block_reason = why;
        break;
      }
      finalize(g, t, i);  // waiting forever is like the goroutine's end
      break;
    case GoState::NotExist:
      finalize(g, t, i);
      if (archived_) retire(g);
      break;
    case GoState::Syscall: {
      syscalling_p_.set(proc, id);
      p.syscall_p = proc;
      p.last_syscall = t;
      break;
    }
    default:
      break;
  }
}

void Summarizer::goroutine_transition(size_t i, Time t, const Context& ctx, const StateTransition& st) {
  go_transition(i, t, st.resource.id, st.go_from(), st.go_to(), ctx.g, ctx.p, st.stack, st.has_stack,
                [&] { return st.reason == "forever" ? kForever : reasons_.get(st.reason); });
}

uint32_t Summarizer::block_reason(StringID id) {
  if (id < reason_of_string_.size() && reason_of_string_[id] != kNone) return reason_of_string_[id];
  const std::string_view why = s_.strings.get(id);
  const uint32_t r = why == "forever" ? kForever : reasons_.get(why);
  if (id >= reason_of_string_.size()) reason_of_string_.resize(std::max<size_t>(id + 1, reason_of_string_.size() * 2), kNone);
  reason_of_string_[id] = r;
  return r;
}

void Summarizer::run(RangeNames& names, size_t from, size_t to) {
  for_each_event_slice_between(from, to, [&](size_t a, size_t b) { run_events(names, a, b); });
}

void Summarizer::run_events(RangeNames& names, size_t from, size_t to) {
  const auto& kinds = event_kinds();
  // A chunk at a time, its columns read through locals (EventStore::ChunkColumns).
  s_.for_each_chunk(from, to, [&](const EventStore::ChunkColumns& col, size_t a, size_t b) {
    for (size_t i = a; i < b; i++) run_event(names, kinds, col, i);
  });
}

[[gnu::always_inline]] inline void Summarizer::run_event(RangeNames& names, const std::array<EventKind, 256>& kinds,
                                                         const EventStore::ChunkColumns& col, size_t i) {
  using namespace v2;
  const auto none = [] { return 0u; };  // a transition not into Waiting
  const uint8_t type = col.type(i);
  const Time t = col.time(i);
  // Each case is read_transition's reading of the type.
  switch (type) {
    case EvGoStart:
      begin_event(t);
      go_transition(i, t, static_cast<GoID>(col.ab(i)), GoState::Runnable, GoState::Running, 0, 0, 0, false, none);
      break;
    case EvGoUnblock:
      begin_event(t);
      go_transition(i, t, static_cast<GoID>(col.ab(i)), GoState::Waiting, GoState::Runnable, 0, 0, 0, false, none);
      break;
    case EvGoBlock: {
      begin_event(t);
      const StackID stack = col.stack(i);
      go_transition(i, t, col.goroutine(i), GoState::Running, GoState::Waiting, 0, 0, stack, stack != 0,
                    [&] { return block_reason(col.a(i)); });
      break;
    }
    case EvGoSyscallBegin: {
      begin_event(t);
      const StackID stack = col.stack(i);
      const Context ctx = col.context(i);
      go_transition(i, t, ctx.g, GoState::Running, GoState::Syscall, 0, ctx.p, stack, stack != 0, none);
      break;
    }
    case EvGoSyscallEnd: {
      begin_event(t);
      const StackID stack = col.stack(i);
      go_transition(i, t, col.goroutine(i), GoState::Syscall, GoState::Running, 0, 0, stack, stack != 0, none);
      break;
    }
    case EvGoCreate:
      begin_event(t);
      go_transition(i, t, static_cast<GoID>(col.ab(i)), GoState::NotExist, GoState::Runnable, col.goroutine(i), 0,
                    col.c(i), true, none);
      break;
    case EvGoDestroy: {
      begin_event(t);
      const StackID stack = col.stack(i);
      go_transition(i, t, col.goroutine(i), GoState::Running, GoState::NotExist, 0, 0, stack, stack != 0, none);
      break;
    }
    case EvHeapAlloc:  // a metric: nothing to summarize
      begin_event(t);
      break;
    // The frequent ranges, named from the context as RangeNames::get names them.
    case EvGCSweepBegin:
    case EvGCSweepEnd:
    case EvGCMarkAssistBegin:
    case EvGCMarkAssistEnd: {
      begin_event(t);
      const Context ctx = col.context(i);
      const RangeRef r = names.sweep_or_assist(type == EvGCSweepBegin || type == EvGCSweepEnd, ctx);
      const bool begins = type == EvGCSweepBegin || type == EvGCMarkAssistBegin;
      range(i, begins ? EventKind::RangeBegin : EventKind::RangeEnd, t, ctx, r);
      break;
    }
    default:
      pass_event(s_, names, kinds, i, type, t, *this);
      break;
  }
}

// A proc going idle while its goroutine is in a syscall: the syscall blocked.
void Summarizer::proc_transition(Time t, const StateTransition& st) {
  if (st.old_state == st.new_state || st.proc_to() != ProcState::Idle) return;
  const ProcID p = st.resource.id;
  if (const GoID goid = syscalling_p_.get(p); goid != kNoSyscall) {
    if (const uint32_t g = find(goid); g != kNone) pending(g).last_syscall_block = t;
    syscalling_p_.erase(p);
  }
}

void Summarizer::range(size_t, EventKind kind, Time t, const Context& ctx, const RangeRef& r) {
  uint32_t g = kNone;
  if (kind == EventKind::RangeEnd) {
    if (r.scope.kind == ResourceKind::Goroutine) {
      g = find(r.scope.id);
    } else if (r.scope.kind == ResourceKind::Proc) {
      uint64_t key = range_on_proc(r.scope.id, r.name);
      if (const GoID* goid = ranges_p_.find(key)) {
        if (*goid == ctx.g) g = find(*goid);  // only if it ends on the goroutine it began on
        ranges_p_.erase(key);
      }
    }
    const Pending* p = g != kNone ? pending_if(g) : nullptr;
    if (!p || !p->extra) return;
    auto& pending = p->extra->last_range;
    auto it = std::find_if(pending.begin(), pending.end(), [&](auto& e) { return e.first == r.name; });
    if (it == pending.end() || it->second == 0) return;
    add(summary_of(g).stats.ranges, r.name, t - it->second);
    pending.erase(it);
    return;
  }

  if (r.scope.kind == ResourceKind::Goroutine) {
    // The whole range counts, whatever the goroutine does meanwhile.
    g = find(r.scope.id);
  } else if (r.scope.kind == ResourceKind::Proc) {
    // Bound to the P, not the goroutine; attributed to the goroutine only if it is still
    // the one on the P when the range ends (e.g. GC sweeps).
    g = find(ctx.g);
    if (g != kNone) ranges_p_[range_on_proc(r.scope.id, r.name)] = ctx.g;
  }
  if (g == kNone) return;
  auto& pending = x(g).last_range;
  auto it = std::find_if(pending.begin(), pending.end(), [&](auto& e) { return e.first == r.name; });
  // A RangeActive counts from the last sync.
  Time since = t;
  if (kind == EventKind::RangeActive) {
    if (it != pending.end() && it->second != 0) add(summary_of(g).stats.ranges, r.name, sync_ts_ - it->second);
    since = sync_ts_;
  }
  if (it != pending.end()) {
    it->second = since;
  } else {
    pending.push_back({r.name, since});
  }
}

// Regions, tasks and logs.
void Summarizer::annotation(size_t i, EventKind kind, Time t, const Context& ctx) {
  EventView ev(s_, i);
  switch (kind) {
    case EventKind::RegionBegin: {
      const uint32_t g = find(ctx.g);
      if (g == kNone) break;
      Region reg = ev.region();
      RegionSummary r;
      r.task = reg.task;
      r.name = reg.type;
      r.goroutine = ctx.g;
      r.start_event = i;
      r.start = t;
      r.stats = snapshot(g, t);
      if (noted_) noted_->region_starts.push_back(i);
      const uint32_t k = new_region();
      regions_[k] = std::move(r);
      x(g).active_regions.push_back(k);
      uint32_t task = task_index(reg.task);
      tasks_[task].regions.push_back(k);
      task_goroutine(task, ctx.g);
      break;
    }

    case EventKind::RegionEnd: {
      const uint32_t g = find(ctx.g);
      if (g == kNone) break;
      uint32_t k;
      if (in_region(g)) {
        // The innermost region is the one that ended (its task already knows it).
        std::vector<uint32_t>& active = pending(g).extra->active_regions;
        k = active.back();
        active.pop_back();
      } else {
        // An end without a beginning: make the region up now.
        Region reg = ev.region();
        RegionSummary r;
        r.task = reg.task;
        r.name = reg.type;
        r.goroutine = ctx.g;
        k = new_region();
        regions_[k] = std::move(r);
        uint32_t task = task_index(reg.task);
        task_goroutine(task, ctx.g);
        tasks_[task].regions.push_back(k);
      }
      // The region's statistics: the snapshot now less the one at its beginning (its
      // stats until now), computed in reused buffers and swapped in.
      RegionSummary& r = regions_[k];
      snapshot_into(scratch_, g, t);
      ExecStats& d = scratch2_;
      d.exec = scratch_.exec - r.stats.exec;
      d.sched_wait = scratch_.sched_wait - r.stats.sched_wait;
      d.syscall = scratch_.syscall - r.stats.syscall;
      d.syscall_block = scratch_.syscall_block - r.stats.syscall_block;
      d.total = scratch_.total - r.stats.total;
      d.block.clear();
      for (const StatEntry& e : scratch_.block) d.block.push_back({e.name, e.ns - ExecStats::get(r.stats.block, e.name)});
      d.ranges.clear();
      for (const StatEntry& e : scratch_.ranges) d.ranges.push_back({e.name, e.ns - ExecStats::get(r.stats.ranges, e.name)});
      std::swap(r.stats, d);
      r.end_event = i;
      r.end = t;
      end_region(g, k);
      break;
    }

    case EventKind::TaskBegin:
    case EventKind::TaskEnd: {
      Task tk = ev.task();
      uint32_t task = task_index(tk.id);
      tasks_[task].name = tk.type;
      task_goroutine(task, ctx.g);
      if (kind == EventKind::TaskBegin) {
        tasks_[task].start_event = i;
        tasks_[task].start = t;
      } else {
        tasks_[task].end_event = i;
        tasks_[task].end = t;
      }
      // Link the parent once, or the task would appear twice among its children.
      if (tk.parent != kNoTask && !tasks_[task].has_parent()) {
        uint32_t parent = task_index(tk.parent);
        tasks_[task].parent = tk.parent;
        tasks_[parent].children.push_back(tk.id);
      }
      if (archived_ && kind == EventKind::TaskEnd) retire_task(task);
      break;
    }

    case EventKind::Log: {
      uint32_t task = task_index(ev.log().task);
      task_goroutine(task, ctx.g);
      tasks_[task].logs.push_back(i);
      if (noted_) noted_->logs.push_back(i);
      break;
    }

    default:
      break;
  }
}

namespace {

// Moves a summary's bytes: the records are relocatable (ids, times, string views and
// SmallVectors, which hold no pointer into themselves), and a permutation leaves each
// slot holding exactly one record, so nothing is destroyed or left moved-from. A
// member-wise move of a goroutine's summary (three SmallVectors) cost twice as much.
template <class T>
void relocate(void* to, const void* from) {
  static_assert(std::is_same_v<T, GoroutineSummary> || std::is_same_v<T, TaskSummary>);
#if defined(__has_builtin) && __has_builtin(__builtin_memcpy_inline)
  __builtin_memcpy_inline(to, from, sizeof(T));  // WebAssembly's memcpy is a call, a loop
#else
  std::memcpy(to, from, sizeof(T));
#endif
}

// Puts records (goroutines or tasks) in id order in place, given the map from each id
// to its record (exactly the records): the map gives the ids in order without sorting
// them, and moving each misplaced record once needs no second array (the goroutines of
// a large trace are tens of MB). In slices (event_slices.h).
template <class T, class Index>
void order_by_id(std::vector<T>& v, const Index& index) {
  std::vector<uint32_t> order;  // order[j]: the record that goes to position j
  order.reserve(v.size());
  bool sorted = true;
  index.for_each_in_order([&](int64_t, uint32_t k) {
    sorted = sorted && k == order.size();
    order.push_back(k);
  });
  if (sorted) return;
  // Position j takes the record at order[j]: follow each cycle of the permutation.
  for_each_event_slice(
      order.size(),
      [&](size_t first, size_t end) {
        for (size_t j = first; j < end; j++) {
          if (order[j] == j) continue;
          alignas(T) unsigned char moving[sizeof(T)];
          relocate<T>(moving, &v[j]);
          size_t at = j;
          for (;;) {
            const size_t from = order[at];
            order[at] = static_cast<uint32_t>(at);  // placed
            if (from == j) {
              relocate<T>(&v[at], moving);
              break;
            }
            relocate<T>(&v[at], &v[from]);
            at = from;
          }
        }
      },
      kRecordSlice);
}

}  // namespace

Summary Summarizer::finish() {
  Summary out;
  const auto n = static_cast<uint32_t>(goroutines_.size());
  // Every record ends at the trace's end; those whose id was reused are left out (in
  // place, keeping the order; the index follows), and the rest put in id order. In
  // slices (event_slices.h).
  std::vector<GoID> id_of_record;  // with intervals_: each record's id, or kNoGoroutine if left out
  if (intervals_) {
    id_of_record.resize(n);
    for (uint32_t k = 0; k < n; k++)
      id_of_record[k] = replaced_ && index_.get(goroutines_[k].id) != k ? kNoGoroutine : goroutines_[k].id;
  }
  size_t kept = 0;
  for_each_event_slice(
      n,
      [&](size_t from, size_t to) {
        for (auto k = static_cast<uint32_t>(from); k < to; k++) {
          if (replaced_ && index_.get(goroutines_[k].id) != k) continue;
          finalize(k, last_ts_, kNoEvent);
          if (const Pending* p = pending_if(k); p && p->extra) order_regions(k);
          if (kept != k) {
            goroutines_[kept] = std::move(goroutines_[k]);
            index_.set(goroutines_[kept].id, static_cast<uint32_t>(kept));
          }
          kept++;
        }
      },
      kRecordSlice);
  goroutines_.resize(kept);
  if (intervals_) {
    std::erase_if(*intervals_, [&](GoInterval& iv) {
      iv.goroutine = id_of_record[static_cast<size_t>(iv.goroutine)];
      return iv.goroutine == kNoGoroutine;
    });
    if (stream_batch_ && !intervals_->empty()) {  // named already
      stream_(*intervals_);
      intervals_->clear();
    }
  }
  order_by_id(goroutines_, index_);
  out.goroutines = std::move(goroutines_);
  std::vector<GoroutineSummary>().swap(goroutines_);
  std::vector<Record>().swap(records_);
  std::vector<Pending>().swap(pending_);

  order_by_id(tasks_, task_index_);
  for_each_event_slice(
      tasks_.size(),
      [&](size_t from, size_t to) {
        for (size_t k = from; k < to; k++) {
          auto& gs = tasks_[k].goroutines;
          if (gs.size() > 1) {
            std::sort(gs.begin(), gs.end());
            gs.erase(std::unique(gs.begin(), gs.end()), gs.end());
          }
        }
      },
      kRecordSlice);
  out.tasks = std::move(tasks_);
  out.regions = std::move(regions_);
  out.block_reasons = reasons_.strings();
  out.range_names = names_.names();
  out.first_time = first_ts_;
  out.last_time = last_ts_;
  return out;
}

size_t Summarizer::archived_bytes() const {
  if (!archived_) return 0;
  return archived_->archive.bytes() + records_.capacity() * sizeof(Record) + pending_.capacity() * sizeof(Pending) +
         summary_at_.capacity() * sizeof(uint64_t) + task_archived_at_.capacity() * sizeof(uint64_t) +
         index_.bytes_reserved() + task_index_.bytes_reserved();
}

ArchivedSummary Summarizer::finish_archived(Summary& rest) {
  ArchivedSummary& out = *archived_;
  // Every live goroutine ends at the trace's end (those whose id was reused are left
  // out) and is put away too; then all of them are in the archive.
  for (auto k = static_cast<uint32_t>(0); k < records_.size(); k++) {
    if (!(summary_at_[k] & kInSlot)) continue;
    if (replaced_ && index_.get(summary_of(k).id) != k) continue;
    finalize(k, last_ts_, kNoEvent);
    if (const Pending* p = pending_if(k); p && p->extra) order_regions(k);
    retire(k);
  }
  if (replaced_) {  // the regions of records left out do not count
    std::vector<bool> kept(records_.size());
    index_.for_each([&](int64_t, uint32_t k) { kept[k] = true; });
    GoroutineSummary g;
    std::vector<RegionSummary> regions;
    for (uint32_t k = 0; k < records_.size(); k++) {
      if (kept[k] || (summary_at_[k] & kInSlot) || let_go(summary_at_[k])) continue;
      out.archive.goroutine(summary_at_[k], g, regions);
      out.regions -= regions.size();
    }
  }
  out.goroutines.reserve(records_.size());
  index_.for_each_in_order([&](int64_t, uint32_t k) {
    if (!let_go(summary_at_[k])) out.goroutines.push_back(summary_at_[k]);
  });
  // What was kept per goroutine is of no more use: let it go before the output is made.
  std::vector<uint64_t>().swap(summary_at_);
  std::vector<Record>().swap(records_);
  std::vector<Pending>().swap(pending_);
  std::vector<GoroutineSummary>().swap(goroutines_);
  std::vector<RegionSummary>().swap(regions_);
  index_ = {};
  task_index_.for_each_in_order([&](int64_t, uint32_t k) {
    out.tasks.push_back((k & kArchivedTask) ? task_archived_at_[k & ~kArchivedTask] : out.archive.put_task(tasks_[k]));
  });
  std::vector<TaskSummary>().swap(tasks_);
  std::vector<uint64_t>().swap(task_archived_at_);
  task_index_ = {};
  out.last_time = last_ts_;
  rest.block_reasons = reasons_.strings();
  rest.range_names = names_.names();
  rest.first_time = first_ts_;
  rest.last_time = last_ts_;
  ArchivedSummary result = std::move(out);
  archived_.reset();
  return result;
}

}  // namespace detail

int64_t ExecStats::get(std::span<const StatEntry> entries, uint32_t name) {
  for (const StatEntry& e : entries)
    if (e.name == name) return e.ns;
  return 0;
}

int64_t ExecStats::block_total() const {
  int64_t sum = 0;
  for (const StatEntry& e : block) sum = wrap_add(sum, e.ns);
  return sum;
}

int64_t ExecStats::unknown() const {
  int64_t sum = wrap_add(wrap_add(wrap_add(exec, sched_wait), wrap_add(syscall, syscall_block)), block_total());
  return sum < total ? wrap_sub(total, sum) : 0;
}

const GoroutineSummary* Summary::goroutine(GoID id) const {
  auto it = std::lower_bound(goroutines.begin(), goroutines.end(), id,
                             [](const GoroutineSummary& g, GoID v) { return g.id < v; });
  return it != goroutines.end() && it->id == id ? &*it : nullptr;
}

const TaskSummary* Summary::task(TaskID id) const {
  auto it = std::lower_bound(tasks.begin(), tasks.end(), id, [](const TaskSummary& t, TaskID v) { return t.id < v; });
  return it != tasks.end() && it->id == id ? &*it : nullptr;
}

bool is_system_goroutine(std::string_view f) {
  return f.empty() || (f != "runtime.main" && f.rfind("runtime.", 0) == 0);
}

struct SummaryBuild::State {
  State(const EventStore& s, const std::array<uint64_t, 256>* events_by_type)
      : store(s), summarizer(s, names, events_by_type) {}
  const EventStore& store;
  detail::RangeNames names;
  detail::Summarizer summarizer;
  size_t next = 0;  // the first event not summarized yet
  std::optional<Summary> result;
};

SummaryBuild::SummaryBuild(const EventStore& store, const std::array<uint64_t, 256>* events_by_type)
    : s_(std::make_unique<State>(store, events_by_type)) {}
SummaryBuild::SummaryBuild(SummaryBuild&&) noexcept = default;
SummaryBuild& SummaryBuild::operator=(SummaryBuild&&) noexcept = default;
SummaryBuild::~SummaryBuild() = default;

bool SummaryBuild::step(size_t events) {
  State& st = *s_;
  if (st.result) return true;
  const size_t to = st.next + std::min(events, st.store.size() - st.next);
  st.summarizer.run(st.names, st.next, to);
  st.next = to;
  if (to < st.store.size()) return false;
  st.result = st.summarizer.finish();
  return true;
}

Summary SummaryBuild::take() {
  while (!step(SIZE_MAX)) {
  }
  Summary out = std::move(*s_->result);
  s_->result.reset();
  return out;
}

Summary summarize(const EventStore& store) { return SummaryBuild(store).take(); }

Summary summarize_intervals(const EventStore& store, std::vector<GoInterval>& intervals) {
  // Room for about an interval per state transition (0.95-0.99 of them in the corpus):
  // grown by doubling instead, the vector is copied each time, old and new held at once
  // (11 M intervals, 540 MB, on the 94 MB trace).
  size_t transitions = 0;
  store.for_each_chunk(0, store.size(), [&](const EventStore::ChunkColumns& c, size_t first, size_t end) {
    for (size_t i = first; i < end; i++) transitions += kind_of_type(c.type(i)) == EventKind::StateTransition;
  });
  intervals.reserve(intervals.size() + transitions + transitions / 16 + 1024);
  detail::RangeNames names;
  detail::Summarizer summarizer(store, names);
  summarizer.record_intervals(&intervals);
  summarizer.run(names, 0, store.size());
  return summarizer.finish();
}

}  // namespace gotrace::analysis
