// gotrace tasks: user tasks (runtime/trace.NewTask) by type, or one by one.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "command.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/tasks.h"
#include "gotrace/reader.h"
#include "summarized_read.h"
#include "output.h"

namespace gotrace::cli {
namespace {

using namespace gotrace::analysis;

void print_types(const std::vector<TaskTypeStats>& types) {
  std::printf("%-40s %8s %9s %12s %12s %12s %12s\n", "Task type", "Count", "Complete", "p50", "p90", "p99", "max");
  for (const TaskTypeStats& t : types) {
    const DurationQuantiles& q = t.durations.quantiles;
    auto cell = [&](int64_t v) { return q.count ? human_duration(v) : std::string("-"); };
    std::printf("%-40s %8zu %9zu %12s %12s %12s %12s\n", std::string(t.name).c_str(), t.count, t.complete,
                cell(q.p50).c_str(), cell(q.p90).c_str(), cell(q.p99).c_str(), cell(q.max).c_str());
  }
}

void print_tasks(const Summary& s) {
  std::printf("%10s %-30s %10s %16s %12s %6s %6s %8s\n", "ID", "Type", "Parent", "Start", "Duration", "Logs", "Regns",
              "Gorouts");
  for (const TaskSummary& t : s.tasks) {
    Interval iv = task_interval(s, t);
    std::string parent = t.has_parent() ? std::to_string(t.parent) : "-";
    std::string start = t.start_event != kNoEvent ? std::to_string(t.start) : "-";
    std::string dur = t.complete() ? human_duration(iv.duration()) : ">" + human_duration(iv.duration());
    std::printf("%10llu %-30s %10s %16s %12s %6zu %6zu %8zu\n", static_cast<unsigned long long>(t.id),
                std::string(t.name).c_str(), parent.c_str(), start.c_str(), dur.c_str(), t.logs.size(),
                t.regions.size(), t.goroutines.size());
  }
}

int run_tasks(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  const auto trace = read_summarized(args.positional()[0]);
  SummaryViews& views = trace->views();
  const Summary& s = views.summary();
  const std::vector<TaskTypeStats>& types = views.task_types();
  if (args.flag("json")) {
    print_json([&](JsonWriter& w) { tasks_json(w, views.events(), s, types); });
  } else if (args.flag("list")) {
    print_tasks(s);
  } else {
    print_types(types);
  }
  return finish(trace->read);
}

Register reg({
    "tasks",
    "user tasks by type with their duration distribution",
    "Usage: gotrace tasks [--json | --list] FILE\n\n"
    "Prints the user tasks (runtime/trace.NewTask) grouped by type as `go tool trace`\n"
    "does: how many, how many complete (begun and ended within the trace), and quantiles\n"
    "of the durations of the complete ones.\n\n"
    "  --list   every task: id, type, parent, start, duration (\">\" for an incomplete\n"
    "           task: at least), logs, regions and goroutines\n"
    "  --json   types (with histograms) and every task with its children, logs, regions\n"
    "           and goroutines, as one JSON object (times in ns)\n\n"
    "A trace that cannot be read to the end is analysed as far as it was read; the exit\n"
    "status is then 1.\n",
    {},
    {"json", "list"},
    run_tasks,
    {},
    {{"json", "list"}},
});

}  // namespace
}  // namespace gotrace::cli
