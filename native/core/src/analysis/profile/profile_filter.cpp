#include "gotrace/analysis/profile_filter.h"

#include <algorithm>


namespace gotrace::analysis {

GoroutineIntervals goroutine_group_intervals(const Summary& summary, std::string_view name) {
  GoroutineIntervals out;
  for (const GoroutineSummary& g : summary.goroutines) {
    if (!name.empty() && g.name != name) continue;
    out.add(g.id, lifetime(g, summary.last_time));
  }
  return out;
}

GoroutineIntervals region_intervals(const Summary& summary, const std::function<bool(const RegionSummary&)>& match) {
  GoroutineIntervals out;
  std::vector<Interval> ivs;
  for (const GoroutineSummary& g : summary.goroutines) {
    ivs.clear();
    for (uint32_t k : g.regions) {
      const RegionSummary& r = summary.regions[k];
      if (match(r)) ivs.push_back(region_interval(summary, r));
    }
    std::sort(ivs.begin(), ivs.end(), [](const Interval& a, const Interval& b) {
      return a.start != b.start ? a.start < b.start : a.end < b.end;
    });
    // Keep the outermost: a region that starts before the last kept one ends is inside
    // it (or overlaps it) and would count twice.
    Time last = 0;
    for (const Interval& iv : ivs) {
      if (last <= iv.start) {
        out.add(g.id, iv);
        last = iv.end;
      }
    }
  }
  return out;
}

GoroutineIntervals region_type_intervals(const Summary& summary, std::string_view type, const RegionsAtPc* at) {
  return region_intervals(summary, [type, at](const RegionSummary& r) { return r.name == type && (!at || (*at)(r)); });
}

Profile compute_go_tool_profile(const EventStore& store, const Summary& summary, ProfileType type) {
  GoroutineIntervals all = goroutine_group_intervals(summary);
  return compute_profile(store, type, ProfileFilter{&all, std::nullopt});
}

}  // namespace gotrace::analysis
