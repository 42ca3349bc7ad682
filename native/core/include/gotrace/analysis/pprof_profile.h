// A profile in pprof's model (profile.proto: functions, locations, samples), built from
// trace profile records as Go's traceviewer.BuildProfile does (Go 1.23): sample types
// contentions/count and delay/nanoseconds, one location per PC, one function per
// file + name. Names and files are views into the store's string table.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "gotrace/analysis/profile.h"

namespace gotrace::analysis {

struct PprofFunction {
  uint64_t id = 0;  // 1-based
  std::string_view name;
  std::string_view filename;
};

struct PprofLocation {
  uint64_t id = 0;  // 1-based
  uint64_t address = 0;
  uint64_t function_id = 0;
  int64_t line = 0;
};

struct PprofSample {
  std::vector<uint64_t> location_ids;  // leaf first
  int64_t count = 0;                   // contentions
  int64_t nanoseconds = 0;             // delay
};

struct PprofProfile {
  std::vector<PprofFunction> functions;  // functions[k].id == k + 1
  std::vector<PprofLocation> locations;  // locations[k].id == k + 1
  std::vector<PprofSample> samples;      // in the order of the records
  // Names the profile owns, for a profile not built from a store's strings (a diff).
  std::deque<std::string> owned_names;

  const PprofLocation& location(uint64_t id) const { return locations[id - 1]; }
  const PprofFunction& function(uint64_t id) const { return functions[id - 1]; }
};

PprofProfile build_pprof_profile(const EventStore& store, const Profile& profile);

// How a frame reads in a folded stack: its function's name or, for a function without
// one, "file:line:0" (the first field of the line `go tool pprof -raw` prints for it).
std::string location_label(const PprofProfile& p, const PprofLocation& loc);

}  // namespace gotrace::analysis
