// The task grouping of cmd/trace/tasks.go (Go 1.23).
#include "gotrace/analysis/tasks.h"

#include <algorithm>
#include <unordered_map>

namespace gotrace::analysis {

void TaskTypeTally::add(const TaskSummary& t) {
  auto [it, inserted] = by_name_.try_emplace(t.name, types_.size());
  if (inserted) {
    types_.emplace_back();
    types_.back().name = t.name;
    durations_.emplace_back();
  }
  TaskTypeStats& type = types_[it->second];
  type.count++;
  if (t.complete()) {
    type.complete++;
    durations_[it->second].push_back(t.end - t.start);
  }
}

std::vector<TaskTypeStats> TaskTypeTally::take() {
  for (size_t i = 0; i < types_.size(); i++) types_[i].durations = duration_distribution(std::move(durations_[i]));
  std::sort(types_.begin(), types_.end(), [](const TaskTypeStats& a, const TaskTypeStats& b) { return a.name < b.name; });
  return std::move(types_);
}

std::vector<TaskTypeStats> task_types(const Summary& summary) {
  TaskTypeTally tally;
  for (const TaskSummary& t : summary.tasks) tally.add(t);
  return tally.take();
}

Interval task_interval(const Summary& summary, const TaskSummary& task) {
  return {task.start_event != kNoEvent ? task.start : summary.first_time,
          task.end_event != kNoEvent ? task.end : summary.last_time};
}

}  // namespace gotrace::analysis
