// A port of Go's Summarizer (internal/trace/summary.go, Go 1.23). Where Go would
// dereference a goroutine it never saw (a nil pointer there; impossible in a trace Go's
// reader accepts), the event is skipped instead.
#include "gotrace/analysis/summary.h"

#include <algorithm>

#include "event_pass.h"
#include "gotrace/event_slices.h"
#include "gotrace/go_int.h"
#include "gotrace/v2_spec.h"
#include "summarizer.h"

namespace gotrace::analysis {
namespace {

void add(std::vector<StatEntry>& entries, uint32_t name, int64_t ns) {
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
  if (k == kNone) {
    k = static_cast<uint32_t>(tasks_.size());
    task_index_.set(static_cast<int64_t>(id), k);
    tasks_.emplace_back();
    tasks_.back().id = id;
  }
  return k;
}

Summarizer::Summarizer(const EventStore& s, const RangeNames& names) : s_(s), names_(names) {
  // Room for every task and region begun, so that the arrays do not grow by copying.
  // (Counting types is cheap next to the pass.)
  size_t tasks = 0, regions = 0;
  for_each_event_slice(s.size(), [&](size_t from, size_t to) {
    for (size_t i = from; i < to; i++) {
      const uint8_t type = s.type(i);
      tasks += type == v2::EvUserTaskBegin;
      regions += type == v2::EvUserRegionBegin;
    }
  });
  tasks_.reserve(tasks + 16);
  regions_.reserve(regions + 16);
}

// Go's snapshotStat: the statistics as they would be if every pending state ended at ts.
ExecStats Summarizer::snapshot(const G& g, Time ts) const {
  ExecStats r;
  snapshot_into(r, g, ts);
  return r;
}

// The same into r, reusing its vectors' memory.
void Summarizer::snapshot_into(ExecStats& r, const G& g, Time ts) const {
  r.exec = g.exec;
  r.sched_wait = g.sched_wait;
  r.syscall = g.syscall;
  r.syscall_block = g.syscall_block;
  r.total = g.total;
  r.block = g.block;
  r.ranges = g.ranges;
  if (r.total == 0) r.total = ts - g.creation_time;
  if (g.last_start != 0) r.exec += ts - g.last_start;
  if (g.last_runnable != 0) r.sched_wait += ts - g.last_runnable;
  if (g.last_block != 0) add(r.block, g.last_block_reason, ts - g.last_block);
  if (g.last_syscall != 0) r.syscall += ts - g.last_syscall;
  // Go adds the time since the P was lost to the scheduler wait here (while a finished
  // syscall counts it as syscall_block): kept as Go has it.
  if (g.last_syscall_block != 0) r.sched_wait += ts - g.last_syscall_block;
  if (g.extra)
    for (auto& [name, t] : g.extra->last_range) add(r.ranges, name, ts - t);
}

// Go's finalize: the goroutine ended (trigger is the event) or the trace did (kNoEvent).
void Summarizer::finalize(G& g, Time last_ts, uint64_t trigger) {
  if (trigger != kNoEvent) g.end_time = s_.time(trigger);
  // The statistics become the snapshot at last_ts (updated in place).
  if (g.total == 0) g.total = last_ts - g.creation_time;
  if (g.last_start != 0) g.exec += last_ts - g.last_start;
  if (g.last_runnable != 0) g.sched_wait += last_ts - g.last_runnable;
  if (g.last_block != 0) add(g.block, g.last_block_reason, last_ts - g.last_block);
  if (g.last_syscall != 0) g.syscall += last_ts - g.last_syscall;
  if (g.last_syscall_block != 0) g.sched_wait += last_ts - g.last_syscall_block;
  // Go's `*(g.goroutineSummary) = goroutineSummary{}`: nothing is pending any more.
  g.last_start = g.last_runnable = g.last_block = g.last_syscall = g.last_syscall_block = 0;
  g.last_block_reason = 0;
  if (!g.extra) return;
  Extra& x = *g.extra;
  for (auto& [name, t] : x.last_range) add(g.ranges, name, last_ts - t);
  x.last_range.clear();
  // System goroutines get no regions, even though they inherit a task when created
  // inside a region (e.g. GC workers started by a GC triggered within one).
  if (!x.active_regions.empty() && !is_system_goroutine(s_.strings.get(g.name))) {
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

Summarizer::G& Summarizer::create(GoID id) {
  // A chunk's records are made when it is; a new goroutine takes the next one.
  constexpr uint32_t kChunk = 1u << kChunkShift;
  if (count_ % kChunk == 0) chunks_.push_back(std::make_unique<G[]>(kChunk));
  index_.set(id, count_);
  G& g = at(count_++);
  g.id = id;
  return g;
}

void Summarizer::goroutine_transition(size_t i, Time t, const Context& ctx, const StateTransition& st) {
  const GoID id = st.resource.id;
  const GoState from = st.go_from(), to = st.go_to();
  if (from == to) return;  // tells nothing new

  // Transition out.
  G* g = find(id);
  switch (from) {
    case GoState::Undetermined:
    case GoState::NotExist: {
      // Created, or named for the first time. From Undetermined it has existed since the
      // last sync. A reused id replaces the old summary, as in Go.
      G* creator = find(ctx.g);
      uint32_t inherited = creator && creator->in_region() ? creator->extra->active_regions.back() : kNone;
      g = &create(id);
      g->creation_time = from == GoState::Undetermined ? sync_ts_ : t;
      // A new goroutine inherits the task of its creator's innermost region, as a
      // synthetic region that starts at its creation. (From Undetermined there is no
      // creator: the event's goroutine is NoGoroutine.)
      if (inherited != kNone) {
        RegionSummary r;
        r.task = regions_[inherited].task;
        r.goroutine = id;
        r.start_event = i;
        r.start = t;
        g->x().active_regions.push_back(static_cast<uint32_t>(regions_.size()));
        regions_.push_back(std::move(r));
      }
      break;
    }
    case GoState::Running:
      if (!g) return;
      g->exec += t - g->last_start;
      g->last_start = 0;
      break;
    case GoState::Waiting:
      if (!g) return;
      if (g->last_block != 0) {
        add(g->block, g->last_block_reason, t - g->last_block);
        g->last_block = 0;
      }
      break;
    case GoState::Runnable:
      if (!g) return;
      if (g->last_runnable != 0) {
        g->sched_wait += t - g->last_runnable;
        g->last_runnable = 0;
      }
      break;
    case GoState::Syscall:
      if (!g) return;
      if (g->last_syscall != 0) {
        if (g->last_syscall_block != 0) {
          g->syscall_block += t - g->last_syscall_block;
          g->syscall += g->last_syscall_block - g->last_syscall;
        } else {
          g->syscall += t - g->last_syscall;
        }
        g->last_syscall = 0;
        g->last_syscall_block = 0;
        // Go deletes syscallingP[syscallingG[id]], which is proc 0 if id is not there.
        const ProcID* p = syscalling_g_.find(static_cast<uint64_t>(id));
        syscalling_p_.erase(p ? *p : 0);
        syscalling_g_.erase(static_cast<uint64_t>(id));
      }
      break;
    default:
      if (!g) return;
      break;
  }

  // Not named yet: the root frame of a transition stack is its start function, the same
  // for every transition of this goroutine.
  if (g->name == 0 && st.has_stack && st.stack != 0) {
    auto frames = s_.stacks.frames(st.stack);
    if (!frames.empty()) {
      const Frame& f = s_.stacks.frame(frames.back());
      g->pc = f.pc;
      g->name = f.func;
    }
  }

  // Transition in.
  switch (to) {
    case GoState::Running:
      g->last_start = t;
      if (g->start_time == 0) g->start_time = t;
      break;
    case GoState::Runnable:
      g->last_runnable = t;
      break;
    case GoState::Waiting:
      if (st.reason != "forever") {
        g->last_block = t;
        g->last_block_reason = reasons_.get(st.reason);
        break;
      }
      finalize(*g, t, i);  // waiting forever is like the goroutine's end
      break;
    case GoState::NotExist:
      finalize(*g, t, i);
      break;
    case GoState::Syscall: {
      const ProcID p = ctx.p;
      syscalling_p_.set(p, id);
      syscalling_g_[static_cast<uint64_t>(id)] = p;
      g->last_syscall = t;
      break;
    }
    default:
      break;
  }
}

// A proc going idle while its goroutine is in a syscall: the syscall blocked.
void Summarizer::proc_transition(Time t, const StateTransition& st) {
  if (st.old_state == st.new_state || st.proc_to() != ProcState::Idle) return;
  const ProcID p = st.resource.id;
  if (const GoID goid = syscalling_p_.get(p); goid != kNoSyscall) {
    if (G* g = find(goid)) g->last_syscall_block = t;
    syscalling_p_.erase(p);
  }
}

void Summarizer::range(size_t, EventKind kind, Time t, const Context& ctx, const RangeRef& r) {
  G* g = nullptr;
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
    if (!g || !g->extra) return;
    auto& pending = g->extra->last_range;
    auto it = std::find_if(pending.begin(), pending.end(), [&](auto& e) { return e.first == r.name; });
    if (it == pending.end() || it->second == 0) return;
    add(g->ranges, r.name, t - it->second);
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
    if (g) ranges_p_[range_on_proc(r.scope.id, r.name)] = ctx.g;
  }
  if (!g) return;
  auto& pending = g->x().last_range;
  auto it = std::find_if(pending.begin(), pending.end(), [&](auto& e) { return e.first == r.name; });
  // A RangeActive counts from the last sync.
  Time since = t;
  if (kind == EventKind::RangeActive) {
    if (it != pending.end() && it->second != 0) add(g->ranges, r.name, sync_ts_ - it->second);
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
      G* g = find(ctx.g);
      if (!g) break;
      Region reg = ev.region();
      RegionSummary r;
      r.task = reg.task;
      r.name = reg.type;
      r.goroutine = g->id;
      r.start_event = i;
      r.start = t;
      r.stats = snapshot(*g, t);
      auto k = static_cast<uint32_t>(regions_.size());
      regions_.push_back(std::move(r));
      g->x().active_regions.push_back(k);
      uint32_t task = task_index(reg.task);
      tasks_[task].regions.push_back(k);
      task_goroutine(task, g->id);
      break;
    }

    case EventKind::RegionEnd: {
      G* g = find(ctx.g);
      if (!g) break;
      uint32_t k;
      if (g->in_region()) {
        // The innermost region is the one that ended (its task already knows it).
        k = g->extra->active_regions.back();
        g->extra->active_regions.pop_back();
      } else {
        // An end without a beginning: make the region up now.
        Region reg = ev.region();
        RegionSummary r;
        r.task = reg.task;
        r.name = reg.type;
        r.goroutine = g->id;
        k = static_cast<uint32_t>(regions_.size());
        regions_.push_back(std::move(r));
        uint32_t task = task_index(reg.task);
        task_goroutine(task, g->id);
        tasks_[task].regions.push_back(k);
      }
      // The region's statistics: the snapshot now less the one at its beginning (its
      // stats until now), computed in reused buffers and swapped in.
      RegionSummary& r = regions_[k];
      snapshot_into(scratch_, *g, t);
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
      end_region(*g, k);
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
      break;
    }

    case EventKind::Log: {
      uint32_t task = task_index(ev.log().task);
      task_goroutine(task, ctx.g);
      tasks_[task].logs.push_back(i);
      break;
    }

    default:
      break;
  }
}

Summary Summarizer::finish() {
  Summary out;
  std::vector<std::pair<GoID, uint32_t>> live;  // (id, record)
  live.reserve(count_);
  index_.for_each([&](int64_t id, uint32_t k) { live.push_back({id, k}); });
  if (!std::is_sorted(live.begin(), live.end())) std::sort(live.begin(), live.end());
  out.goroutines.reserve(live.size());
  for (auto [id, k] : live) {
    G& g = at(k);
    finalize(g, last_ts_, kNoEvent);
    GoroutineSummary& sum = out.goroutines.emplace_back();
    sum.id = g.id;
    sum.name = s_.strings.get(g.name);
    sum.pc = g.pc;
    sum.creation_time = g.creation_time;
    sum.start_time = g.start_time;
    sum.end_time = g.end_time;
    sum.stats.exec = g.exec;
    sum.stats.sched_wait = g.sched_wait;
    sum.stats.syscall = g.syscall;
    sum.stats.syscall_block = g.syscall_block;
    sum.stats.total = g.total;
    sum.stats.block = std::move(g.block);
    sum.stats.ranges = std::move(g.ranges);
    if (g.extra && !g.extra->regions.empty()) {
      // By start time, regions without a start first: a stable sort (Go's is not, but
      // equal start times are rare).
      auto& v = g.extra->regions;
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
      sum.regions.reserve(v.size());
      for (auto& [start, region] : v) sum.regions.push_back(region);
    }
  }
  chunks_.clear();
  count_ = 0;

  // Tasks by id: the index lists small ids in order (larger ones, if any, get sorted).
  // Tasks are made nearly in id order, so they are put in order in place.
  std::vector<std::pair<TaskID, uint32_t>> order;
  order.reserve(tasks_.size());
  task_index_.for_each([&](int64_t id, uint32_t k) { order.push_back({static_cast<TaskID>(id), k}); });
  if (!std::is_sorted(order.begin(), order.end())) std::sort(order.begin(), order.end());
  // Position j takes the task at order[j].second: follow each cycle of the permutation.
  for (size_t j = 0; j < order.size(); j++) {
    if (order[j].second == j) continue;
    TaskSummary moving = std::move(tasks_[j]);
    size_t at = j;
    for (;;) {
      const size_t from = order[at].second;
      order[at].second = static_cast<uint32_t>(at);  // placed
      if (from == j) {
        tasks_[at] = std::move(moving);
        break;
      }
      tasks_[at] = std::move(tasks_[from]);
      at = from;
    }
  }
  for (TaskSummary& t : tasks_) {
    if (t.goroutines.size() > 1) {
      std::sort(t.goroutines.begin(), t.goroutines.end());
      t.goroutines.erase(std::unique(t.goroutines.begin(), t.goroutines.end()), t.goroutines.end());
    }
  }
  out.tasks = std::move(tasks_);
  out.regions = std::move(regions_);
  out.block_reasons = reasons_.strings();
  out.range_names = names_.names();
  out.first_time = first_ts_;
  out.last_time = last_ts_;
  return out;
}

}  // namespace detail

int64_t ExecStats::get(const std::vector<StatEntry>& entries, uint32_t name) {
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

Summary summarize(const EventStore& store) {
  detail::RangeNames names;
  detail::Summarizer s(store, names);
  detail::run_event_pass(store, names, s);
  return s.finish();
}

}  // namespace gotrace::analysis
