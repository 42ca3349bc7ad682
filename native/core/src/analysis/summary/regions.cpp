// The region grouping of cmd/trace/regions.go (Go 1.23).
#include "gotrace/analysis/regions.h"

#include <algorithm>
#include <map>

namespace gotrace::analysis {

Interval region_interval(const Summary& summary, const RegionSummary& r) {
  return {r.has_start() ? r.start : summary.first_time, r.has_end() ? r.end : summary.last_time};
}

std::vector<RegionTypeStats> region_types(const EventStore& store, const Summary& summary) {
  return region_types(store, summary, StoreEvents(store));
}

std::vector<RegionTypeStats> region_types(const EventStore& store, const Summary& summary, const SummaryEvents& events) {
  RegionTypeTally tally(store, events);
  for (const GoroutineSummary& g : summary.goroutines)
    for (uint32_t k : g.regions) tally.add(summary, summary.regions[k]);
  return tally.take();
}

FrameID region_start_frame(const EventStore& tables, const SummaryEvents& events, const RegionSummary& r) {
  if (!r.has_start()) return 0;
  const StackID stack = events.stack(r.start_event);
  if (stack == 0) return 0;
  auto frames = tables.stacks.frames(stack);
  return frames.empty() ? 0 : frames.front();
}

void RegionTypeTally::add(const Summary& summary, const RegionSummary& r) {
  const FrameID frame = region_start_frame(store_, events_, r);
  auto [it, inserted] = by_key_.try_emplace({r.name, frame}, types_.size());
  if (inserted) {
    RegionTypeStats t;
    t.name = r.name;
    if (frame != 0) {
      const Frame& f = store_.stacks.frame(frame);
      t.pc = f.pc;
      t.func = store_.strings.get(f.func);
      t.file = store_.strings.get(f.file);
      t.line = f.line;
    }
    types_.push_back(t);
    durations_.emplace_back();
  }
  types_[it->second].count++;
  durations_[it->second].push_back(region_interval(summary, r).duration());
}

std::vector<RegionTypeStats> RegionTypeTally::take() {
  for (size_t i = 0; i < types_.size(); i++) types_[i].durations = duration_distribution(std::move(durations_[i]));
  std::sort(types_.begin(), types_.end(), [](const RegionTypeStats& a, const RegionTypeStats& b) {
    if (a.name != b.name) return a.name < b.name;
    if (a.pc != b.pc) return a.pc < b.pc;
    if (a.func != b.func) return a.func < b.func;
    return a.file != b.file ? a.file < b.file : a.line < b.line;
  });
  return std::move(types_);
}

}  // namespace gotrace::analysis
