// The user region views of `go tool trace` (cmd/trace/regions.go): regions grouped by
// type and the frame that began them, with the distribution of their durations.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "gotrace/analysis/histogram.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/summary_events.h"
#include "gotrace/analysis/tasks.h"

namespace gotrace::analysis {

struct RegionTypeStats {
  std::string_view name;  // region type
  // The leaf frame of the stack of the region's start event (all zero without one).
  uint64_t pc = 0;
  std::string_view func, file;
  uint64_t line = 0;
  size_t count = 0;
  DurationDistribution durations;  // of region_interval, as Go's histogram
};

// Every region of every goroutine, grouped as Go does, by type then PC. The start
// events' stacks from `events` (the store's own by default); the store gives the
// stack and string tables.
std::vector<RegionTypeStats> region_types(const EventStore& store, const Summary& summary);
std::vector<RegionTypeStats> region_types(const EventStore& store, const Summary& summary, const SummaryEvents& events);

// Go's regionInterval: the region's start and end, or the trace's first and last event
// for a side not in the trace.
Interval region_interval(const Summary& summary, const RegionSummary& region);

}  // namespace gotrace::analysis
