// The parts of the goroutine, task and region analyses that one view shows: a group's
// goroutines sorted by a column, the instances of a type in one histogram bucket, and
// the JSON of each, so that a large trace's summary stays where it was computed and
// only a page of it is converted.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "gotrace/analysis/goroutines.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/analysis/summary_events.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/json_writer.h"

namespace gotrace::analysis {

// The columns a group's goroutines sort by (the web app's goroutine table): id, start
// (never started: -1), total, exec, sched_wait, block (all reasons), syscall,
// syscall_block, unknown, range:GC mark assist, breakdown (exec / total).
enum class GoroutineSort { Id, Start, Total, Exec, SchedWait, Block, Syscall, SyscallBlock, Unknown, Assist, Breakdown };
std::optional<GoroutineSort> parse_goroutine_sort(std::string_view column);

// A group's goroutines, in the group's order (longest total first, then by id).
std::vector<const GoroutineSummary*> group_members(const Summary& s, const GoroutineGroup& group);

// A goroutine's value in a column (doubles, as the web app compares them: exec / total is
// a ratio); `assist`: the summary's range name of GC mark assist (assist_range).
double goroutine_sort_key(const GoroutineSummary& g, GoroutineSort by, std::optional<uint32_t> assist);
std::optional<uint32_t> assist_range(const Summary& s);

// A group's goroutines (group_members) ordered by a column; ties keep the group's order.
std::vector<const GoroutineSummary*> sorted_goroutines(const Summary& s,
                                                       std::span<const GoroutineSummary* const> members,
                                                       GoroutineSort by, bool descending);

// The histogram bucket of a duration (TimeHistogram's), and the bucket a lower bound
// names (bucket_min's inverse, rounded).
int duration_bucket(int64_t ns);
int bucket_of_min(double min_ns);
// The same of a lower bound that may be absent (no bucket: every instance).
inline std::optional<int> bucket_of_min(std::optional<double> min_ns) {
  return min_ns ? std::optional<int>(bucket_of_min(*min_ns)) : std::nullopt;
}

// The complete tasks of a type whose duration falls in bucket b, by id; with no bucket,
// every task of the type, complete or not (those no histogram counts).
std::vector<const TaskSummary*> tasks_in_bucket(const Summary& s, std::string_view type, std::optional<int> b);
bool task_in_bucket(const TaskSummary& t, std::string_view type, std::optional<int> b);
// The regions of a type (and, with `at`, begun at its pc) whose region_interval falls in
// bucket b, by goroutine then start.
std::vector<const RegionSummary*> regions_in_bucket(const Summary& s, std::string_view type, int b,
                                                    const RegionsAtPc* at = nullptr);
bool region_in_bucket(const Summary& s, const RegionSummary& r, std::string_view type, int b, const RegionsAtPc* at);

// Task logs whose category or message contains `text` (ASCII letters compared without
// case), in task order, at most `limit`: (task, log event index).
std::vector<std::pair<TaskID, uint64_t>> logs_matching(const SummaryEvents& events, const Summary& s,
                                                       std::string_view text, size_t limit);
// Whether a log's category or message contains `text`, as logs_matching asks.
bool log_matches(const LogFields& log, std::string_view text);

// A group without its goroutines' ids: {"name", "count", "exec", "sched_wait", "syscall",
// "syscall_block", "block", "unknown", "total", "stats"} (as in goroutines_json).
void goroutine_group_json(JsonWriter& w, const Summary& s, const GoroutineGroup& group);
// A page of a group's goroutines (sorted_goroutines), rows [from, to): {"group", "count",
// "maxTotal", "first" (the earliest start or creation), "last" (the latest end; null while
// one is alive), "rows": [goroutine_row_json...]}.
void goroutine_group_page_json(JsonWriter& w, const Summary& s, const GoroutineGroup& group,
                               std::span<const GoroutineSummary* const> rows, size_t from, size_t to);
// What a page says of all of a group's goroutines besides its rows: add() each.
struct GroupPageBounds {
  size_t count = 0;
  int64_t max_total = 1;
  Time first = 0, last = 0;
  bool any_start = false, alive = false;
  void add(const GoroutineSummary& g);
};
// The same page with its bounds made, `rows` writing its goroutine_row_json's.
void goroutine_group_page_json(JsonWriter& w, const Summary& s, const GoroutineGroup& group,
                               const GroupPageBounds& bounds, const std::function<void(JsonWriter&)>& rows);
// Task logs (logs_matching): [{"task", "time", "goroutine", "category", "message"}].
void task_logs_json(JsonWriter& w, const SummaryEvents& events, std::span<const std::pair<TaskID, uint64_t>> logs);
// One task as `gotrace tasks --json` lists it (its logs' fields from `events`).
void task_entry_json(JsonWriter& w, const EventStore& store, const Summary& s, const TaskSummary& t);
void task_entry_json(JsonWriter& w, const SummaryEvents& events, const Summary& s, const TaskSummary& t);
// One region as `gotrace regions --json` lists it.
void region_entry_json(JsonWriter& w, const Summary& s, const RegionSummary& r);

}  // namespace gotrace::analysis
