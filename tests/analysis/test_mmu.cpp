// Mutator utilization and MMU: Go's own tests of gc.go and mud.go, ported, and the
// utilization series, MMU, worst windows and distribution of corpus traces compared
// with what Go computes for them (data/go-mmu.json.zst, see data/README.md).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "../../native/core/src/analysis/mmu/mud.h"
#include "corpus.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/go_duration.h"
#include "gotrace/analysis/mmu.h"
#include "gotrace/analysis/report.h"
#include "gotrace/reader.h"
#include "json_parse.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

// Go's aeq: equal to 8 digits.
bool aeq(double x, double y) {
  if (x < 0 && y < 0) x = -x, y = -y;
  const double factor = 1 - std::pow(10, -8 + 1);
  return x * factor <= y && y * factor <= x;
}

// Go's mmuSlow: every left- and right-aligned window, the obvious way.
double mmu_slow(UtilSeries util, int64_t window) {
  if (int64_t max = util.back().time - util.front().time; window > max) window = max;
  double mmu = 1.0;
  auto mu_in_window = [](const MutatorUtil* u, size_t n, int64_t end) {
    double total = 0;
    MutatorUtil prev;
    for (size_t k = 0; k < n; k++) {
      if (u[k].time > end) {
        total += prev.util * static_cast<double>(end - prev.time);
        break;
      }
      total += prev.util * static_cast<double>(u[k].time - prev.time);
      prev = u[k];
    }
    return total / static_cast<double>(end - u[0].time);
  };
  auto update = [&] {
    for (size_t k = 0; k < util.size(); k++) {
      if (util[k].time + window > util.back().time) break;
      mmu = std::min(mmu, mu_in_window(&util[k], util.size() - k, util[k].time + window));
    }
  };
  update();
  // The trace reversed (each point is a change, so values shift by one).
  UtilSeries rev(util.size());
  for (size_t k = 0; k < util.size(); k++) rev[util.size() - k - 1] = {-util[k].time, k ? util[k - 1].util : 0.0};
  util = rev;
  update();
  return mmu;
}

const Json& go_mmu_data() {
  static const Json data = Json::parse(read_zstd(std::string(GOTRACE_SOURCE_DIR) + "/tests/analysis/data/go-mmu.json.zst"));
  return data;
}

}  // namespace

TEST_CASE("MMU of Go's synthetic utilization (TestMMU)", "[analysis][mmu]") {
  // 1 for a second, 0 for a second, ... ending at 5 s.
  MmuCurve curve({{{0, 1}, {1'000'000'000, 0}, {2'000'000'000, 1}, {3'000'000'000, 0}, {4'000'000'000, 1}, {5'000'000'000, 0}}});
  struct Case {
    int64_t window;
    double want;
    std::vector<double> worst;
  };
  const int64_t s = 1'000'000'000;
  for (const Case& c : std::vector<Case>{{0, 0, {}},
                                         {1'000'000, 0, {0, 0}},
                                         {s, 0, {0, 0}},
                                         {2 * s, 0.5, {0.5, 0.5}},
                                         {3 * s, 1 / 3.0, {1 / 3.0}},
                                         {4 * s, 0.5, {0.5}},
                                         {5 * s, 3 / 5.0, {3 / 5.0}},
                                         {6 * s, 3 / 5.0, {3 / 5.0}}}) {
    INFO("window " << go_duration_string(c.window));
    double got = curve.mmu(c.window);
    CHECK((aeq(c.want, got) || (c.want == 0 && got == 0)));
    auto worst = curve.examples(c.window, 2);
    REQUIRE(worst.size() == c.worst.size());
    for (size_t k = 0; k < worst.size(); k++) CHECK(worst[k].mutator_util == c.worst[k]);
  }
}

TEST_CASE("the mutator utilization distribution tracks its mass (TestMUD)", "[analysis][mmu]") {
  std::mt19937_64 rnd(42);
  std::uniform_real_distribution<double> u01(0, 1);
  detail::Mud mud;
  double mass = 0;
  for (int i = 0; i < 100; i++) {
    double area = u01(rnd), l = u01(rnd), r = u01(rnd);
    if (rnd() % 10 == 0) r = l;
    mud.add(l, r, area);
    mass += area;
    for (double j = 0; j < mass; j += mass * 0.099) {
      mud.set_track_mass(j);
      double lo, hi;
      bool ok = mud.approx_inv_cumulative_sum(lo, hi);
      bool ok2 = false;
      double inv = mud.inv_cumulative_sum(j, &ok2);
      REQUIRE(ok);
      REQUIRE(ok2);
      CHECK(lo <= inv);
      CHECK(inv < hi);
    }
  }
}

TEST_CASE("the tracked mass survives updates (TestMUDTracking)", "[analysis][mmu]") {
  std::mt19937_64 rnd(42);
  std::uniform_real_distribution<double> u01(0, 1);
  const int uniforms = 100;
  for (double track = 0; track < uniforms; track += uniforms / 50.0) {
    detail::Mud mud;
    double mass = 0;
    mud.set_track_mass(track);
    for (int i = 0; i < uniforms; i++) {
      double area = u01(rnd), l = u01(rnd), r = u01(rnd);
      mud.add(l, r, area);
      mass += area;
      double lo, hi;
      bool ok = mud.approx_inv_cumulative_sum(lo, hi);
      bool ok2 = false;
      double inv = mud.inv_cumulative_sum(track, &ok2);
      if (mass < track) {
        CHECK(!ok);
        CHECK(!ok2);
      } else {
        CHECK(ok);
        CHECK(ok2);
        if (ok && ok2) {
          CHECK(lo <= inv);
          CHECK(inv < hi);
        }
      }
    }
  }
}

TEST_CASE("utilization series, MMU, worst windows and MUD equal Go's", "[analysis][mmu][corpus]") {
  const Json& data = go_mmu_data();
  std::vector<double> quantiles;
  for (const Json& q : data["quantiles"].elements()) quantiles.push_back(q.number());
  for (const auto& [name, sets] : data["traces"].members()) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      REQUIRE(r.ok());
      std::vector<unsigned> flag_sets;
      for (const auto& [flags_name, entry] : sets.members()) flag_sets.push_back(*parse_util_flags(flags_name));
      auto all = mutator_utilization(r.store, flag_sets);
      REQUIRE(all.size() == flag_sets.size());
      size_t k = 0;
      for (const auto& [flags_name, entry] : sets.members()) {
        INFO("flags " << flags_name);
        const std::vector<UtilSeries>& ours = all[k++];
        // The series, point by point (the same arithmetic, so exactly).
        const Json& series = entry["series"];
        REQUIRE(ours.size() == series.size());
        for (size_t s = 0; s < ours.size(); s++) {
          REQUIRE(ours[s].size() == series[s].size());
          for (size_t p = 0; p < ours[s].size(); p++) {
            INFO("series " << s << " point " << p);
            CHECK(ours[s][p].time == series[s][p][0].int64());
            CHECK(ours[s][p].util == series[s][p][1].number());
          }
        }
        MmuCurve curve(ours);
        for (const auto& [label, w] : entry["windows"].members()) {
          INFO("window " << label);
          int64_t window = *parse_go_duration(label);
          CHECK(std::fabs(curve.mmu(window) - w["mmu"].number()) <= 1e-12);
          auto worst = curve.examples(window, 5);
          const Json& go_worst = w["examples"];
          REQUIRE(worst.size() == go_worst.size());
          for (size_t e = 0; e < worst.size(); e++) {
            CHECK(worst[e].time == go_worst[e][0].int64());
            CHECK(std::fabs(worst[e].mutator_util - go_worst[e][1].number()) <= 1e-12);
          }
          auto mud = curve.go_mud(window, quantiles);
          REQUIRE(mud.size() == w["mud"].size());
          for (size_t q = 0; q < mud.size(); q++) CHECK(std::fabs(mud[q] - w["mud"][q].number()) <= 1e-9);
          // The distribution proper: from the MMU up, within [0, 1].
          auto dist = curve.mud(window, quantiles);
          CHECK(std::fabs(dist[0] - curve.mmu(window)) <= 1e-9);
          for (size_t q = 0; q < dist.size(); q++) {
            CHECK(dist[q] >= curve.mmu(window) - 1e-9);
            CHECK(dist[q] <= 1.0);
          }
        }
      }
    }
  }
}

TEST_CASE("the distribution of windowed utilization", "[analysis][mmu]") {
  // 1 for a second, 0 for a second, ... ending at 5 s (as in TestMMU).
  MmuCurve curve({{{0, 1}, {1'000'000'000, 0}, {2'000'000'000, 1}, {3'000'000'000, 0}, {4'000'000'000, 1}, {5'000'000'000, 0}}});
  const double q[] = {0, 0.1, 0.25, 0.5, 0.9, 1};
  // Windows of 1 s: the windowed utilization sweeps 0..1 evenly, a uniform distribution.
  auto d = curve.mud(1'000'000'000, q);
  const double uniform[] = {0, 0.1, 0.25, 0.5, 0.9, 1};
  for (size_t k = 0; k < 6; k++) CHECK(std::fabs(d[k] - uniform[k]) <= 1e-9);
  // Windows of 0.5 s over 4.5 s of starts: 1.0 s at 0, 1.5 s at 1, 2 s evenly between,
  // so the q-quantile is (4.5 q - 1) / 2 between the two.
  d = curve.mud(500'000'000, q);
  const double half[] = {0, 0, 0.0625, 0.625, 1, 1};
  for (size_t k = 0; k < 6; k++) CHECK(std::fabs(d[k] - half[k]) <= 1e-9);
  // Go's MUD records nothing and answers the MMU for every quantile.
  for (double v : curve.go_mud(1'000'000'000, q)) CHECK(v == 0);
  for (double v : curve.go_mud(2'000'000'000, q)) CHECK(v == 0.5);
}

TEST_CASE("the banded MMU equals the obvious computation (TestMMUTrace)", "[analysis][mmu]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-gc-stress.trace")));
  REQUIRE(r.ok());
  auto util = mutator_utilization(r.store, kUtilSTW | kUtilBackground | kUtilAssist);
  REQUIRE(util.size() == 1);
  MmuCurve curve(util);
  for (int64_t window = 1; window < 10'000'000'000; window *= 10) {
    INFO("window " << go_duration_string(window));
    double want = mmu_slow(util[0], window), got = curve.mmu(window);
    CHECK((aeq(want, got) || (want == 0 && got == 0)));
  }
}

TEST_CASE("one pass for several flag sets equals one pass each", "[analysis][mmu]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-stress.trace")));
  REQUIRE(r.ok());
  std::vector<unsigned> sets = {kUtilSTW, kUtilSweep, kUtilAssist | kUtilPerProc, kUtilBackground,
                                kUtilBackground | kUtilPerProc, 31, kUtilSTW | kUtilSweep, 0};
  auto together = mutator_utilization(r.store, sets);  // more than one pass holds
  REQUIRE(together.size() == sets.size());
  for (size_t k = 0; k < sets.size(); k++) {
    INFO("flags " << util_flags_name(sets[k]));
    auto alone = mutator_utilization(r.store, sets[k]);
    REQUIRE(alone.size() == together[k].size());
    for (size_t s = 0; s < alone.size(); s++) {
      REQUIRE(alone[s].size() == together[k][s].size());
      for (size_t p = 0; p < alone[s].size(); p++) {
        CHECK(alone[s][p].time == together[k][s][p].time);
        CHECK(alone[s][p].util == together[k][s][p].util);
      }
    }
  }
}

TEST_CASE("MMU edge cases", "[analysis][mmu]") {
  SECTION("no series") {
    MmuCurve empty;
    CHECK(empty.mmu(1000) == 1.0);
    CHECK(empty.mmu(0) == 0.0);
    CHECK(empty.examples(1000, 3).empty());
    double q[] = {0, 0.5};
    auto mud = empty.mud(1000, q);
    REQUIRE(mud.size() == 2);
    CHECK(mud[0] == 1.0);  // no mass: the MMU
    CHECK(empty.go_mud(1000, q)[1] == 1.0);
    CHECK(mmu_plot(empty, false).curve.empty());
  }
  SECTION("a series of one point") {
    MmuCurve one({{{100, 0}}});
    CHECK(one.mmu(1000) == 1.0);  // no window fits (Go would fail here)
    CHECK(one.series_count() == 1);
    // No time span: the plot has the one window there is (once an undefined
    // conversion of a NaN window, found by fuzzing the analyses).
    for (bool quantiles : {false, true}) {
      MmuPlot plot = mmu_plot(one, quantiles);
      REQUIRE(plot.curve.size() == 100);
      CHECK(plot.x_max == plot.x_min);
      for (const auto& point : plot.curve) CHECK(point[0] == static_cast<double>(plot.x_min));
    }
  }
  SECTION("windows longer than the trace use the whole trace") {
    MmuCurve c({{{0, 1}, {10, 0.5}, {20, 0}}});
    CHECK(aeq(c.mmu(20), 0.75));
    CHECK(aeq(c.mmu(1'000'000), 0.75));
  }
}

TEST_CASE("the MMU plot follows go tool trace", "[analysis][mmu]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-gc-stress.trace")));
  REQUIRE(r.ok());
  MmuCurve curve(mutator_utilization(r.store, kUtilSTW | kUtilBackground | kUtilAssist | kUtilSweep));
  MmuPlot plot = mmu_plot(curve, false);
  REQUIRE(plot.curve.size() == 100);
  CHECK(plot.x_min == 1'000);  // the MMU is about 0 at 1µs...
  CHECK(plot.x_max == std::min<int64_t>(1'000'000'000, curve.max_time() - curve.min_time()));
  CHECK(std::fabs(plot.curve.front()[0] - 1000.0) <= 1);  // exp(log(1000)), truncated as Go does
  for (size_t k = 0; k < plot.curve.size(); k++) {
    if (k > 0) CHECK(plot.curve[k][0] >= plot.curve[k - 1][0]);
    CHECK(plot.curve[k][1] == curve.mmu(static_cast<int64_t>(plot.curve[k][0])));
  }
  MmuPlot with_mud = mmu_plot(curve, true);
  REQUIRE(with_mud.curve.size() == 100);
  CHECK(with_mud.quantiles.size() == 4);
  CHECK(with_mud.curve[50].size() == 5);
  std::string out;
  JsonWriter w(out);
  mmu_plot_json(w, with_mud);
  Json j = Json::parse(out);
  CHECK(j["curve"].size() == 100);
  CHECK(j["quantiles"].size() == 4);
}

// The q-quantiles of the windowed utilization of `series` over window starts sampled every
// `step` ns, each series weighted by its time (the MUD, brute force).
std::vector<double> mud_sampled(const std::vector<UtilSeries>& series, int64_t window, int64_t step,
                                std::span<const double> quantiles) {
  std::vector<double> all;
  for (const UtilSeries& s : series) {
    if (s.size() < 2 || s.back().time - s.front().time < window) continue;
    // The integral of the step function up to each point.
    std::vector<double> area(s.size(), 0);
    for (size_t k = 1; k < s.size(); k++) area[k] = area[k - 1] + s[k - 1].util * static_cast<double>(s[k].time - s[k - 1].time);
    auto integral = [&](int64_t t) {
      size_t k = std::upper_bound(s.begin(), s.end(), t, [](int64_t x, const MutatorUtil& u) { return x < u.time; }) - s.begin() - 1;
      return area[k] + s[k].util * static_cast<double>(t - s[k].time);
    };
    for (int64_t t = s.front().time; t + window <= s.back().time; t += step) {
      all.push_back((integral(t + window) - integral(t)) / static_cast<double>(window));
    }
  }
  std::sort(all.begin(), all.end());
  std::vector<double> out;
  for (double q : quantiles) out.push_back(all[std::min(all.size() - 1, static_cast<size_t>(q * static_cast<double>(all.size())))]);
  return out;
}

TEST_CASE("the distribution of windowed utilization of a trace is the windows' own", "[analysis][mmu]") {
  ReadResult r = read_trace(read_bytes(newest_path("go124-cpu-profile.default.trace")));
  REQUIRE(r.ok());
  const double q[] = {0.001, 0.01, 0.05, 0.5};
  for (unsigned flags : {kUtilSTW | kUtilBackground | kUtilAssist | kUtilSweep, kUtilSTW | kUtilBackground | kUtilAssist | kUtilSweep | kUtilPerProc}) {
    auto util = mutator_utilization(r.store, flags);
    MmuCurve curve(util);
    for (int64_t window : {1'000, 100'000, 10'000'000}) {
      INFO("flags " << flags << " window " << window);
      auto got = curve.mud(window, q);
      auto want = mud_sampled(util, window, std::max<int64_t>(window / 100, 100), q);
      for (size_t k = 0; k < got.size(); k++) {
        INFO("quantile " << q[k]);
        CHECK(std::fabs(got[k] - want[k]) <= 0.02);
      }
    }
  }
}
