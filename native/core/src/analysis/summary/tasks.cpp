// The task grouping of cmd/trace/tasks.go (Go 1.23).
#include "gotrace/analysis/tasks.h"

#include <algorithm>
#include <unordered_map>

namespace gotrace::analysis {

std::vector<TaskTypeStats> task_types(const Summary& summary) {
  std::vector<TaskTypeStats> types;
  std::vector<std::vector<int64_t>> durations;
  std::unordered_map<std::string_view, size_t> by_name;
  for (const TaskSummary& t : summary.tasks) {
    auto [it, inserted] = by_name.try_emplace(t.name, types.size());
    if (inserted) {
      types.emplace_back();
      types.back().name = t.name;
      durations.emplace_back();
    }
    TaskTypeStats& type = types[it->second];
    type.count++;
    if (t.complete()) {
      type.complete++;
      durations[it->second].push_back(t.end - t.start);
    }
  }
  for (size_t i = 0; i < types.size(); i++) types[i].durations = duration_distribution(std::move(durations[i]));
  std::sort(types.begin(), types.end(), [](const TaskTypeStats& a, const TaskTypeStats& b) { return a.name < b.name; });
  return types;
}

Interval task_interval(const Summary& summary, const TaskSummary& task) {
  return {task.start_event != kNoEvent ? task.start : summary.first_time,
          task.end_event != kNoEvent ? task.end : summary.last_time};
}

}  // namespace gotrace::analysis
