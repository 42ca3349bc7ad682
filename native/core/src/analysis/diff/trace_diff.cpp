// The figures two sides of a diff are compared by (trace_diff.h).
#include "gotrace/analysis/trace_diff.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <unordered_map>

#include "analysis/event_kinds.h"
#include "gotrace/analysis/critical_path.h"
#include "gotrace/analysis/goroutines.h"
#include "gotrace/analysis/mmu.h"
#include "gotrace/analysis/pprof_folded.h"
#include "gotrace/analysis/profile_filter.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/event_view.h"
#include "gotrace/v2_spec.h"

namespace gotrace::analysis {

namespace {

using detail::event_kinds;

void add_stats(std::map<std::string, int64_t>& ns, const Summary& s, const ExecStats& st) {
  ns["exec"] += st.exec;
  ns["sched_wait"] += st.sched_wait;
  ns["syscall"] += st.syscall;
  ns["syscall_block"] += st.syscall_block;
  ns["block"] += st.block_total();
  ns["unknown"] += st.unknown();
  ns["total"] += st.total;
  for (const StatEntry& e : st.block) ns["block:" + std::string(s.block_reasons[e.name])] += e.ns;
  for (const StatEntry& e : st.ranges) ns["range:" + s.range_names[e.name]] += e.ns;
}

// A goroutine's own account of the window (its path, not following wake-ups), in the
// summary's terms.
void add_window_stats(std::map<std::string, int64_t>& ns, const CriticalPath& own) {
  for (const PathSegment& seg : own.segments) {
    const int64_t d = seg.duration();
    ns["total"] += d;
    switch (seg.state) {
      case PathState::Running: ns["exec"] += d; break;
      case PathState::GCMarkAssist:
        ns["exec"] += d;
        ns["range:GC mark assist"] += d;
        break;
      case PathState::GCSweep:
        ns["exec"] += d;
        ns["range:GC incremental sweep"] += d;
        break;
      case PathState::Runnable:
      case PathState::StopTheWorld: ns["sched_wait"] += d; break;
      case PathState::Syscall: ns["syscall"] += d; break;
      case PathState::Blocked:
        ns["block"] += d;
        ns["block:" + std::string(seg.reason)] += d;
        break;
      case PathState::NotInTrace: ns["unknown"] += d; break;
    }
  }
}

FoldedProfile parse_folded(const std::string& text) {
  FoldedProfile p;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + at, end - at);
    at = end + 1;
    const size_t a = line.find(' ');
    const size_t b = a == std::string_view::npos ? a : line.find(' ', a + 1);
    if (b == std::string_view::npos) continue;
    FoldedProfile::Value v{std::strtoll(std::string(line.substr(0, a)).c_str(), nullptr, 10),
                           std::strtoll(std::string(line.substr(a + 1, b - a - 1)).c_str(), nullptr, 10)};
    FoldedProfile::Value& slot = p.stacks[std::string(line.substr(b + 1))];
    slot.count += v.count;
    slot.ns += v.ns;
    p.total.count += v.count;
    p.total.ns += v.ns;
  }
  return p;
}

std::string folded_stack(const EventStore& store, StackID stack) {
  std::string out;
  for (FrameID f : store.stacks.frames(stack)) {
    if (!out.empty()) out += ';';
    out += store.strings.get(store.stacks.frame(f).func);
  }
  return out.empty() ? std::string("(no stack)") : out;
}

// The utilization series cut to [from, to]: the level at `from`, the changes inside,
// and 0 at `to` (as a whole trace's series end).
UtilSeries clip(const UtilSeries& s, Time from, Time to) {
  UtilSeries out;
  double level = 0;
  for (const MutatorUtil& u : s) {
    if (u.time <= from) {
      level = u.util;
      continue;
    }
    if (u.time >= to) break;
    if (out.empty()) out.push_back({from, level});
    out.push_back(u);
  }
  if (out.empty()) out.push_back({from, level});
  out.push_back({to, 0});
  return out;
}

}  // namespace

TraceFigures trace_figures(const EventStore& store, const Summary& summary, std::optional<Interval> window) {
  TraceFigures f;
  f.from = window ? window->start : summary.first_time;
  f.to = window ? window->end : summary.last_time;
  const auto in_window = [&](Time t) { return t >= f.from && t < f.to; };

  // Goroutine groups.
  if (!window) {
    for (const GoroutineGroup& g : goroutine_groups_unordered(summary)) {
      GroupFigures& out = f.groups[std::string(g.name)];
      out.count += g.count;
      add_stats(out.ns, summary, g.totals);
    }
  } else {
    const CriticalPathIndex index = build_critical_path_index(store, summary);
    for (const GoroutineSummary& g : summary.goroutines) {
      const Time begin = std::max(g.creation_time, f.from);
      const Time end = std::min(g.end_time ? g.end_time : summary.last_time, f.to);
      if (begin >= end) continue;
      GroupFigures& out = f.groups[std::string(g.name)];
      out.count++;
      add_window_stats(out.ns, critical_path(index, g.id, begin, end, kNoEvent, false));
    }
  }

  // Tasks and regions (those that begin in the window).
  for (const TaskSummary& t : summary.tasks) {
    if (window && (t.start_event == kNoEvent || !in_window(t.start))) continue;
    std::vector<int64_t>& d = f.tasks[std::string(t.name)];
    if (t.complete()) {
      d.push_back(t.end - t.start);
    } else {
      f.tasks_not_ended[std::string(t.name)]++;
    }
  }
  for (const RegionSummary& r : summary.regions) {
    const Interval i = region_interval(summary, r);
    if (window && !in_window(i.start)) continue;
    f.regions[std::string(r.name)].push_back(i.duration());
  }
  for (auto* m : {&f.tasks, &f.regions}) {
    for (auto& [name, d] : *m) std::sort(d.begin(), d.end());
  }

  // GC: cycles begun and stops of the world, within the window; CPU samples.
  const auto& kinds = event_kinds();
  Time stw_begin = 0;
  bool stw_open = false;
  FoldedProfile& cpu = f.profiles["cpu"];
  for (size_t i = 0; i < store.size(); i++) {
    const uint8_t type = store.type(i);
    const EventKind kind = kinds[type];
    if (kind != EventKind::RangeBegin && kind != EventKind::RangeEnd && kind != EventKind::StackSample) continue;
    const Time t = store.time(i);
    if (kind == EventKind::StackSample) {
      if (!in_window(t) && !(t == f.to && !window)) continue;
      FoldedProfile::Value& v = cpu.stacks[folded_stack(store, store.stack(i))];
      v.count++;
      cpu.total.count++;
      continue;
    }
    switch (type) {
      case v2::EvGCBegin:
        if (in_window(t) || (!window && t == f.to)) f.gc.cycles++;
        break;
      case v2::EvSTWBegin:
        stw_open = true;
        stw_begin = t;
        break;
      case v2::EvSTWEnd:
        if (stw_open) {
          const Time b = std::max(stw_begin, f.from), e = std::min(t, f.to);
          if (b < e || (b == e && in_window(b))) {
            f.gc.stw_count++;
            f.gc.stw_ns += e - b;
          }
        }
        stw_open = false;
        break;
      default: break;
    }
  }
  const unsigned flags = kUtilSTW | kUtilBackground | kUtilAssist | kUtilSweep;
  std::vector<UtilSeries> series = mutator_utilization(store, flags);
  if (window) {
    for (UtilSeries& s : series) s = clip(s, f.from, f.to);
  }
  if (!series.empty()) {
    const MmuCurve curve(std::move(series));
    for (int64_t w = 1000; w <= 1'000'000'000 && w <= f.to - f.from; w *= 10) f.gc.mmu.push_back({w, curve.mmu(w)});
  }

  // The blocking profiles, as `gotrace pprof --folded` prints them (Go's -pprof=TYPE:
  // each goroutine from its first run on).
  const GoroutineIntervals goroutines = goroutine_group_intervals(summary);
  ProfileFilter filter{&goroutines, std::nullopt};
  if (window) filter.window = Interval{f.from, f.to};
  const std::vector<Profile> profiles = compute_profiles(store, kProfileTypes, filter);  // one pass for all four
  for (const Profile& p : profiles) {
    f.profiles[std::string(to_string(p.type))] = parse_folded(pprof_folded(build_pprof_profile(store, p)));
  }
  return f;
}

PprofProfile differential_profile(const FoldedProfile& before, const FoldedProfile& after) {
  PprofProfile p;
  std::unordered_map<std::string, uint64_t> location_of;  // function name -> location id
  auto location = [&](const std::string& name) {
    auto [it, added] = location_of.try_emplace(name, p.locations.size() + 1);
    if (added) {
      const uint64_t id = p.locations.size() + 1;
      p.owned_names.push_back(name);
      p.functions.push_back({id, p.owned_names.back(), {}});
      p.locations.push_back({id, 0, id, 0});
    }
    return it->second;
  };
  std::map<std::string, FoldedProfile::Value> delta;
  for (const auto& [stack, v] : after.stacks) delta[stack] = v;
  for (const auto& [stack, v] : before.stacks) {
    FoldedProfile::Value& d = delta[stack];
    d.count -= v.count;
    d.ns -= v.ns;
  }
  for (const auto& [stack, v] : delta) {
    if (v.count == 0 && v.ns == 0) continue;
    PprofSample sample;
    size_t at = 0;
    while (at <= stack.size()) {
      size_t end = stack.find(';', at);
      if (end == std::string::npos) end = stack.size();
      sample.location_ids.push_back(location(stack.substr(at, end - at)));
      at = end + 1;
    }
    sample.count = v.count;
    sample.nanoseconds = v.ns;
    p.samples.push_back(std::move(sample));
  }
  return p;
}

}  // namespace gotrace::analysis
