// Which goroutines and times a profile counts: the restrictions of `go tool trace`'s
// profile pages (cmd/trace/pprof.go's pprofMatchingGoroutines and pprofMatchingRegions),
// built from the goroutine summaries of summary.h.
#pragma once

#include <functional>
#include <string_view>

#include "gotrace/analysis/profile.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/analysis/summary.h"

namespace gotrace::analysis {

// Go's pprofMatchingGoroutines: the goroutines whose start function is `name` (every
// goroutine when `name` is empty), each from its first run to its end, or to the end of
// the trace if it did not end. `go tool trace -pprof=TYPE` counts exactly these.
// Empty when no goroutine matches (Go: "failed to find matching goroutines for name").
GoroutineIntervals goroutine_group_intervals(const Summary& summary, std::string_view name = {});

// Go's pprofMatchingRegions: per goroutine, the outermost of its matching regions (a
// region nested in, or overlapping, an earlier match is dropped).
GoroutineIntervals region_intervals(const Summary& summary, const std::function<bool(const RegionSummary&)>& match);

// The regions of one type (Go's regionFilter by "type"); with `at`, only those begun at its
// pc (by "type" and "pc": one of the region types Go's regions page lists).
GoroutineIntervals region_type_intervals(const Summary& summary, std::string_view type, const RegionsAtPc* at = nullptr);

// The profile exactly as `go tool trace -pprof=TYPE FILE` computes it.
Profile compute_go_tool_profile(const EventStore& store, const Summary& summary, ProfileType type);

}  // namespace gotrace::analysis
