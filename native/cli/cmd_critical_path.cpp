// gotrace critical-path: what the end of a task, a region or a goroutine's interval
// waited on, walked back along the wake-ups (critical_path.h); or the same summed over
// every task or region of a type.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "command.h"
#include "file_io.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/critical_path.h"
#include "gotrace/analysis/histogram.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/reader.h"
#include "gotrace/session.h"
#include "output.h"

namespace gotrace::cli {
namespace {

using namespace gotrace::analysis;
using Clock = std::chrono::steady_clock;

// --timing: how long each stage took, on standard error.
class Stages {
 public:
  explicit Stages(bool on) : on_(on) {}
  void done(const char* stage) {
    const Clock::time_point now = Clock::now();
    if (on_) std::fprintf(stderr, "%-28s %9.1f ms\n", stage, std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }

 private:
  bool on_;
  Clock::time_point last_ = Clock::now();
};

void print_totals(const char* title, const std::vector<PathTotal>& totals, int64_t whole, size_t limit) {
  std::printf("\n%s\n", title);
  for (size_t k = 0; k < totals.size() && k < limit; k++) {
    const double share = whole > 0 ? 100.0 * static_cast<double>(totals[k].ns) / static_cast<double>(whole) : 0;
    std::printf("  %12s %6.1f%%  %s\n", human_duration(totals[k].ns).c_str(), share, totals[k].key.c_str());
  }
  if (totals.size() > limit) std::printf("  … %zu more (--json for all)\n", totals.size() - limit);
}

void print_path(const EventStore& store, const Summary& s, const CriticalPath& path, bool all_segments) {
  const int64_t whole = path.to - path.from;
  std::printf("critical path of goroutine %lld from %lld to %lld: %s, %zu segment%s, %zu hand-off%s\n",
              static_cast<long long>(path.goroutine), static_cast<long long>(path.from),
              static_cast<long long>(path.to), human_duration(whole).c_str(), path.segments.size(),
              path.segments.size() == 1 ? "" : "s", path.handoffs, path.handoffs == 1 ? "" : "s");
  const PathTotals totals = path_totals(store, s, path);
  print_totals("By category:", totals.by_category, whole, 20);
  print_totals("By goroutine:", totals.by_goroutine, whole, 10);
  print_totals("By category and function:", totals.by_function, whole, 15);
  std::printf("\nSegments:\n  %16s %12s %10s  %s\n", "Start", "Duration", "Goroutine", "State @ function");
  const size_t limit = all_segments ? path.segments.size() : 40;
  for (size_t k = 0; k < path.segments.size() && k < limit; k++) {
    const PathSegment& seg = path.segments[k];
    std::string_view f = path_function(store, seg.stack);
    std::printf("  %16lld %12s %10lld  %s%s%s\n", static_cast<long long>(seg.start),
                human_duration(seg.duration()).c_str(), static_cast<long long>(seg.goroutine),
                path_category(seg).c_str(), f.empty() ? "" : " @ ", std::string(f).c_str());
  }
  if (path.segments.size() > limit) std::printf("  … %zu more (--segments for all)\n", path.segments.size() - limit);
}

int run_critical_path(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  const int selections = args.has_value("task") + args.has_value("region") + args.has_value("goroutine") +
                         args.has_value("task-type") + args.has_value("region-type");
  if (selections != 1) {
    throw std::runtime_error("give one of --task, --region, --goroutine, --task-type, --region-type (see --help)");
  }
  const bool types = args.has_value("task-type") || args.has_value("region-type");
  double percent = 100;
  if (args.has_value("slowest")) {
    percent = parse_number("slowest", args.value("slowest"));
    if (!(percent > 0 && percent <= 100)) throw std::runtime_error("--slowest wants a percentage in (0, 100]");
    if (!types) throw std::runtime_error("--slowest goes with --task-type or --region-type");
  }
  if (args.has_value("region-pc") && !args.has_value("region-type"))
    throw std::runtime_error("--region-pc narrows --region-type: give the region type's name too");
  std::optional<Time> from, to;
  if (args.has_value("from")) from = parse_whole("from", args.value("from"));
  if (args.has_value("to")) to = parse_whole("to", args.value("to"));
  if ((from || to) && !args.has_value("goroutine")) throw std::runtime_error("--from and --to go with --goroutine");

  Stages stages(args.flag("timing"));
  TraceSession session(read_trace(read_file(args.positional()[0])));
  stages.done("read");
  const Summary& s = session.summary();
  stages.done("summary");
  session.critical_paths();
  stages.done("critical path index");
  const EventStore& store = session.store();
  // A selection not found in a trace read only in part: the read's error says why.
  auto selected = [&](auto&& select) {
    try {
      return select();
    } catch (const std::exception& e) {
      if (session.read().ok()) throw;
      throw std::runtime_error(std::string(e.what()) + "; the trace could be read only in part: " + session.read().error->what());
    }
  };

  if (types) {
    const bool tasks = args.has_value("task-type");
    PathTypeSelection which;
    which.kind = tasks ? "task" : "region";
    which.name = args.value(tasks ? "task-type" : "region-type");
    if (args.has_value("region-pc")) which.pc = parse_pc("region-pc", args.value("region-pc"));
    which.slowest_percent = percent;
    const PathAggregate a = selected([&] { return session.path_aggregate(which); });
    stages.done("paths of every instance");
    if (args.flag("json")) {
      print_json([&](JsonWriter& w) { path_aggregate_json(w, a); });
    } else {
      const DurationQuantiles q = duration_quantiles(a.durations);  // as --json reports them
      char at[40] = "";
      if (a.pc) std::snprintf(at, sizeof at, " begun at 0x%llx", static_cast<unsigned long long>(*a.pc));
      std::printf("critical paths of %zu %s%s '%s'%s%s: durations p50 %s, p90 %s, p99 %s, max %s\n", a.instances,
                  a.kind.c_str(), a.instances == 1 ? "" : "s", a.name.c_str(), at,
                  percent < 100 ? (" (the slowest " + args.value("slowest") + "%)").c_str() : "",
                  human_duration(q.p50).c_str(), human_duration(q.p90).c_str(), human_duration(q.p99).c_str(),
                  human_duration(q.max).c_str());
      print_totals("By category (share of their total time):", a.by_category, a.total_ns, 20);
      print_totals("By category and function:", a.by_function, a.total_ns, 20);
    }
    return finish(session.read());
  }

  const char* kind = args.has_value("task") ? "task" : args.has_value("region") ? "region" : "goroutine";
  const CriticalPath path = selected([&] { return session.critical_path(kind, args.value(kind), from, to); });
  stages.done("the path");
  if (args.flag("json")) {
    print_json([&](JsonWriter& w) { critical_path_json(w, store, s, path); });
  } else {
    print_path(store, s, path, args.flag("segments"));
  }
  return finish(session.read());
}

Register reg({
    "critical-path",
    "what a task, region or goroutine waited on: its critical path along the wake-ups",
    "Usage: gotrace critical-path FILE (--task=ID | --region=NAME[#N] | --goroutine=G\n"
    "           [--from=NS] [--to=NS]) [--segments | --json]\n"
    "       gotrace critical-path FILE (--task-type=NAME | --region-type=NAME [--region-pc=PC]) [--slowest=PCT]\n"
    "           [--json]\n\n"
    "Walks back from the end of the interval: while its goroutine ran, the time is its own\n"
    "(running, or GC work it was made to do); runnable, scheduling latency; in a syscall,\n"
    "the syscall. Where it was blocked, the path follows the wake-up to the goroutine that\n"
    "woke it, at the moment it did, and goes on along that goroutine, until the start is\n"
    "reached. A wait that no goroutine ended (network, timers, the runtime) stays on the\n"
    "path as \"blocked: REASON\" with Go's reason. The segments cover the interval once.\n\n"
    "  --task=ID           a user task, from its begin to its end (on the goroutine that\n"
    "                      ended it)\n"
    "  --region=NAME[#N]   the Nth region of that type to start (default the first)\n"
    "  --goroutine=G       goroutine G from its creation to its end; --from/--to (trace\n"
    "                      times, ns) narrow it\n"
    "  --task-type=NAME    every complete task of the type: their paths summed, with\n"
    "  --region-type=NAME  the distribution of their durations\n"
    "  --region-pc=PC      only the regions begun at PC (0x..., as `gotrace regions` prints\n"
    "                      it): one of the region types that share a name\n"
    "  --slowest=PCT       only the slowest PCT percent of them (1: the p99 tail)\n"
    "  --segments          print every segment (the first 40 otherwise)\n"
    "  --json              the path or the sums as one JSON object (times in ns)\n"
    "  --timing            how long reading, the summary, the index and the walk took\n"
    "                      (on standard error)\n\n"
    "A trace that cannot be read to the end is analysed as far as it was read; the exit\n"
    "status is then 1.\n",
    {"task", "region", "goroutine", "from", "to", "task-type", "region-type", "region-pc", "slowest"},
    {"task", "region", "goroutine", "from", "to", "task-type", "region-type", "region-pc", "slowest", "segments", "json",
     "timing"},
    run_critical_path,
    {},
    {{"json", "segments"}},
});

}  // namespace
}  // namespace gotrace::cli
