// gotrace analysis: goroutine summaries, tasks and MMU in the shape of Go's references.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>

#include "both_at_once.h"
#include "command.h"
#include "output.h"
#include "file_io.h"
#include "mapped_file.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/go_duration.h"
#include "gotrace/analysis/report.h"
#include "gotrace/reader.h"
#include "gotrace/streamed_read.h"

namespace gotrace::cli {
namespace {

using namespace gotrace::analysis;
using Clock = std::chrono::steady_clock;

// Seconds of wall-clock and of processor time (this process), the best of several runs.
struct Timing {
  double wall = 1e300, cpu = 1e300;
};

// Runs `result = f()` `repeat` times; the previous result is freed before each run,
// so that only the computation is timed.
template <class T, class F>
Timing best_of(int repeat, T& result, F&& f) {
  Timing best;
  for (int i = 0; i < repeat; i++) {
    result = T{};
    auto t0 = Clock::now();
    std::clock_t c0 = std::clock();
    result = f();
    best.cpu = std::min(best.cpu, static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    best.wall = std::min(best.wall, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return best;
}

// s right-aligned in `width` columns (counting characters, not bytes: "µs").
std::string pad_left(const std::string& s, size_t width) {
  size_t chars = 0;
  for (unsigned char c : s) chars += (c & 0xC0) != 0x80;
  return chars >= width ? s : std::string(width - chars, ' ') + s;
}

void print_text(const Report& r) {
  std::printf("events      %llu\n", static_cast<unsigned long long>(r.events));
  std::printf("goroutines  %zu\n", r.goroutine_count());
  std::printf("tasks       %zu\n", r.task_count());
  std::printf("regions     %llu\n", static_cast<unsigned long long>(r.region_count()));
  std::printf("\nMinimum mutator utilization by window:\n%-38s", "");
  for (int64_t w : kReportWindows) std::printf("%s", pad_left(go_duration_string(w), 8).c_str());
  std::printf("\n");
  for (const MmuValues& v : r.mmu) {
    std::printf("%-38s", util_flags_name(v.flags).c_str());
    for (auto& [w, mmu] : v.by_window) std::printf("%8.4f", mmu);
    std::printf("\n");
  }
  if (!r.error.empty()) std::printf("\nerror: %s\n", r.error.c_str());
}

int run_analysis(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  const bool timing = args.flag("time");
  int repeat = 1;
  if (args.has_value("repeat")) {
    repeat = static_cast<int>(parse_bounded("repeat", args.value("repeat"), 1, 1'000'000));
  }
  std::vector<uint8_t> bytes;  // read whole when timed
  ReadResult r;
  Report report;
  Timing read_t, analysis_t;
  std::string error;
  if (!timing) {
    // Streamed: each generation's events go through the summaries and the MMU passes and
    // are released, and each goroutine and task is put away in a few bytes as it ends, so
    // memory stays that of about one generation besides the archive. The two passes run
    // at once on two cores: both only read the generation, which the reader leaves as it
    // is until they are done.
    MappedFile file(args.positional()[0]);
    std::unique_ptr<ReportBuilder> builder;
    read_streamed(file.bytes(), r, [&](const EventStore& s, size_t from, size_t to) {
      if (!builder) builder = std::make_unique<ReportBuilder>(s, SummaryKeeping::Archived);
      both_at_once([&] { builder->add_utilization(from, to); }, [&] { builder->add_summaries(from, to); });
      release_read_bytes(file, s);
    });
    if (!builder) builder = std::make_unique<ReportBuilder>(r.store, SummaryKeeping::Archived);
    error = r.ok() ? "" : r.error->what();
    report = builder->finish(error);
  } else {
    // Timed: the whole trace read, then analyzed, each on its own.
    bytes = read_file(args.positional()[0]);
    read_t = best_of(repeat, r, [&] { return read_trace(bytes); });
    error = r.ok() ? "" : r.error->what();
    analysis_t = best_of(repeat, report, [&] { return analyze(r.store, error); });
  }

  if (args.flag("json")) {
    // Written as it is made: gigabytes for the largest traces.
    std::string out;
    auto write_out = [](std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); };
    JsonWriter w(out, true, write_out);
    report_json(w, report);
    out += '\n';
    write_out(out);
  } else {
    print_text(report);
  }
  std::fflush(stdout);

  if (timing) {
    // The parts of analyze(), each on its own (together they share one pass).
    Summary summary;
    const Timing summary_t = best_of(repeat, summary, [&] { return summarize(r.store); });
    std::vector<std::vector<UtilSeries>> utils;
    const Timing util_t = best_of(repeat, utils, [&] { return mutator_utilization(r.store, kReportFlagSets); });
    std::vector<double> mmus;
    const Timing curve_t = best_of(repeat, mmus, [&] {
      std::vector<double> v;
      for (const auto& u : utils) {
        MmuCurve c(u);
        for (int64_t window : kReportWindows) v.push_back(c.mmu(window));
      }
      return v;
    });
    std::fprintf(stderr,
                 "read      %7.3f s wall %7.3f s cpu   (read_trace: %llu events, %.1f MB)\n"
                 "analysis  %7.3f s wall %7.3f s cpu   (analyze: %.2f of the read time by wall, %.2f by cpu)\n"
                 "  summaries, regions, tasks alone        %7.3f s wall %7.3f s cpu\n"
                 "  mutator utilization x%zu alone          %7.3f s wall %7.3f s cpu\n"
                 "  MMU curves, %zu windows each            %7.3f s wall %7.3f s cpu\n",
                 read_t.wall, read_t.cpu, static_cast<unsigned long long>(r.store.size()),
                 static_cast<double>(bytes.size()) / 1e6, analysis_t.wall, analysis_t.cpu, analysis_t.wall / read_t.wall,
                 analysis_t.cpu / read_t.cpu, summary_t.wall, summary_t.cpu, std::size(kReportFlagSets), util_t.wall,
                 util_t.cpu, std::size(kReportWindows), curve_t.wall, curve_t.cpu);
  }
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  return 0;
}

Register reg({
    "analysis",
    "goroutine summaries, user tasks and MMU together (Go's reference shape with --json)",
    "Usage: gotrace analysis [--json] [--time [--repeat=N]] FILE\n\n"
    "Runs the analyses of `go tool trace` over the trace: goroutine summaries with their\n"
    "regions, user tasks, and the minimum mutator utilization (MMU) at windows 1µs to 1s\n"
    "for three sets of GC work (STW; STW, background workers, assists and sweeping; the\n"
    "same per P). Without --json it prints counts and the MMU table.\n\n"
    "  --json      one JSON object in the shape of Go's analysis references: error, events,\n"
    "              goroutines (with stats and regions), mmu, tasks; times in ns\n"
    "  --time      also print, on stderr, how long reading (read_trace) and analysing\n"
    "              (summaries, tasks and the MMU table) took, in wall-clock and CPU seconds\n"
    "  --repeat=N  with --time: the best of N runs of each\n\n"
    "A trace that cannot be read to the end is analysed as far as it was read; the error\n"
    "is in the output and the exit status is 1.\n",
    {"repeat"},
    {"json", "time", "repeat"},
    run_analysis,
});

}  // namespace
}  // namespace gotrace::cli
