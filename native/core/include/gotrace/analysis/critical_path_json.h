// JSON of critical paths (src/analysis/path/critical_path_json.cpp).
#pragma once

#include "gotrace/analysis/critical_path.h"
#include "gotrace/json_writer.h"

namespace gotrace::analysis {

// `gotrace critical-path --json`: {"goroutine", "from", "to", "duration", "handoffs",
// "segments": [{"goroutine", "state", "reason" (null if none), "start", "end", "stack"
// (0: none), "function"}], "by_category" / "by_goroutine" / "by_function": [{"key",
// "goroutine" (by_goroutine only), "ns", "share"}], "stacks": {"ID": [{"func", "file",
// "line"}]}} for the stacks the segments name.
void critical_path_json(JsonWriter& w, const EventStore& store, const Summary& s, const CriticalPath& path);
// The same for many paths of one task or region type: {"kind", "name", "instances",
// "durations": {"min", "p50", "p90", "p99", "max", "total"}, "by_category",
// "by_function": [{"key", "ns", "share"}]} (the 50 largest functions).
void path_aggregate_json(JsonWriter& w, const PathAggregate& a);

}  // namespace gotrace::analysis
