// The user task views of `go tool trace` (cmd/trace/tasks.go): tasks grouped by type
// with the distribution of their durations, from the summaries of summary.h.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "gotrace/analysis/histogram.h"
#include "gotrace/analysis/summary.h"

namespace gotrace::analysis {

struct TaskTypeStats {
  std::string_view name;
  size_t count = 0;     // every task of this type
  size_t complete = 0;  // those with both a begin and an end in the trace
  DurationDistribution durations;  // of the complete ones (as Go's histogram)
};

// One entry per task type, by name.
std::vector<TaskTypeStats> task_types(const Summary& summary);

// Go's taskInterval: the task's begin and end, or the trace's first and last event for
// a side not in the trace.
struct Interval {
  Time start = 0;
  Time end = 0;
  int64_t duration() const { return end - start; }
};
Interval task_interval(const Summary& summary, const TaskSummary& task);

}  // namespace gotrace::analysis
