// gotrace goroutines: goroutine summaries grouped by start function.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "command.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/goroutines.h"
#include "gotrace/reader.h"
#include "summarized_read.h"
#include "output.h"

namespace gotrace::cli {
namespace {

using namespace gotrace::analysis;

void print_groups(const std::vector<GoroutineGroup>& groups) {
  std::printf("%-60s %7s %12s %12s %12s %12s %12s %12s %12s\n", "Start function", "Count", "Execution", "Sched wait",
              "Block", "Syscall", "Syscall blk", "Unknown", "Total");
  for (const GoroutineGroup& g : groups) {
    std::string name = g.name.empty() ? "(inactive, no stack trace sampled)" : std::string(g.name);
    std::printf("%-60s %7zu %12s %12s %12s %12s %12s %12s %12s\n", name.c_str(), g.count, human_duration(g.totals.exec).c_str(),
                human_duration(g.totals.sched_wait).c_str(), human_duration(g.totals.block_total()).c_str(),
                human_duration(g.totals.syscall).c_str(), human_duration(g.totals.syscall_block).c_str(),
                human_duration(g.totals.unknown()).c_str(), human_duration(g.totals.total).c_str());
  }
}

void print_group(const Summary& s, const GoroutineGroup& group) {
  std::printf("Goroutines of %s: %zu, by total time\n\n", group.name.empty() ? "(inactive)" : std::string(group.name).c_str(),
              group.count);
  for (GoID id : group.goroutines) {
    const GoroutineSummary& g = *s.goroutine(id);
    std::printf("goroutine %lld  total %s  created %lld", static_cast<long long>(g.id), human_duration(g.stats.total).c_str(),
                static_cast<long long>(g.creation_time));
    if (g.end_time) std::printf("  ended %lld", static_cast<long long>(g.end_time));
    std::printf("\n");
    for (const NamedDuration& d : non_overlapping_stats(s, g.stats))
      if (d.ns) std::printf("    %-36s %12s\n", d.name.c_str(), human_duration(d.ns).c_str());
    for (const StatEntry& e : g.stats.ranges)
      std::printf("    %-36s %12s\n", s.range_names[e.name].c_str(), human_duration(e.ns).c_str());
    if (!g.regions.empty()) std::printf("    regions: %zu\n", g.regions.size());
  }
}

int run_goroutines(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  const auto trace = read_summarized(args.positional()[0]);
  const Summary& s = trace->views().summary();
  std::vector<GoroutineGroup> groups = goroutine_groups(s);
  if (args.flag("json")) {
    print_json([&](JsonWriter& w) { goroutines_json(w, s, groups); });
  } else if (args.flag("group")) {
    std::string name = args.value("group");
    const GoroutineGroup* found = nullptr;
    for (const GoroutineGroup& g : groups)
      if (g.name == name) found = &g;
    if (!found) throw std::runtime_error("no goroutines start in " + name);
    print_group(s, *found);
  } else {
    print_groups(groups);
  }
  return finish(trace->read);
}

Register reg({
    "goroutines",
    "goroutines grouped by start function, with execution, wait and block times",
    "Usage: gotrace goroutines [--json | --group=FUNC] FILE\n\n"
    "Summarizes every goroutine as `go tool trace` does: execution time, scheduler wait,\n"
    "block time by reason, syscall time, time blocked in syscalls, and time inside ranges\n"
    "(GC mark assist, stop-the-world...), also per user region. Prints the goroutines\n"
    "grouped by start function, most execution time first.\n\n"
    "  --json         every summary and group as one JSON object (times in ns)\n"
    "  --group=FUNC   the goroutines starting in FUNC, one by one\n\n"
    "A trace that cannot be read to the end is summarized as far as it was read; the\n"
    "exit status is then 1.\n",
    {"group"},
    {"json", "group"},
    run_goroutines,
    {},
    {{"json", "group"}},
});

}  // namespace
}  // namespace gotrace::cli
