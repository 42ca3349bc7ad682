// JSON of the goroutine, task and region summaries and of Go's analysis reference
// (src/analysis/summary/*_json.cpp). All times and durations in ns.
#pragma once

#include "gotrace/analysis/goroutines.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/analysis/report.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/summary_events.h"
#include "gotrace/analysis/tasks.h"
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
// The same with g.regions indexing `regions` (a goroutine read back from an archive).
void goroutine_json(JsonWriter& w, const Summary& s, const GoroutineSummary& g, std::span<const RegionSummary> regions);
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
// The logs' fields from the store, or from `events` (a streamed read's, kept).
void tasks_json(JsonWriter& w, const EventStore& store, const Summary& s, const std::vector<TaskTypeStats>& types);
void tasks_json(JsonWriter& w, const SummaryEvents& events, const Summary& s, const std::vector<TaskTypeStats>& types);

// `gotrace regions --json`: {"types": [{"name", "pc", "func", "file", "line", "count",
// "durations"}], "regions": [{"goroutine", "task", "name", "start", "end" (null if not
// in the trace), "duration", "stats"}]} (regions by goroutine, then start).
void regions_json(JsonWriter& w, const Summary& s, const std::vector<RegionTypeStats>& types);

// The "types" arrays of the two above alone (the web app's tables of tasks and regions).
void task_types_json(JsonWriter& w, const std::vector<TaskTypeStats>& types);
void region_types_json(JsonWriter& w, const std::vector<RegionTypeStats>& types);
// The same as documents of their own, {"types": [...]} (SummaryAnswers' answers).
std::string task_types_document(const std::vector<TaskTypeStats>& types, bool pretty);
std::string region_types_document(const std::vector<RegionTypeStats>& types, bool pretty);

// {"histogram": {"count", "buckets": [{"min", "count"}] (first to last non-empty)},
// "quantiles": {"count", "min", "p50", "p90", "p99", "max", "total"}}.
void duration_distribution_json(JsonWriter& w, const DurationDistribution& d);

}  // namespace gotrace::analysis
