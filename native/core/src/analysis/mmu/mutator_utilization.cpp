// A port of Go's MutatorUtilizationV2 (internal/trace/gc.go, Go 1.23; Go 1.27 differs
// only in where its Syncs fall, see UtilizationPass::sync). Several flag
// sets share one pass: the events are decoded once and fed to one builder per set.
//
// Go evaluates every P's utilization after every event; here only the Ps whose value
// may differ from the last point of their series are looked at, which gives the same
// points: Go's addUtil ignores a value equal to the last one.
#include <algorithm>
#include <stdexcept>

#include "gotrace/analysis/mmu.h"
#include "gotrace/error.h"
#include "gotrace/v2_spec.h"
#include "strings_util.h"
#include "analysis/event_pass.h"
#include "utilization.h"

namespace gotrace::analysis {
namespace {

bool executing(GoState s) { return s == GoState::Running || s == GoState::Syscall; }

// Go's addUtil: a change of utilization; at equal times the lower value wins.
void add_util(UtilSeries& util, MutatorUtil mu) {
  if (!util.empty()) {
    MutatorUtil& last = util.back();
    if (mu.util == last.util) return;
    if (mu.time == last.time) {
      if (mu.util < last.util) last = mu;
      return;
    }
  }
  util.push_back(mu);
}

}  // namespace

namespace detail {

class UtilBuilder {
 public:
  UtilBuilder(unsigned flags, const detail::RangeNames& names, uint64_t work_budget)
      : flags_(flags), names_(names), work_budget_(work_budget) {}

  bool per_proc() const { return flags_ & kUtilPerProc; }
  bool has_procs() const { return !ps_.empty(); }

  void sync() { seen_sync_ = true; }

  void gomaxprocs(Time t, uint64_t value) {
    const auto n = static_cast<size_t>(value);
    if (n != ps_.size()) spend(std::max(n, ps_.size()));
    if (ps_.size() > n) {
      if (per_proc()) {
        for (size_t i = n; i < ps_.size(); i++) add_util(out_[ps_[i].series], {t, 0});  // end each P's series
      }
      ps_.resize(n);
      std::erase_if(watch_, [&](uint32_t p) { return p >= n; });
      recount();
    }
    max_procs_ = std::max(max_procs_, n);
    while (ps_.size() < n) {
      // Start the new P's series.
      size_t series = 0;
      if (per_proc() || out_.empty()) {
        series = out_.size();
        out_.push_back({{t, 1}});
      }
      ps_.push_back({0, series, false});
      touch(ps_.size() - 1);
    }
    if (procs_.empty() || static_cast<int64_t>(n) != procs_.back().n) procs_.push_back({t, static_cast<int64_t>(n)});
  }

  // What a range or label does to the goroutines a builder counts as doing GC work (Go's
  // inGC and bgMark sets, which the pass keeps as bits of its per-goroutine state).
  enum Mark { kNoMark, kAddAssist, kRemoveAssist, kAddWorker };

  // A RangeBegin, RangeActive or RangeEnd.
  // ctx_g_state: the state of the event's goroutine (Go asks about it, not the range's).
  Mark range(EventKind kind, const detail::RangeRef& r, ProcID proc, GoState ctx_g_state) {
    const bool stw = (flags_ & kUtilSTW) && names_.is_gc_stw(r.name);
    const bool assist = (flags_ & kUtilAssist) && names_.is_mark_assist(r.name);
    const bool sweep = (flags_ & kUtilSweep) && names_.is_sweep(r.name);
    if (kind == EventKind::RangeActive && !seen_sync_) {
      // Active since before the trace began, and we learn it only now. (After a sync we
      // knew already: the active event is redundant.) A mark assist counts only if its
      // goroutine is running; a trace cannot start during a STW.
      if ((assist && executing(ctx_g_state)) || (!assist && sweep)) {
        if (!per_proc()) {
          // Take 1/GOMAXPROCS off every point since the start of the trace. (Per P, this
          // P has no points yet: it shows up first in this very event.)
          size_t mi = 0, pi = 0;
          UtilSeries& u = out_[0];
          spend(u.size());
          while (mi < u.size()) {
            if (pi + 1 < procs_.size() && procs_[pi + 1].time < u[mi].time) {
              pi++;
              continue;
            }
            u[mi].util -= 1.0 / static_cast<double>(procs_[pi].n);
            if (u[mi].util < 0) u[mi].util = 0;
            dirty_ = true;
            mi++;
          }
        }
      }
      kind = EventKind::RangeBegin;  // from here on, like the beginning of the range
    }
    if (kind == EventKind::RangeBegin) {
      if (stw) {
        set_stw(stw_ + 1);
      } else if (sweep) {
        add_gc(proc, +1);
      } else if (assist) {
        add_gc(proc, +1);
        if (r.scope.id != kNoGoroutine) return kAddAssist;
      }
    } else if (kind == EventKind::RangeEnd) {
      if (stw) {
        set_stw(stw_ - 1);
      } else if (sweep) {
        add_gc(proc, -1);
      } else if (assist) {
        add_gc(proc, -1);
        if (r.scope.id != kNoGoroutine) return kRemoveAssist;
      }
    }
    return kNoMark;
  }

  // A transition of a goroutine this builder counts as doing GC work.
  void gc_transition(GoState from, GoState to, ProcID proc) {
    if (!executing(from) && executing(to)) {
      add_gc(proc, +1);  // started running while doing GC work
    } else if (executing(from) && !executing(to)) {
      add_gc(proc, -1);  // stopped
    }
  }

  Mark label(std::string_view l, ProcID proc) {
    if (!(flags_ & kUtilBackground) || l.rfind("GC ", 0) != 0 || l == "GC (idle)") return kNoMark;
    // A background mark worker. Per P, dedicated workers do not count: they kick every
    // goroutine off their P, so they add nothing to a goroutine's latency.
    if (per_proc() && l == "GC (dedicated)") return kNoMark;
    add_gc(proc, +1);
    return kAddWorker;
  }

  // Whether the utilization may differ from the last point recorded.
  bool pending() const { return per_proc() ? !watch_.empty() : dirty_; }

  // After each event once GOMAXPROCS is known: record the utilization now.
  // Go adds a point after every event; one equal to the series' last is ignored, so
  // only a change (or a point that lost a tie to a lower one at its time) needs it.
  void record(Time t) {
    if (!per_proc()) {
      if (!dirty_) return;
      const size_t gc_ps = stw_ > 0 ? ps_.size() : gc_ps_;
      const double util = 1 - static_cast<double>(gc_ps) / static_cast<double>(ps_.size());
      add_util(out_[0], {t, util});
      dirty_ = out_[0].back().util != util;
      return;
    }
    size_t kept = 0;
    for (uint32_t p : watch_) {
      UtilSeries& u = out_[ps_[p].series];
      const double util = stw_ > 0 || ps_[p].gc > 0 ? 0.0 : 1.0;
      add_util(u, {t, util});
      if (u.back().util != util) {
        watch_[kept++] = p;  // lost a tie to a lower value: try again at the next event
      } else {
        ps_[p].watched = false;
      }
    }
    watch_.resize(kept);
  }

  std::vector<UtilSeries> finish(bool any_event, Time last) {
    if (!any_event) return {};
    // A final 0 marks the end of the trace, symmetric with its start.
    for (const PerP& p : ps_) add_util(out_[p.series], {last, 0});
    return std::move(out_);
  }

 private:
  struct PerP {
    int64_t gc = 0;     // > 0: GC work on this P
    size_t series = 0;  // Ps can go and come back, each time with a new series
    bool watched = false;
  };
  struct ProcsCount {
    Time time;
    int64_t n;
  };

  void touch(size_t p) {
    dirty_ = true;
    if (!per_proc() || ps_[p].watched) return;
    ps_[p].watched = true;
    watch_.push_back(static_cast<uint32_t>(p));
  }
  // Every P's utilization is 0 while the world is stopped: only the start and the end
  // of a stop change it (not a nested one).
  void set_stw(int64_t depth) {
    const bool changed = (stw_ > 0) != (depth > 0);
    stw_ = depth;
    if (!changed) return;
    dirty_ = true;
    if (!per_proc()) return;  // one series, for all Ps
    spend(ps_.size());
    for (size_t p = 0; p < ps_.size(); p++) touch(p);
  }
  // Work in proportion to the Ps (per P, a point each): a hostile trace could ask for
  // GOMAXPROCS × events of it, which no real one needs.
  void spend(uint64_t steps) {
    work_ += steps;
    if (work_ > work_budget_) [[unlikely]] {
      throw TraceError(fmt("mutator utilization: more than %llu steps of work on Ps (GOMAXPROCS up to %zu)",
                           (unsigned long long)work_budget_, max_procs_));
    }
  }
  void add_gc(ProcID proc, int delta) {
    // Go indexes its Ps by the event's proc; one outside them would make Go panic.
    if (proc < 0 || static_cast<size_t>(proc) >= ps_.size()) return;
    PerP& p = ps_[static_cast<size_t>(proc)];
    const bool was = p.gc > 0;
    p.gc += delta;
    const bool is = p.gc > 0;
    if (was != is) {
      gc_ps_ += is ? 1 : -1;
      touch(static_cast<size_t>(proc));
    }
  }
  void recount() {
    dirty_ = true;
    gc_ps_ = 0;
    for (const PerP& p : ps_) gc_ps_ += p.gc > 0;
  }

  unsigned flags_;
  const detail::RangeNames& names_;
  std::vector<UtilSeries> out_;
  std::vector<PerP> ps_;
  size_t gc_ps_ = 0;  // Ps with gc > 0
  bool dirty_ = false;  // shared series: the value may differ from the series' last point
  int64_t stw_ = 0;
  std::vector<ProcsCount> procs_;
  std::vector<uint32_t> watch_;  // per P: Ps whose value may differ from their series' last
  bool seen_sync_ = false;
  uint64_t work_budget_;
  uint64_t work_ = 0;
  size_t max_procs_ = 0;
};


UtilizationPass::UtilizationPass(const EventStore& store, const RangeNames& names, std::span<const unsigned> flag_sets,
                                 std::optional<uint64_t> events_bound)
    : store_(store) {
  if (flag_sets.size() > kMaxFlagSets) throw std::invalid_argument("too many flag sets for one pass");
  builders_.reserve(flag_sets.size());
  // A real trace needs far less than a step per event (a stop of the world, a step per
  // P, comes with thousands of events); a point per step, the budget bounds the memory.
  const uint64_t budget = (uint64_t{1} << 22) + 2 * events_bound.value_or(store.size());
  for (unsigned f : flag_sets) builders_.push_back(std::make_unique<UtilBuilder>(f, names, budget));
}

UtilizationPass::~UtilizationPass() = default;


void UtilizationPass::mark(size_t k, int mark, GoID g) {
  if (mark == UtilBuilder::kNoMark || g == kNoGoroutine) return;
  uint16_t v = states_.get(g);
  if (v == kAbsent) v = 0;
  const uint16_t assist = static_cast<uint16_t>(kInAssist << (2 * k)), worker = static_cast<uint16_t>(kInAssist << (2 * k + 1));
  switch (mark) {
    case UtilBuilder::kAddAssist: v |= assist; break;
    case UtilBuilder::kRemoveAssist: v &= static_cast<uint16_t>(~assist); break;
    case UtilBuilder::kAddWorker: v |= worker; break;
  }
  states_.set(g, v);
}

void UtilizationPass::too_many_procs(size_t i, Time t, uint64_t procs) const {
  ErrorLocation where;
  where.event = "Metric";
  const auto& gens = store_.generations;
  auto g = std::upper_bound(gens.begin(), gens.end(), i, [](size_t e, const GenerationInfo& x) { return e < x.first_event; });
  if (g != gens.begin()) where.generation = std::prev(g)->number;
  throw TraceError(fmt("mutator utilization: GOMAXPROCS of %llu at time %lld (event %zu) is more than the %llu procs it "
                       "computes",
                       (unsigned long long)procs, (long long)t, i, (unsigned long long)kMmuMaxProcs),
                   where);
}

// After a whole generation, RangeActive events repeat what is known. Go 1.23's Sync
// follows each generation; Go 1.27's leads each, so there the second one says so.
void UtilizationPass::sync(Time) {
  if (++syncs_ <= (store_.format.leading_syncs ? 1u : 0u)) return;
  for (auto& b : builders_) b->sync();
}

void UtilizationPass::other(size_t i, EventKind kind, Time t, const Context& ctx) {
  if (kind == EventKind::Metric) {
    Metric m = EventView(store_, i).metric();
    if (m.name == "/sched/gomaxprocs:threads") {
      if (m.value > kMmuMaxProcs) [[unlikely]] too_many_procs(i, t, m.value);
      for (auto& b : builders_) b->gomaxprocs(t, m.value);
      procs_known_ = !builders_.empty() && builders_[0]->has_procs();
      dirty_ = true;
    }
  } else if (kind == EventKind::Label && has_procs()) {
    std::string_view l = EventView(store_, i).label().label;
    for (size_t k = 0; k < builders_.size(); k++) mark(k, builders_[k]->label(l, ctx.p), ctx.g);
    dirty_ = true;
  }
}

void UtilizationPass::range(size_t, EventKind kind, Time, const Context& ctx, const RangeRef& r) {
  if (!has_procs()) return;  // nothing can be computed before GOMAXPROCS is known
  GoState ctx_state = GoState::Undetermined;
  if (kind == EventKind::RangeActive) {
    if (uint16_t v = states_.get(ctx.g); v != kAbsent) ctx_state = static_cast<GoState>(v & kStateMask);
  }
  for (size_t k = 0; k < builders_.size(); k++) mark(k, builders_[k]->range(kind, r, ctx.p, ctx_state), r.scope.id);
  dirty_ = true;
}

void UtilizationPass::transition(size_t i, Time, const Context&, const StateTransition& st) {
  if (st.resource.kind == ResourceKind::Goroutine) go_transition(i, st.resource.id, st.go_from(), st.go_to());
}

void UtilizationPass::go_transition(size_t i, GoID id, GoState from, GoState to) {
  if (!has_procs()) return;
  uint16_t v = states_.get(id);
  if (v == kAbsent) v = 0;
  if (v & ~kStateMask) {
    // Some builder counts this goroutine as doing GC work.
    const ProcID p = store_.context(i).p;
    for (size_t k = 0; k < builders_.size(); k++) {
      if (v & (kInAssist << (2 * k)) || v & (kInAssist << (2 * k + 1))) {
        builders_[k]->gc_transition(from, to, p);
        dirty_ = true;
      }
    }
  }
  states_.set(id, static_cast<uint16_t>((v & ~kStateMask) | static_cast<uint16_t>(to)));
}

void UtilizationPass::run(RangeNames& names, size_t from, size_t to) {
  using namespace v2;
  const auto& kinds = event_kinds();
  const EventStore& s = store_;
  // A chunk's columns at a time (EventStore::ChunkColumns), in slices (event_slices.h).
  auto pass = [&](const EventStore::ChunkColumns& col, size_t first, size_t end) {
    for (size_t i = first; i < end; i++) {
      const uint8_t type = col.type(i);
      const Time t = col.time(i);
      // Each case is read_transition's reading of the type.
      switch (type) {
        case EvGoStart:
          go_transition(i, static_cast<GoID>(col.ab(i)), GoState::Runnable, GoState::Running);
          break;
        case EvGoUnblock:
          go_transition(i, static_cast<GoID>(col.ab(i)), GoState::Waiting, GoState::Runnable);
          break;
        case EvGoBlock:
          go_transition(i, col.goroutine(i), GoState::Running, GoState::Waiting);
          break;
        case EvGoSyscallBegin:
          go_transition(i, col.goroutine(i), GoState::Running, GoState::Syscall);
          break;
        case EvGoSyscallEnd:
          go_transition(i, col.goroutine(i), GoState::Syscall, GoState::Running);
          break;
        case EvGoCreate:
          go_transition(i, static_cast<GoID>(col.ab(i)), GoState::NotExist, GoState::Runnable);
          break;
        case EvGoDestroy:
          go_transition(i, col.goroutine(i), GoState::Running, GoState::NotExist);
          break;
        case EvProcStart:  // a proc's transition: no builder reads them
        case EvProcStop:
        case EvHeapAlloc:  // a metric other than GOMAXPROCS
          break;
        default:
          pass_event(s, names, kinds, i, type, t, *this);
          continue;  // pass_event ended the event
      }
      end_event(t);
    }
  };
  for_each_event_slice_between(from, to, [&](size_t first, size_t end) { s.for_each_chunk(first, end, pass); });
}

void UtilizationPass::end_event(Time t) {
  if (!dirty_) return;
  bool pending = false;
  for (auto& b : builders_) {
    b->record(t);
    pending |= b->pending();
  }
  dirty_ = pending;
}

std::vector<std::vector<UtilSeries>> UtilizationPass::finish() {
  std::vector<std::vector<UtilSeries>> out;
  out.reserve(builders_.size());
  const bool any = store_.size() > 0;
  const Time last = any ? store_.time(store_.size() - 1) : 0;
  for (auto& b : builders_) out.push_back(b->finish(any, last));
  return out;
}

}  // namespace detail

std::vector<std::vector<UtilSeries>> mutator_utilization(const EventStore& store, std::span<const unsigned> flag_sets) {
  std::vector<std::vector<UtilSeries>> out;
  for (size_t first = 0; first < flag_sets.size(); first += detail::UtilizationPass::kMaxFlagSets) {
    auto sets = flag_sets.subspan(first, std::min(flag_sets.size() - first, detail::UtilizationPass::kMaxFlagSets));
    detail::RangeNames names;
    detail::UtilizationPass pass(store, names, sets);
    pass.run(names, 0, store.size());
    for (auto& series : pass.finish()) out.push_back(std::move(series));
  }
  return out;
}

struct UtilizationBuild::State {
  State(const EventStore& s, unsigned flags) : store(s), flag_sets{flags}, pass(s, names, flag_sets) {}
  const EventStore& store;
  unsigned flag_sets[1];
  detail::RangeNames names;
  detail::UtilizationPass pass;
  size_t next = 0;  // the first event not read
};

UtilizationBuild::UtilizationBuild(const EventStore& store, unsigned flags)
    : s_(std::make_unique<State>(store, flags)) {}
UtilizationBuild::UtilizationBuild(UtilizationBuild&&) noexcept = default;
UtilizationBuild& UtilizationBuild::operator=(UtilizationBuild&&) noexcept = default;
UtilizationBuild::~UtilizationBuild() = default;

bool UtilizationBuild::step(size_t events) {
  State& st = *s_;
  const size_t to = st.next + std::min(events, st.store.size() - st.next);
  st.pass.run(st.names, st.next, to);
  st.next = to;
  return to == st.store.size();
}

std::vector<UtilSeries> UtilizationBuild::take() {
  while (!step(SIZE_MAX)) {
  }
  return std::move(s_->pass.finish()[0]);
}

std::vector<UtilSeries> mutator_utilization(const EventStore& store, unsigned flags) {
  return UtilizationBuild(store, flags).take();
}

}  // namespace gotrace::analysis
