// gotrace regions: user regions (runtime/trace.WithRegion) by type and start frame.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "command.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/reader.h"
#include "summarized_read.h"
#include "output.h"

namespace gotrace::cli {
namespace {

using namespace gotrace::analysis;

void print_types(const std::vector<RegionTypeStats>& types) {
  std::printf("%-30s %-50s %8s %12s %12s %12s %12s\n", "Region type", "Started at", "Count", "p50", "p90", "p99",
              "max");
  for (const RegionTypeStats& t : types) {
    const DurationQuantiles& q = t.durations.quantiles;
    char pc[32];
    std::snprintf(pc, sizeof pc, " @ 0x%llx", static_cast<unsigned long long>(t.pc));
    std::string where = t.func.empty() ? "-" : std::string(t.func) + pc;
    std::printf("%-30s %-50s %8zu %12s %12s %12s %12s\n", std::string(t.name).c_str(), where.c_str(), t.count,
                human_duration(q.p50).c_str(), human_duration(q.p90).c_str(), human_duration(q.p99).c_str(), human_duration(q.max).c_str());
  }
}

void print_regions(const Summary& s) {
  std::printf("%10s %10s %-30s %16s %12s %12s %12s\n", "Goroutine", "Task", "Region type", "Start", "Duration",
              "Execution", "Blocked");
  for (const GoroutineSummary& g : s.goroutines) {
    for (uint32_t k : g.regions) {
      const RegionSummary& r = s.regions[k];
      std::string start = r.has_start() ? std::to_string(r.start) : "-";
      std::printf("%10lld %10llu %-30s %16s %12s %12s %12s\n", static_cast<long long>(g.id),
                  static_cast<unsigned long long>(r.task), std::string(r.name).c_str(), start.c_str(),
                  human_duration(region_interval(s, r).duration()).c_str(), human_duration(r.stats.exec).c_str(),
                  human_duration(r.stats.block_total()).c_str());
    }
  }
}

int run_regions(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  const auto trace = read_summarized(args.positional()[0]);
  const Summary& s = trace->views().summary();
  const std::vector<RegionTypeStats>& types = trace->views().region_types();
  if (args.flag("json")) {
    print_json([&](JsonWriter& w) { regions_json(w, s, types); });
  } else if (args.flag("list")) {
    print_regions(s);
  } else {
    print_types(types);
  }
  return finish(trace->read);
}

Register reg({
    "regions",
    "user regions by type and start location, with their duration distribution",
    "Usage: gotrace regions [--json | --list] FILE\n\n"
    "Prints the user regions (runtime/trace.WithRegion, StartRegion) grouped as `go tool\n"
    "trace` groups them, by region type and the frame that started them, with quantiles\n"
    "of their durations. A region open at the start or end of the trace counts from the\n"
    "first or to the last event.\n\n"
    "  --list   every region of every goroutine: goroutine, task, type, start, duration,\n"
    "           execution and blocked time\n"
    "  --json   the types (with histograms) and every region with its goroutine statistics\n"
    "           as one JSON object (times in ns)\n\n"
    "A trace that cannot be read to the end is analysed as far as it was read; the exit\n"
    "status is then 1.\n",
    {},
    {"json", "list"},
    run_regions,
    {},
    {{"json", "list"}},
});

}  // namespace
}  // namespace gotrace::cli
