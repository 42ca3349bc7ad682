// The user region views of `go tool trace` (cmd/trace/regions.go): regions grouped by
// type and the frame that began them, with the distribution of their durations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
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

// The leaf frame of the stack of region r's start event, 0 without one (Go's
// regionTopStackFrame): with the name, what makes the region's type.
FrameID region_start_frame(const EventStore& tables, const SummaryEvents& events, const RegionSummary& r);

// The regions begun at one pc (the start frame's; 0: none), which with a name make one of
// Go's region types: a filter of regions_in_bucket.
struct RegionsAtPc {
  const EventStore& tables;
  const SummaryEvents& events;
  uint64_t pc;
  bool operator()(const RegionSummary& r) const {
    const FrameID f = region_start_frame(tables, events, r);
    return (f == 0 ? 0 : tables.stacks.frame(f).pc) == pc;
  }
};

// region_types a region at a time (for regions not held in one array: an archive's),
// each with a summary that names the trace's first and last times.
class RegionTypeTally {
 public:
  RegionTypeTally(const EventStore& store, const SummaryEvents& events) : store_(store), events_(events) {}
  void add(const Summary& summary, const RegionSummary& r);
  std::vector<RegionTypeStats> take();

 private:
  const EventStore& store_;
  const SummaryEvents& events_;
  // Go's regionFingerprint: the type and the leaf frame of the start event's stack.
  // Frames are interned, so the frame id stands for the frame.
  std::map<std::pair<std::string_view, FrameID>, size_t> by_key_;
  std::vector<RegionTypeStats> types_;
  std::vector<std::vector<int64_t>> durations_;
};

// Go's regionInterval: the region's start and end, or the trace's first and last event
// for a side not in the trace.
Interval region_interval(const Summary& summary, const RegionSummary& region);

}  // namespace gotrace::analysis
