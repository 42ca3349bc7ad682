// A profile restricted the ways the viewer's profile panes restrict it: to some
// goroutines (by id or by start function), to the time inside user regions of a type (by
// name, or by name and pc as Go's region types are), and to a part of the trace. Built
// from profile_filter.h's intervals.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gotrace/analysis/profile.h"
#include "gotrace/analysis/summary.h"

namespace gotrace::analysis {

struct ProfileSelection {
  std::vector<GoID> goroutines;       // only these (empty: no restriction by id)
  std::optional<std::string> group;   // only goroutines starting in this function
  std::optional<std::string> region;  // only time inside regions of this type
  std::optional<uint64_t> region_pc;  // and begun at this pc (RegionTypeStats::pc; 0: no stack)
  std::optional<Interval> range;      // only this part of the trace
};

// With nothing selected: exactly `go tool trace -pprof=TYPE` (compute_go_tool_profile).
// Goroutines count from their first run to their end; with `region`, only inside their
// outermost regions of that type. A selection no goroutine matches gives an empty
// profile.
Profile select_profile(const EventStore& store, const Summary& summary, ProfileType type,
                       const ProfileSelection& selection);
// Several types with the same selection, in one pass over the events.
std::vector<Profile> select_profiles(const EventStore& store, const Summary& summary,
                                     std::span<const ProfileType> types, const ProfileSelection& selection);

}  // namespace gotrace::analysis
