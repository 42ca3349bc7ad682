// A port of Go's MMUCurve (internal/trace/gc.go, Go 1.23): banded summaries of each
// utilization series, refined lowest bound first, with Go's heaps so that ties resolve
// as in Go.
#include "gotrace/analysis/mmu.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/go_heap.h"
#include "gotrace/go_int.h"
#include "mud.h"

namespace gotrace::analysis {

namespace {
constexpr int kBandsPerSeries = 1000;
constexpr int64_t kMaxTime = std::numeric_limits<int64_t>::max();

// Total utilization over a duration, in ns (Go's totalUtil).
double total_util(double mean, int64_t dur) { return mean * static_cast<double>(dur); }
}  // namespace

struct MmuCurve::Series {
  UtilSeries util;
  std::vector<double> sums;  // sums[j]: the integral of util up to util[j].time
  struct Band {
    double min_util = 1;  // lowest instantaneous utilization in the band
    double cum_util = 0;  // integral up to the band's left edge
    size_t pos = 0;       // integrator position at the left edge
  };
  std::vector<Band> bands;
  int64_t band_dur = 1;

  explicit Series(UtilSeries u);
  int64_t duration() const { return util.back().time - util.front().time; }
  void band_time(size_t i, int64_t& start, int64_t& end) const {
    start = static_cast<int64_t>(i) * band_dur + util.front().time;
    end = start + band_dur;
  }
};

namespace {

// Go's integrator: a position in a series and the integral up to a time.
struct Integrator {
  const MmuCurve::Series* u;
  size_t pos = 0;  // index of the current time's non-strict predecessor

  // The integral from 0 to `time`; times must not decrease.
  double advance(int64_t time) {
    const UtilSeries& util = u->util;
    constexpr size_t kMaxSeq = 8;
    if (pos + kMaxSeq < util.size() && util[pos + kMaxSeq].time > time) {
      // Nearby: a linear scan.
      while (pos + 1 < util.size() && util[pos + 1].time <= time) pos++;
    } else {
      // Far: binary search for the strict successor.
      size_t l = pos, r = util.size();
      while (l < r) {
        size_t h = (l + r) / 2;
        if (util[h].time <= time) {
          l = h + 1;
        } else {
          r = h;
        }
      }
      pos = l - 1;
    }
    double partial = 0;
    if (time != util[pos].time) partial = total_util(util[pos].util, time - util[pos].time);
    return u->sums[pos] + partial;
  }

  // The first time after `time` where the utilization changes.
  int64_t next(int64_t time) const {
    for (size_t k = pos; k < u->util.size(); k++)
      if (u->util[k].time > time) return u->util[k].time;
    return kMaxTime;
  }
};

struct BandUtil {
  size_t series;
  size_t band;
  double util_bound;  // lower bound of the MU of every window starting in the band
};
struct BandUtilLess {
  bool operator()(const BandUtil& a, const BandUtil& b) const { return a.util_bound < b.util_bound; }
};
// Go's utilHeap: the root is the least bad of the worst windows kept.
struct UtilWindowLess {
  bool operator()(const UtilWindow& a, const UtilWindow& b) const {
    if (a.mutator_util != b.mutator_util) return a.mutator_util > b.mutator_util;
    return a.time > b.time;
  }
};

}  // namespace

MmuCurve::Series::Series(UtilSeries u) : util(std::move(u)) {
  sums.resize(util.size());
  MutatorUtil prev;
  double sum = 0;
  for (size_t j = 0; j < util.size(); j++) {
    sum += total_util(prev.util, util[j].time - prev.time);
    sums[j] = sum;
    prev = util[j];
  }

  // Equal, non-overlapping bands; no point in more bands than changes.
  size_t num_bands = std::min<size_t>(kBandsPerSeries, util.size());
  int64_t dur = duration();
  band_dur = (dur + static_cast<int64_t>(num_bands) - 1) / static_cast<int64_t>(num_bands);
  if (band_dur < 1) band_dur = 1;
  // One more band to record the final cumulative sum.
  bands.resize(num_bands + 1);
  Integrator left{this, 0};
  for (size_t i = 0; i < bands.size(); i++) {
    int64_t start, end;
    band_time(i, start, end);
    double cum = left.advance(start);
    double min_util = 1.0;
    for (size_t k = left.pos; k < util.size() && util[k].time < end; k++) min_util = std::min(min_util, util[k].util);
    bands[i] = {min_util, cum, left.pos};
  }
}

struct MmuCurve::Accumulator {
  double mmu = 1.0;
  // Utilization above this bound cannot change what is collected.
  double bound = 1.0;
  // The worst windows.
  int n_worst = 0;
  detail::GoHeap<UtilWindow, UtilWindowLess> worst;
  // The distribution.
  detail::Mud* mud = nullptr;
  // Go 1.23's MUD: its accumulator has no worst windows to keep, and addMU returns for
  // that case before it records the distribution, which stays empty: every quantile
  // then comes out as the MMU. go_mud() keeps that; mud() records the distribution.
  bool go_mud = false;
  double precise_mass = 0;
  int64_t last_time = 0;
  double last_mu = 0;

  // A discontinuity of the windowed utilization (matters only to the distribution).
  void reset_time() { last_time = kMaxTime; }

  // A point (time, mu) of the windowed utilization, times increasing. True when further
  // points would be pointless.
  bool add_mu(int64_t time, double mu, int64_t window) {
    if (mu < mmu) mmu = mu;
    bound = mmu;
    if (n_worst == 0 && (!mud || go_mud)) return mu == 0;  // the minimum cannot go below 0

    // One of the n worst windows? Of two overlapping windows keep the worse.
    auto& h = worst.items();
    if (n_worst > 0 && (static_cast<int>(h.size()) < n_worst || mu < h[0].mutator_util)) {
      bool keep_old = false;
      for (size_t k = 0; k < h.size(); k++) {
        if (time + window > h[k].time && h[k].time + window > time) {
          if (h[k].mutator_util <= mu) {
            keep_old = true;
          } else {
            worst.remove(k);
          }
          break;
        }
      }
      if (!keep_old) {
        worst.push({time, mu});
        if (static_cast<int>(worst.size()) > n_worst) worst.pop();
      }
    }
    if (static_cast<int>(h.size()) < n_worst) {
      bound = 1.0;  // not n windows yet: keep going
    } else if (n_worst > 0) {
      bound = std::max(bound, h[0].mutator_util);  // above the least bad, nothing changes
    }

    if (mud) {
      if (last_time != kMaxTime) mud->add(last_mu, mu, static_cast<double>(time - last_time));
      last_time = time;
      last_mu = mu;
      double lower, upper;
      if (mud->approx_inv_cumulative_sum(lower, upper)) {
        bound = std::max(bound, upper);
      } else {
        bound = 1;  // not even the tracked mass yet
      }
      return false;  // checking quantiles each time is not worth it: finish the band
    }
    // Enough zero windows: nothing can get worse.
    return static_cast<int>(h.size()) == n_worst && h[0].mutator_util == 0;
  }
};

namespace {

// Go's mkBandUtil: for each band, the worst possible mean utilization of any window
// starting in it.
void band_utils(const MmuCurve::Series& c, size_t series, int64_t window, std::vector<BandUtil>& out) {
  // The fewest and most bands a window can span, in any alignment.
  const int64_t min_bands = (window + c.band_dur - 1) / c.band_dur;
  const int64_t max_bands = (window + 2 * (c.band_dur - 1)) / c.band_dur;
  const int64_t tail_dur = window % c.band_dur;
  int64_t n = static_cast<int64_t>(c.bands.size()) - max_bands + 1;
  if (n < 0 || min_bands < 1) n = 0;  // (a window of 0 spans nothing; Go would fail here)
  for (int64_t i = 0; i < n; i++) {
    // The minimum for bands the window covers partly, the mean for bands every window
    // covers fully.
    double util = 0;
    const double l = c.bands[static_cast<size_t>(i)].min_util;
    const double r1 = c.bands[static_cast<size_t>(i + min_bands - 1)].min_util;
    const double r2 = c.bands[static_cast<size_t>(i + max_bands - 1)].min_util;
    const double min_band = std::min(l, std::min(r1, r2));
    // The worst window overlaps the lowest minimum as much as it can, then the second.
    if (min_bands == 1) {
      util += total_util(min_band, window);
    } else {
      util += total_util(min_band, c.band_dur);
      double mid_band = 0;
      if (min_band == l) {
        mid_band = std::min(r1, r2);
      } else if (min_band == r1) {
        mid_band = std::min(l, r2);
      } else if (min_band == r2) {
        mid_band = std::min(l, r1);
      }
      util += total_util(mid_band, tail_dur);
    }
    if (min_bands > 2) {
      util += c.bands[static_cast<size_t>(i + min_bands - 1)].cum_util - c.bands[static_cast<size_t>(i + 1)].cum_util;
    }
    out.push_back({series, static_cast<size_t>(i), util / static_cast<double>(window)});
  }
}

// Go's bandMMU: the exact windowed utilization for windows whose left edge is in the band.
// The windowed utilization is piecewise linear, with corners where an edge of the window
// meets a change, so only those points need looking at.
void band_mmu(const MmuCurve::Series& c, size_t band, int64_t window, MmuCurve::Accumulator& acc) {
  const UtilSeries& util = c.util;
  Integrator left{&c, c.bands[band].pos};
  Integrator right = left;
  int64_t time, end_time;
  c.band_time(band, time, end_time);
  if (int64_t util_end = util.back().time - window; util_end < end_time) end_time = util_end;
  acc.reset_time();
  for (;;) {
    // The integrals to both edges of the window.
    double mu = (right.advance(time + window) - left.advance(time)) / static_cast<double>(window);
    if (acc.add_mu(time, mu, window)) break;
    if (time == end_time) break;

    // The slope is at most 1/window, so the utilization stays above the bound for at
    // least (mu - bound) * window.
    int64_t min_time = time + static_cast<int64_t>((mu - acc.bound) * static_cast<double>(window));

    // To where an edge next meets a change.
    int64_t t1 = left.next(time), t2 = right.next(time + window) - window;
    time = t1 < t2 ? t1 : t2;
    if (time < min_time) time = min_time;
    // (For an MMU we could stop past the end; a distribution needs the whole band.)
    if (time >= end_time) time = end_time;
  }
}

}  // namespace

MmuCurve::MmuCurve() = default;
MmuCurve::MmuCurve(const MmuCurve&) = default;
MmuCurve::MmuCurve(MmuCurve&&) noexcept = default;
MmuCurve& MmuCurve::operator=(const MmuCurve&) = default;
MmuCurve& MmuCurve::operator=(MmuCurve&&) noexcept = default;
MmuCurve::~MmuCurve() = default;

MmuCurve::MmuCurve(std::vector<UtilSeries> series) {
  series_.reserve(series.size());
  for (UtilSeries& u : series) {
    if (u.empty()) continue;  // (Go's series always have a point)
    series_.emplace_back(std::move(u));
  }
}

size_t MmuCurve::series_count() const { return series_.size(); }

size_t MmuCurve::points() const {
  size_t n = 0;
  for (const Series& s : series_) n += s.util.size();
  return n;
}

int64_t MmuCurve::min_time() const {
  int64_t t = kMaxTime;
  for (const Series& s : series_) t = std::min(t, s.util.front().time);
  return series_.empty() ? 0 : t;
}

int64_t MmuCurve::max_time() const {
  int64_t t = std::numeric_limits<int64_t>::min();
  for (const Series& s : series_) t = std::max(t, s.util.back().time);
  return series_.empty() ? 0 : t;
}

void MmuCurve::run(int64_t window, Accumulator& acc) const {
  if (window <= 0) {
    acc.mmu = 0;
    return;
  }
  detail::GoHeap<BandUtil, BandUtilLess> bands;
  std::vector<int64_t> windows(series_.size());
  for (size_t i = 0; i < series_.size(); i++) {
    windows[i] = std::min(window, series_[i].duration());
    band_utils(series_[i], i, windows[i], bands.items());
  }
  // Refine bands from the lowest bound up, until refining cannot change the answer.
  bands.init();
  while (!bands.empty() && bands.top().util_bound < acc.bound) {
    const BandUtil b = bands.top();
    band_mmu(series_[b.series], b.band, windows[b.series], acc);
    bands.pop();
  }
}

double MmuCurve::mmu(int64_t window) const {
  Accumulator acc;
  run(window, acc);
  return acc.mmu;
}

std::vector<UtilWindow> MmuCurve::examples(int64_t window, int n) const {
  Accumulator acc;
  acc.n_worst = n;
  run(window, acc);
  std::vector<UtilWindow> out = std::move(acc.worst.items());
  std::sort(out.begin(), out.end(), [](const UtilWindow& a, const UtilWindow& b) {
    return a.mutator_util != b.mutator_util ? a.mutator_util < b.mutator_util : a.time < b.time;
  });
  return out;
}

std::vector<double> MmuCurve::mud(int64_t window, std::span<const double> quantiles) const {
  return distribution(window, quantiles, false);
}

std::vector<double> MmuCurve::go_mud(int64_t window, std::span<const double> quantiles) const {
  return distribution(window, quantiles, true);
}

std::vector<double> MmuCurve::distribution(int64_t window, std::span<const double> quantiles, bool go_quirk) const {
  if (quantiles.empty()) return {};
  // Refine bands until the highest quantile asked for is below the next band's worst
  // mean: everything further lies beyond it. The distribution's mass is in time units;
  // its total is the trace's length less the window.
  double max_q = *std::max_element(quantiles.begin(), quantiles.end());
  int64_t duration = 0;
  for (const Series& s : series_) {
    if (int64_t d = s.duration(); d >= window) duration = wrap_add(duration, d - window);
  }
  const double q_mass = static_cast<double>(duration) * max_q;

  detail::Mud mud;
  Accumulator acc;
  acc.precise_mass = q_mass;
  acc.mud = &mud;
  acc.go_mud = go_quirk;
  mud.set_track_mass(q_mass);
  run(window, acc);

  std::vector<double> out(quantiles.size());
  for (size_t i = 0; i < out.size(); i++) {
    double mu = mud.inv_cumulative_sum(static_cast<double>(duration) * quantiles[i]);
    // NaN: a window as long as the trace (one point) or no events; the quantiles have
    // converged to the MMU then.
    if (std::isnan(mu)) mu = acc.mmu;
    // The distribution is sampled where windows were refined, so it can miss a lone
    // minimum: nothing lies below the MMU, which is its 0-quantile.
    if (!go_quirk && (mu < acc.mmu || quantiles[i] == 0)) mu = acc.mmu;
    out[i] = mu;
  }
  return out;
}

MmuPlot mmu_plot(const MmuCurve& curve, bool with_quantiles) {
  MmuPlot plot;
  if (curve.series_count() == 0) return plot;
  if (with_quantiles) plot.quantiles.assign(std::begin(kMudQuantiles), std::end(kMudQuantiles));
  // A nice start: the first of 1s, 1ms, 1µs where the MMU is about 0.
  int64_t x_min = 1'000'000'000;
  while (x_min > 1) {
    if (curve.mmu(x_min) < 0.0001) break;
    x_min /= 1000;
  }
  // Six decades, but no more than the trace (and no fewer than one window: a trace
  // with no time span has the one).
  int64_t x_max = x_min * 1'000'000;
  if (int64_t span = wrap_sub(curve.max_time(), curve.min_time()); x_max > span) x_max = std::max(span, x_min);
  plot.x_min = x_min;
  plot.x_max = x_max;
  const double log_min = std::log(static_cast<double>(x_min)), log_max = std::log(static_cast<double>(x_max));
  constexpr int kSamples = 100;
  plot.curve.resize(kSamples);
  for (int i = 0; i < kSamples; i++) {
    auto window = static_cast<int64_t>(std::exp(static_cast<double>(i) / (kSamples - 1) * (log_max - log_min) + log_min));
    std::vector<double>& point = plot.curve[static_cast<size_t>(i)];
    point.push_back(static_cast<double>(window));
    if (plot.quantiles.empty()) {
      point.push_back(curve.mmu(window));
    } else {
      for (double v : curve.mud(window, plot.quantiles)) point.push_back(v);
    }
  }
  return plot;
}

}  // namespace gotrace::analysis

namespace gotrace::analysis {

MmuWindowResult mmu_window(const MmuCurve& curve, int64_t window, int n_worst, std::span<const double> quantiles) {
  MmuWindowResult r;
  r.window = window;
  r.mmu = curve.mmu(window);
  if (n_worst > 0) r.worst = curve.examples(window, n_worst);
  if (!quantiles.empty()) r.mud = curve.mud(window, quantiles);
  return r;
}

}  // namespace gotrace::analysis
