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
  // Go's regionFingerprint: the type and the leaf frame of the start event's stack.
  // Frames are interned, so the frame id stands for the frame.
  std::map<std::pair<std::string_view, FrameID>, size_t> by_key;
  std::vector<RegionTypeStats> types;
  std::vector<std::vector<int64_t>> durations;
  for (const GoroutineSummary& g : summary.goroutines) {
    for (uint32_t k : g.regions) {
      const RegionSummary& r = summary.regions[k];
      FrameID frame = 0;
      if (r.has_start()) {
        if (StackID stack = events.stack(r.start_event); stack != 0) {
          auto frames = store.stacks.frames(stack);
          if (!frames.empty()) frame = frames.front();
        }
      }
      auto [it, inserted] = by_key.try_emplace({r.name, frame}, types.size());
      if (inserted) {
        RegionTypeStats t;
        t.name = r.name;
        if (frame != 0) {
          const Frame& f = store.stacks.frame(frame);
          t.pc = f.pc;
          t.func = store.strings.get(f.func);
          t.file = store.strings.get(f.file);
          t.line = f.line;
        }
        types.push_back(t);
        durations.emplace_back();
      }
      types[it->second].count++;
      durations[it->second].push_back(region_interval(summary, r).duration());
    }
  }
  for (size_t i = 0; i < types.size(); i++) types[i].durations = duration_distribution(std::move(durations[i]));
  std::sort(types.begin(), types.end(), [](const RegionTypeStats& a, const RegionTypeStats& b) {
    if (a.name != b.name) return a.name < b.name;
    if (a.pc != b.pc) return a.pc < b.pc;
    if (a.func != b.func) return a.func < b.func;
    return a.file != b.file ? a.file < b.file : a.line < b.line;
  });
  return types;
}

}  // namespace gotrace::analysis
