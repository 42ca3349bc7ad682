// gotrace mmu: minimum mutator utilization, worst windows and utilization quantiles.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "command.h"
#include "file_io.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/go_duration.h"
#include "gotrace/analysis/mmu.h"
#include "gotrace/analysis/report.h"
#include "gotrace/reader.h"
#include "gotrace/session.h"
#include "output.h"

namespace gotrace::cli {
namespace {

using namespace gotrace::analysis;

// s right-aligned in `width` columns (counting characters, not bytes: "µs").
std::string pad_left(const std::string& s, size_t width) {
  size_t chars = 0;
  for (unsigned char c : s) chars += (c & 0xC0) != 0x80;
  return chars >= width ? s : std::string(width - chars, ' ') + s;
}

int run_mmu(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  unsigned flags = kUtilSTW | kUtilBackground | kUtilAssist | kUtilSweep;
  if (args.flag("flags")) {
    auto f = parse_util_flags(args.value("flags"));
    if (!f) throw std::runtime_error("bad --flags " + args.value("flags") + " (see --help)");
    flags = *f;
  }
  std::vector<int64_t> windows(std::begin(kReportWindows), std::end(kReportWindows));
  if (args.flag("window")) {
    auto w = parse_go_duration(args.value("window"));
    if (!w || *w <= 0) throw std::runtime_error("bad --window " + args.value("window") + " (e.g. 1ms, 500us)");
    windows = {*w};
  }
  int worst = 3;
  if (args.flag("worst")) {
    worst = static_cast<int>(parse_bounded("worst", args.value("worst"), 0, 1'000'000));
  }

  TraceSession session(read_trace(read_file(args.positional()[0])));
  const ReadResult& r = session.read();
  const MmuCurve& curve = session.mmu_curve(flags);
  std::vector<MmuWindowResult> results;
  for (int64_t w : windows) results.push_back(mmu_window(curve, w, worst, kMudQuantiles));
  const bool want_plot = args.flag("curve");
  MmuPlot plot;
  if (want_plot) plot = mmu_plot(curve, false);

  if (args.flag("json")) {
    std::string out;
    JsonWriter w(out, true);
    w.begin_object();
    w.key("mmu");
    mmu_json(w, flags, curve, results, kMudQuantiles);
    w.key("plot");
    if (want_plot) {
      mmu_plot_json(w, plot);
    } else {
      w.null();
    }
    w.end_object();
    out += '\n';
    std::fwrite(out.data(), 1, out.size(), stdout);
  } else {
    // The worst windows' starts count from the trace's first event, as the web app's do
    // (the curve's first point may come later).
    const int64_t t0 = r.store.size() ? r.store.time(0) : curve.min_time();
    std::printf("Mutator utilization, GC work = %s (%zu series, %zu points)\n\n", util_flags_name(flags).c_str(),
                curve.series_count(), curve.points());
    std::printf("%10s %10s %10s %10s %10s   %s\n", "Window", "MMU", "0.1%ile", "1%ile", "5%ile",
                "worst windows (start since trace start: utilization)");
    for (const MmuWindowResult& res : results) {
      std::printf("%s %10.6f %10.6f %10.6f %10.6f  ", pad_left(go_duration_string(res.window), 10).c_str(), res.mmu, res.mud[1],
                  res.mud[2], res.mud[3]);
      for (const UtilWindow& u : res.worst)
        std::printf(" %s: %.4f", go_duration_string(u.time - t0).c_str(), u.mutator_util);
      std::printf("\n");
    }
    if (want_plot) {
      std::printf("\nMMU curve:\n");
      for (const auto& p : plot.curve)
        std::printf("%s %10.6f\n", pad_left(go_duration_string(static_cast<int64_t>(p[0])), 14).c_str(), p[1]);
    }
  }
  return finish(r);
}

Register reg({
    "mmu",
    "minimum mutator utilization: MMU, worst windows, utilization quantiles",
    "Usage: gotrace mmu [--json] [--flags=F] [--window=W] [--worst=N] [--curve] FILE\n\n"
    "The share of CPU time left to the program (the mutator) while the GC works, as\n"
    "`go tool trace` computes it: for each window length, the minimum over all windows of\n"
    "that length (MMU), the worst disjoint windows, and the utilization below which the\n"
    "worst 0.1%, 1% and 5% of windows fall.\n\n"
    "  --flags=F   what counts as GC work, words joined by '|', ',' or '+': stw, background,\n"
    "              assist, sweep, perproc (one series per P); all = the first four.\n"
    "              Default: all\n"
    "  --window=W  one window length (Go syntax: 100us, 1.5ms, 2s); default 1µs to 1s\n"
    "  --worst=N   how many worst windows to list per window length (default 3)\n"
    "  --curve     also the MMU curve: 100 window lengths over six decades\n"
    "  --json      one JSON object: {\"mmu\": {flags, series, points, windows: [{window,\n"
    "              label, mmu, worst, mud}]}, \"plot\": curve or null}\n",
    {"flags", "window", "worst"},
    {"json", "flags", "window", "worst", "curve"},
    run_mmu,
});

}  // namespace
}  // namespace gotrace::cli
