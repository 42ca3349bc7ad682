// The user task views of `go tool trace` (cmd/trace/tasks.go): tasks grouped by type
// with the distribution of their durations, from the summaries of summary.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>
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

// task_types a task at a time (for tasks not held in one array: an archive's).
class TaskTypeTally {
 public:
  void add(const TaskSummary& t);
  std::vector<TaskTypeStats> take();

 private:
  std::vector<TaskTypeStats> types_;
  std::vector<std::vector<int64_t>> durations_;  // of each type's complete tasks
  std::unordered_map<std::string_view, size_t> by_name_;
};

// Go's taskInterval: the task's begin and end, or the trace's first and last event for
// a side not in the trace.
struct Interval {
  Time start = 0;
  Time end = 0;
  int64_t duration() const { return end - start; }
};
Interval task_interval(const Summary& summary, const TaskSummary& task);

}  // namespace gotrace::analysis
