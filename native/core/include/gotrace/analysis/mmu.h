// Mutator utilization and the minimum mutator utilization (MMU) curve: a port of Go's
// internal/trace gc.go and mud.go (Go 1.23), FORMAT.md §6.2.
#pragma once

#include <cstdint>
#include <optional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gotrace/event_store.h"

namespace gotrace::analysis {

// What counts as GC work (Go's UtilFlags).
enum UtilFlags : unsigned {
  kUtilSTW = 1,         // stop-the-world phases whose name mentions GC
  kUtilBackground = 2,  // background mark workers
  kUtilAssist = 4,      // mark assists
  kUtilSweep = 8,       // incremental sweeping
  kUtilPerProc = 16,    // one series per P instead of one shared by all Ps
};

// A change in mutator utilization: from `time` on, the mean utilization is `util`
// (0 to 1). A series is such changes in time order.
struct MutatorUtil {
  int64_t time = 0;
  double util = 0;
};
using UtilSeries = std::vector<MutatorUtil>;

// The most GOMAXPROCS mutator_utilization computes, a series per P: more than any
// machine runs (Linux's own limit is 8192 CPUs).
inline constexpr uint64_t kMmuMaxProcs = 1 << 16;

// Go's MutatorUtilizationV2: one series (or one per P with kUtilPerProc), each ending
// with utilization 0 at the last event. Empty when the trace never states GOMAXPROCS.
// Throws TraceError for a trace no runtime writes: GOMAXPROCS above kMmuMaxProcs, or
// per P more work than the events can need (a point per P at each stop of the world).
std::vector<UtilSeries> mutator_utilization(const EventStore& store, unsigned flags);

// The same for several flag sets, reading the events once for up to six of them.
std::vector<std::vector<UtilSeries>> mutator_utilization(const EventStore& store, std::span<const unsigned> flag_sets);

// mutator_utilization(store, flags) a piece at a time, for a caller with other work to
// do between pieces (the web worker answers requests): step() reads the next `events`
// events and is true once the series are complete; take() gives them (doing what is
// left), once.
class UtilizationBuild {
 public:
  UtilizationBuild(const EventStore& store, unsigned flags);
  UtilizationBuild(UtilizationBuild&&) noexcept;
  UtilizationBuild& operator=(UtilizationBuild&&) noexcept;
  ~UtilizationBuild();
  bool step(size_t events);
  std::vector<UtilSeries> take();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// A window of the trace and its mean mutator utilization (Go's UtilWindow).
struct UtilWindow {
  int64_t time = 0;
  double mutator_util = 0;
};

// Go's MMUCurve: answers MMU, worst-window and distribution questions for any window
// length (ns), refining 1000 summary bands per series only as far as each answer needs.
class MmuCurve {
 public:
  MmuCurve();
  explicit MmuCurve(std::vector<UtilSeries> series);
  MmuCurve(const MmuCurve&);
  MmuCurve(MmuCurve&&) noexcept;
  MmuCurve& operator=(const MmuCurve&);
  MmuCurve& operator=(MmuCurve&&) noexcept;
  ~MmuCurve();

  // The minimum, over every window of this length, of its mean utilization (0 to 1).
  double mmu(int64_t window) const;
  // Up to n disjoint windows with the lowest utilization, worst first.
  std::vector<UtilWindow> examples(int64_t window, int n) const;
  // Quantiles of the distribution of windowed utilization over all windows of this
  // length (the MUD): the utilization below which that share of windows falls. The
  // quantile 0 is the MMU. Computed as Go's MMUCurve.MUD means to, refining bands only
  // up to the highest quantile asked for.
  std::vector<double> mud(int64_t window, std::span<const double> quantiles) const;
  // Go 1.23's MMUCurve.MUD exactly: its accumulator returns before recording the
  // distribution, so every quantile comes out as the MMU (what `go tool trace` plots
  // as percentiles).
  std::vector<double> go_mud(int64_t window, std::span<const double> quantiles) const;

  size_t series_count() const;
  size_t points() const;
  // The span the series cover: earliest first point and latest last point.
  int64_t min_time() const;
  int64_t max_time() const;

  struct Series;       // one series with its cumulative sums and bands (mmu.cpp)
  struct Accumulator;  // what one question collects while bands are refined

 private:
  void run(int64_t window, Accumulator& acc) const;
  std::vector<double> distribution(int64_t window, std::span<const double> quantiles, bool go_quirk) const;
  std::vector<Series> series_;
};

// The answers for one window length: the MMU, the worst windows and the quantiles of
// the distribution (as `go tool trace` shows them).
struct MmuWindowResult {
  int64_t window = 0;
  double mmu = 0;
  std::vector<UtilWindow> worst;
  std::vector<double> mud;  // at the quantiles asked for
};
MmuWindowResult mmu_window(const MmuCurve& curve, int64_t window, int n_worst, std::span<const double> quantiles);

// Go's MMU plot (the /mmu page of `go tool trace`): 100 window lengths on a log scale
// over six decades starting where the MMU first drops near 0, capped at the trace's
// length. Each point is the window, then the MMU or, with `quantiles`, the MUD at them
// (mud(), where Go's page shows go_mud(): the MMU again for every quantile).
struct MmuPlot {
  int64_t x_min = 0;
  int64_t x_max = 0;
  std::vector<double> quantiles;             // empty: plain MMU
  std::vector<std::vector<double>> curve;    // [window, value...]
};
MmuPlot mmu_plot(const MmuCurve& curve, bool with_quantiles);

// The quantiles `go tool trace` plots with its "mut" option.
inline constexpr double kMudQuantiles[] = {0, 1 - .999, 1 - .99, 1 - .95};

// Flags as text: "stw", "background", "assist", "sweep" and "perproc" (or "per-proc"),
// joined by '|', ',' or '+'; "all" = the first four. nullopt for an unknown word.
std::optional<unsigned> parse_util_flags(std::string_view text);
// The name the analysis references give a flag set: the words joined by '+'
// ("stw+background+assist+sweep"), then " per-proc" for kUtilPerProc.
std::string util_flags_name(unsigned flags);

}  // namespace gotrace::analysis
