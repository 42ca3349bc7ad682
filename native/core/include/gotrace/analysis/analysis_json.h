// JSON for the analyses: the one place their results become JSON, so that the CLI's
// --json and the wasm bindings print the same objects. All times and durations in ns.
#pragma once

#include "gotrace/analysis/critical_path.h"
#include "gotrace/analysis/goroutines.h"
#include "gotrace/analysis/mmu.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/analysis/report.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/tasks.h"
#include "gotrace/analysis/trace_diff.h"
#include "gotrace/json_writer.h"

namespace gotrace::analysis {

// Go's analysis references: {"error", "events", "goroutines": [goroutine_json...],
// "mmu": {flags name: {window: MMU}}, "tasks": [task_json...]}; empty lists are null.
void report_json(JsonWriter& w, const Report& report);

// {"exec", "sched_wait", "syscall", "syscall_block", "total", "block:<reason>",
// "range:<name>"}, keys sorted as Go's encoding/json sorts a map's.
void exec_stats_json(JsonWriter& w, const Summary& s, const ExecStats& stats);
// {"task", "name", "start", "end", "stats"} (0 for a missing start or end).
void region_json(JsonWriter& w, const Summary& s, const RegionSummary& region);
// {"id", "name", "pc", "creation", "start", "end", "stats", "regions": [...] or null}.
void goroutine_json(JsonWriter& w, const Summary& s, const GoroutineSummary& g);
// The same with "regions" as their count (a row of a goroutine table: its regions can be
// many, each with its statistics).
void goroutine_row_json(JsonWriter& w, const Summary& s, const GoroutineSummary& g);
// {"id", "name", "parent" (0 if none), "start", "end", "complete", "logs": count,
// "regions": count, "goroutines": [...] or null}.
void task_json(JsonWriter& w, const TaskSummary& t);

// `gotrace goroutines --json`: {"groups": [{"name", "count", "exec", "sched_wait",
// "syscall", "syscall_block", "block", "unknown", "total", "goroutines": [ids]}],
// "goroutines": [goroutine_json...]}.
void goroutines_json(JsonWriter& w, const Summary& s, const std::vector<GoroutineGroup>& groups);

// `gotrace tasks --json`: {"types": [{"name", "count", "complete", "durations"}],
// "tasks": [{"id", "name", "parent" (null if none), "children", "start", "end"
// (null if not in the trace), "complete", "duration" (null unless complete),
// "goroutines", "logs": [{"time", "goroutine", "category", "message"}],
// "regions": [{"goroutine", "name", "start", "end"}]}]}.
void tasks_json(JsonWriter& w, const EventStore& store, const Summary& s, const std::vector<TaskTypeStats>& types);

// `gotrace regions --json`: {"types": [{"name", "pc", "func", "file", "line", "count",
// "durations"}], "regions": [{"goroutine", "task", "name", "start", "end" (null if not
// in the trace), "duration", "stats"}]} (regions by goroutine, then start).
void regions_json(JsonWriter& w, const Summary& s, const std::vector<RegionTypeStats>& types);

// The "types" arrays of the two above alone (the web app's tables of tasks and regions).
void task_types_json(JsonWriter& w, const std::vector<TaskTypeStats>& types);
void region_types_json(JsonWriter& w, const std::vector<RegionTypeStats>& types);

// {"histogram": {"count", "buckets": [{"min", "count"}] (first to last non-empty)},
// "quantiles": {"count", "min", "p50", "p90", "p99", "max", "total"}}.
void duration_distribution_json(JsonWriter& w, const DurationDistribution& d);

// `gotrace mmu --json` for one flag set: {"flags", "series", "points", "windows":
// [{"window", "label", "mmu", "worst": [{"time", "util"}], "mud": [{"quantile",
// "util"}]}]}.
void mmu_json(JsonWriter& w, unsigned flags, const MmuCurve& curve, const std::vector<MmuWindowResult>& windows,
              std::span<const double> quantiles);
// {"x_min", "x_max", "quantiles", "curve": [[window, value...]]}.
void mmu_plot_json(JsonWriter& w, const MmuPlot& plot);

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

// `gotrace diff --json`: {"before": {"from", "to"}, "after": {...}, "groups": [{"name",
// "before", "after", "delta": {"count", "exec", ..., "block:<reason>", ...}, "relative":
// {same keys: delta / before, null where before is 0}}] (largest |delta total| first),
// "tasks" / "regions": [{"name", "before", "after": {"histogram", "quantiles"}, "delta":
// {"count", "p50", "p90", "p99", "max", "total"}}], "gc": {"before", "after": {"cycles",
// "stw_count", "stw_ns", "mmu": [[window, mmu]...]}, "delta"}, "profiles": {TYPE:
// {"before", "after", "delta": {"count", "ns"}, "stacks": [{"stack", "before", "after",
// "delta": {"count", "ns"}}] (the `top` largest |delta| first)}}.
void trace_diff_json(JsonWriter& w, const TraceFigures& before, const TraceFigures& after, size_t top);

}  // namespace gotrace::analysis
