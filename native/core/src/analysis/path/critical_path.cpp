// The critical path walk (critical_path.h): an index of each goroutine's transitions,
// then a walk back from the interval's end along the wake-ups.
#include "gotrace/analysis/critical_path.h"
#include "gotrace/analysis/own_frame.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "analysis/event_kinds.h"
#include "gotrace/event_view.h"
#include "gotrace/v2_spec.h"
#include "analysis/transition.h"

namespace gotrace::analysis {

using detail::event_kinds;
using detail::read_transition;
using namespace v2;

std::string_view path_state_name(PathState s) {
  switch (s) {
    case PathState::Running: return "running";
    case PathState::Runnable: return "runnable";
    case PathState::Syscall: return "syscall";
    case PathState::Blocked: return "blocked";
    case PathState::GCMarkAssist: return "GC mark assist";
    case PathState::GCSweep: return "GC sweep";
    case PathState::StopTheWorld: return "stop-the-world";
    case PathState::NotInTrace: return "not in trace";
  }
  return "?";
}

namespace {

// A stretch of a goroutine's running time spent on GC work, or a stop of the world.
struct Span {
  Time begin = 0;
  Time end = 0;
  PathState state = PathState::GCMarkAssist;
  std::string_view name;
};

}  // namespace

struct CriticalPathIndex::Data {
  const EventStore* store = nullptr;
  // Goroutine -> the store indices of its state transitions, ascending.
  std::unordered_map<GoID, std::vector<uint32_t>> transitions;
  std::unordered_map<GoID, std::vector<Span>> gc_work;  // by begin
  std::vector<Span> stw;                                // by begin
  std::vector<std::string> stw_names;                   // what stw's names view
  // The runtime's own goroutines (GC workers, the sweeper...): a wait they end is the
  // runtime's doing, named by the waiter's reason, and not followed into them.
  std::unordered_set<GoID> runtime;
};

CriticalPathIndex::CriticalPathIndex() = default;
CriticalPathIndex::CriticalPathIndex(CriticalPathIndex&&) noexcept = default;
CriticalPathIndex& CriticalPathIndex::operator=(CriticalPathIndex&&) noexcept = default;
CriticalPathIndex::~CriticalPathIndex() = default;

uint64_t CriticalPathIndex::position_after(Time t) const {
  const EventStore& s = *d_->store;
  uint64_t lo = 0, hi = s.size();
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (s.time(mid) <= t) lo = mid + 1; else hi = mid;
  }
  return lo;
}

CriticalPathIndex build_critical_path_index(const EventStore& store, const Summary& summary) {
  if (store.size() >= (uint64_t{1} << 32)) throw std::invalid_argument("trace too large for a critical path index");
  CriticalPathIndex index;
  index.d_ = std::make_unique<CriticalPathIndex::Data>();
  auto& d = *index.d_;
  d.store = &store;
  for (const GoroutineSummary& g : summary.goroutines) {
    if (g.name.substr(0, 8) == "runtime." && g.name != "runtime.main") d.runtime.insert(g.id);
  }
  // Open ranges: GC work by goroutine (mark assists) or proc (sweeps), and the world's stop.
  std::unordered_map<GoID, Time> assist_open;
  std::unordered_map<ProcID, std::pair<Time, GoID>> sweep_open;
  bool stw_open = false;
  Time stw_begin = 0;
  std::string stw_name;
  std::vector<std::string> names;
  const auto& kinds = event_kinds();
  const Time first = store.size() ? store.time(0) : 0;
  for (size_t i = 0; i < store.size(); i++) {
    const uint8_t type = store.type(i);
    const EventKind kind = kinds[type];
    if (kind == EventKind::StateTransition) {
      const StateTransition st = read_transition(store, i, type);
      if (st.resource.kind == ResourceKind::Goroutine) d.transitions[st.resource.id].push_back(static_cast<uint32_t>(i));
      continue;
    }
    if (kind != EventKind::RangeBegin && kind != EventKind::RangeActive && kind != EventKind::RangeEnd) continue;
    const Time t = store.time(i);
    switch (type) {
      case EvGCMarkAssistActive:
      case EvGCMarkAssistBegin: {
        const GoID g = type == EvGCMarkAssistActive ? static_cast<GoID>(store.ab(i)) : store.goroutine(i);
        if (g != kNoGoroutine) assist_open.try_emplace(g, type == EvGCMarkAssistActive ? first : t);
        break;
      }
      case EvGCMarkAssistEnd: {
        auto it = assist_open.find(store.goroutine(i));
        if (it == assist_open.end()) break;
        d.gc_work[it->first].push_back({it->second, t, PathState::GCMarkAssist, {}});
        assist_open.erase(it);
        break;
      }
      case EvGCSweepActive:
      case EvGCSweepBegin: {
        const Context c = store.context(i);
        if (c.g != kNoGoroutine && c.p != kNoProc) sweep_open.try_emplace(c.p, type == EvGCSweepActive ? first : t, c.g);
        break;
      }
      case EvGCSweepEnd: {
        auto it = sweep_open.find(store.context(i).p);
        if (it == sweep_open.end()) break;
        d.gc_work[it->second.second].push_back({it->second.first, t, PathState::GCSweep, {}});
        sweep_open.erase(it);
        break;
      }
      case EvSTWBegin:
        if (!stw_open) {
          stw_open = true;
          stw_begin = t;
          stw_name = EventView(store, i).range().name;
        }
        break;
      case EvSTWEnd:
        if (stw_open) {
          stw_open = false;
          d.stw.push_back({stw_begin, t, PathState::StopTheWorld, {}});
          names.push_back(stw_name);
        }
        break;
      default: break;
    }
  }
  // Ranges still open at the end run to the last event.
  const Time last = store.size() ? store.time(store.size() - 1) : 0;
  for (auto& [g, begin] : assist_open) d.gc_work[g].push_back({begin, last, PathState::GCMarkAssist, {}});
  for (auto& [p, open] : sweep_open) d.gc_work[open.second].push_back({open.first, last, PathState::GCSweep, {}});
  if (stw_open) {
    d.stw.push_back({stw_begin, last, PathState::StopTheWorld, {}});
    names.push_back(stw_name);
  }
  d.stw_names = std::move(names);
  for (size_t k = 0; k < d.stw.size(); k++) d.stw[k].name = d.stw_names[k];
  for (auto& [g, spans] : d.gc_work) {
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
  }
  return index;
}

namespace {

// Splits the part of `s` that overlaps the spans (sorted, not overlapping each other
// for one goroutine) into segments of the spans' state; appends the pieces in reverse
// time order, as the walk builds the path.
void append_split(std::vector<PathSegment>& out, const PathSegment& s, const std::vector<Span>* spans) {
  if (!spans || spans->empty() || s.start >= s.end) {
    out.push_back(s);
    return;
  }
  // The spans overlapping [start, end), latest first.
  auto after = std::lower_bound(spans->begin(), spans->end(), s.end, [](const Span& a, Time t) { return a.begin < t; });
  Time cursor = s.end;
  for (auto it = after; it != spans->begin();) {
    --it;
    if (it->end <= s.start) break;
    const Time b = std::max(it->begin, s.start), e = std::min(it->end, cursor);
    if (b >= e) continue;
    if (e < cursor) {
      PathSegment rest = s;
      rest.start = e;
      rest.end = cursor;
      out.push_back(rest);
    }
    PathSegment gc = s;
    gc.start = b;
    gc.end = e;
    gc.state = it->state;
    if (it->state == PathState::StopTheWorld) gc.reason = it->name;
    out.push_back(gc);
    cursor = b;
  }
  if (cursor > s.start) {
    PathSegment rest = s;
    rest.end = cursor;
    out.push_back(rest);
  }
}

}  // namespace

CriticalPath critical_path(const CriticalPathIndex& index, GoID g, Time from, Time to, uint64_t end_event, bool follow) {
  const auto& d = *index.d_;
  const EventStore& s = *d.store;
  if (to < from) throw std::invalid_argument("the interval ends before it starts");
  if (!d.transitions.count(g)) throw std::invalid_argument("goroutine " + std::to_string(g) + " is not in the trace");
  CriticalPath path;
  path.goroutine = g;
  path.from = from;
  path.to = to;
  std::vector<PathSegment> reversed;

  GoID x = g;
  uint64_t pos = end_event == kNoEvent ? index.position_after(to) : end_event;
  Time t = to;
  // The stack of the event the walk stands at (it explains the running that led to it).
  StackID at_stack = end_event == kNoEvent || end_event >= s.size() ? 0 : s.stack(end_event);
  auto emit = [&](PathState state, Time begin, std::string_view reason, StackID stack) {
    PathSegment seg{x, state, std::max(begin, from), t, reason, stack};
    if (seg.start < seg.end) {
      const std::vector<Span>* spans = nullptr;
      if (state == PathState::Running) {
        if (!d.gc_work.empty()) {
          auto it = d.gc_work.find(x);
          if (it != d.gc_work.end()) spans = &it->second;
        }
      } else if (state == PathState::Runnable) {
        spans = &d.stw;
      }
      append_split(reversed, seg, spans);
    }
    t = std::max(begin, from);
  };

  const std::vector<uint32_t>* trans_of_x = &d.transitions.at(x);
  GoID trans_owner = x;
  while (t > from) {
    if (trans_owner != x) {
      trans_of_x = &d.transitions.at(x);
      trans_owner = x;
    }
    const std::vector<uint32_t>& trans = *trans_of_x;
    // X's last transition before the walk's position.
    auto it = std::lower_bound(trans.begin(), trans.end(), pos);
    if (it == trans.begin()) {
      emit(PathState::NotInTrace, from, {}, 0);
      break;
    }
    const uint32_t p = *--it;
    const uint8_t type = s.type(p);
    const StateTransition st = read_transition(s, p, type);
    const Time tp = s.time(p);
    const GoState state = st.go_to();
    // A status at a generation's start repeats the state the goroutine had before it
    // (Undetermined in the first generation, the same state after: a wait's reason is
    // the transition's that began it).
    if ((st.go_from() == GoState::Undetermined || st.go_from() == state) && it != trans.begin()) {
      pos = p;
      continue;
    }
    const StackID stack = st.has_stack ? st.stack : 0;
    switch (state) {
      case GoState::Running: emit(PathState::Running, tp, {}, at_stack); break;
      case GoState::Syscall: emit(PathState::Syscall, tp, {}, stack); break;
      case GoState::Runnable: {
        // A goroutine made runnable by another has no stack of its own: where it resumes
        // is where it stopped.
        StackID where = stack;
        if (!where && it != trans.begin()) {
          const StateTransition before = read_transition(s, *(it - 1), s.type(*(it - 1)));
          if (before.has_stack) where = before.stack;
        }
        emit(PathState::Runnable, tp, {}, where);
        break;
      }
      case GoState::NotExist:  // ended: nothing of it after tp
        emit(PathState::NotInTrace, tp, {}, 0);
        break;
      case GoState::Undetermined: break;
      case GoState::Waiting: {
        // The event that ended this wait, if the walk came through it.
        uint32_t wake = 0;
        bool woken = false;
        for (auto k = it + 1; k != trans.end() && *k <= pos; ++k) {
          const StateTransition next = read_transition(s, *k, s.type(*k));
          if (next.go_from() == GoState::Waiting && next.go_to() != GoState::Waiting) {
            wake = *k;
            woken = true;
            break;
          }
        }
        const GoID waker = woken ? s.goroutine(wake) : kNoGoroutine;
        if (follow && woken && waker != kNoGoroutine && waker != x && d.transitions.count(waker) && !d.runtime.count(waker) &&
            s.time(wake) > from) {
          // The wait is explained by the waker's history up to the wake-up.
          path.handoffs++;
          t = std::min(t, s.time(wake));
          x = waker;
          pos = wake;
          at_stack = s.stack(wake);
          continue;
        }
        emit(PathState::Blocked, tp, st.reason, stack);
        break;
      }
    }
    if (state == GoState::Undetermined) {
      emit(PathState::NotInTrace, from, {}, 0);
      break;
    }
    // Before a creation: the creator's history explains it.
    if (st.go_from() == GoState::NotExist) {
      const GoID creator = s.goroutine(p);
      if (follow && creator != kNoGoroutine && creator != x && d.transitions.count(creator) && !d.runtime.count(creator) &&
          t > from) {
        path.handoffs++;
        x = creator;
        pos = p;
        at_stack = s.stack(p);
        continue;
      }
      emit(PathState::NotInTrace, from, {}, 0);
      break;
    }
    pos = p;
    at_stack = stack;
  }
  // Reverse into time order, merging neighbours that say the same.
  for (auto r = reversed.rbegin(); r != reversed.rend(); ++r) {
    if (!path.segments.empty()) {
      PathSegment& last = path.segments.back();
      if (last.goroutine == r->goroutine && last.state == r->state && last.reason == r->reason &&
          last.stack == r->stack && last.end == r->start) {
        last.end = r->end;
        continue;
      }
    }
    path.segments.push_back(*r);
  }
  return path;
}

PathInterval task_path_interval(const EventStore& store, const TaskSummary& task) {
  if (!task.complete()) {
    throw std::invalid_argument("task " + std::to_string(task.id) + " does not both begin and end in the trace");
  }
  PathInterval i;
  i.goroutine = store.goroutine(task.end_event);
  i.from = task.start;
  i.to = task.end;
  i.end_event = task.end_event;
  if (i.goroutine == kNoGoroutine) throw std::invalid_argument("task " + std::to_string(task.id) + " ended on no goroutine");
  return i;
}

PathInterval region_path_interval(const Summary& summary, const RegionSummary& region) {
  if (!region.has_end()) throw std::invalid_argument("region " + std::string(region.name) + " has no end in the trace");
  PathInterval i;
  i.goroutine = region.goroutine;
  i.from = region.has_start() ? region.start : summary.first_time;
  i.to = region.end;
  i.end_event = region.end_event;
  return i;
}

PathInterval goroutine_path_interval(const Summary& summary, const GoroutineSummary& g) {
  PathInterval i;
  i.goroutine = g.id;
  i.from = std::max(g.creation_time, summary.first_time);
  i.to = g.end_time ? g.end_time : summary.last_time;
  return i;
}

std::string_view path_function(const EventStore& store, StackID stack) {
  if (stack == 0) return {};
  auto frames = store.stacks.frames(stack);
  std::string_view leaf;
  for (FrameID id : frames) {
    std::string_view f = store.strings.get(store.stacks.frame(id).func);
    if (leaf.empty()) leaf = f;
    if (!is_machinery_function(f)) return f;
  }
  return leaf;
}

std::string path_category(const PathSegment& s) {
  if (s.state == PathState::StopTheWorld && !s.reason.empty()) return std::string(s.reason);
  std::string c(path_state_name(s.state));
  if (!s.reason.empty()) c += ": " + std::string(s.reason);
  return c;
}

namespace {

void add(std::vector<PathTotal>& totals, std::unordered_map<std::string, size_t>& at, const std::string& key, GoID g,
         int64_t ns) {
  auto [it, added] = at.try_emplace(key, totals.size());
  if (added) totals.push_back({key, g, 0});
  totals[it->second].ns += ns;
}

void largest_first(std::vector<PathTotal>& v) {
  std::stable_sort(v.begin(), v.end(), [](const PathTotal& a, const PathTotal& b) {
    return a.ns != b.ns ? a.ns > b.ns : a.key < b.key;
  });
}

std::string function_key(const EventStore& store, const PathSegment& s) {
  std::string_view f = path_function(store, s.stack);
  return path_category(s) + " @ " + (f.empty() ? std::string("?") : std::string(f));
}

}  // namespace

PathTotals path_totals(const EventStore& store, const Summary& summary, const CriticalPath& path) {
  PathTotals out;
  std::unordered_map<std::string, size_t> cat, gor, fn;
  for (const PathSegment& s : path.segments) {
    add(out.by_category, cat, path_category(s), kNoGoroutine, s.duration());
    const GoroutineSummary* g = summary.goroutine(s.goroutine);
    std::string name = g && !g->name.empty() ? std::string(g->name) : "?";
    add(out.by_goroutine, gor, std::to_string(s.goroutine) + " " + name, s.goroutine, s.duration());
    add(out.by_function, fn, function_key(store, s), kNoGoroutine, s.duration());
  }
  largest_first(out.by_category);
  largest_first(out.by_goroutine);
  largest_first(out.by_function);
  return out;
}

void add_to_aggregate(PathAggregate& a, const CriticalPath& path) {
  a.instances++;
  a.durations.push_back(path.to - path.from);
  a.total_ns += path.to - path.from;
  for (const PathSegment& s : path.segments) {
    a.pending[{s.state, s.reason.data(), s.reason.size(), s.stack}] += s.duration();
  }
}

void finish_aggregate(PathAggregate& a, const EventStore& store) {
  std::sort(a.durations.begin(), a.durations.end());
  std::unordered_map<std::string, size_t> cat, fn;
  for (const auto& [key, ns] : a.pending) {
    PathSegment s;
    s.state = key.state;
    s.reason = std::string_view(key.reason, key.reason_size);
    s.stack = key.stack;
    add(a.by_category, cat, path_category(s), kNoGoroutine, ns);
    add(a.by_function, fn, function_key(store, s), kNoGoroutine, ns);
  }
  a.pending.clear();
  largest_first(a.by_category);
  largest_first(a.by_function);
}

}  // namespace gotrace::analysis
