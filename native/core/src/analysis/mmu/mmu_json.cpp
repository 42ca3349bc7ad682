#include "gotrace/analysis/mmu_json.h"

#include <stdexcept>

#include "gotrace/analysis/go_duration.h"

namespace gotrace::analysis {

void mmu_json(JsonWriter& w, unsigned flags, const MmuCurve& curve, const std::vector<MmuWindowResult>& windows,
              std::span<const double> quantiles) {
  w.begin_object();
  w.field("flags", util_flags_name(flags));
  w.field("series", static_cast<uint64_t>(curve.series_count()));
  w.field("points", static_cast<uint64_t>(curve.points()));
  w.key("windows").begin_array();
  for (const MmuWindowResult& r : windows) {
    w.begin_object();
    w.field("window", r.window);
    w.field("label", go_duration_string(r.window));
    w.field("mmu", r.mmu);
    w.key("worst").begin_array();
    for (const UtilWindow& u : r.worst) {
      w.begin_object();
      w.field("time", u.time);
      w.field("util", u.mutator_util);
      w.end_object();
    }
    w.end_array();
    w.key("mud").begin_array();
    for (size_t i = 0; i < r.mud.size() && i < quantiles.size(); i++) {
      w.begin_object();
      w.field("quantile", quantiles[i]);
      w.field("util", r.mud[i]);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void mmu_plot_json(JsonWriter& w, const MmuPlot& plot) {
  w.begin_object();
  w.field("x_min", plot.x_min);
  w.field("x_max", plot.x_max);
  w.key("quantiles").begin_array();
  for (double q : plot.quantiles) w.value(q);
  w.end_array();
  w.key("curve").begin_array();
  for (const auto& point : plot.curve) {
    w.begin_array();
    for (double v : point) w.value(v);
    w.end_array();
  }
  w.end_array();
  w.end_object();
}

std::string mmu_view_json(const MmuCurve& curve, unsigned flags, std::span<const double> windows, int worst) {
  std::vector<MmuWindowResult> results;
  for (double w : windows) {
    if (!(w >= 1)) throw std::runtime_error("an MMU window must be at least 1 ns");
    // (Past 2^62 ns, 146 years, the window would not fit the int64 of trace times.)
    if (!(w <= 0x1p62)) throw std::runtime_error("an MMU window must be at most 2^62 ns");
    results.push_back(mmu_window(curve, static_cast<int64_t>(w), worst, kMudQuantiles));
  }
  return json_of(false, [&](JsonWriter& w) {
    w.begin_object();
    w.key("mmu");
    mmu_json(w, flags, curve, results, kMudQuantiles);
    w.key("plot");
    mmu_plot_json(w, mmu_plot(curve, false));
    w.end_object();
  });
}

}  // namespace gotrace::analysis
