// JSON of the MMU (src/analysis/mmu/mmu_json.cpp).
#pragma once

#include <span>
#include <string>
#include <vector>
#include "gotrace/analysis/mmu.h"
#include "gotrace/json_writer.h"

namespace gotrace::analysis {

// `gotrace mmu --json` for one flag set: {"flags", "series", "points", "windows":
// [{"window", "label", "mmu", "worst": [{"time", "util"}], "mud": [{"quantile",
// "util"}]}]}.
void mmu_json(JsonWriter& w, unsigned flags, const MmuCurve& curve, const std::vector<MmuWindowResult>& windows,
              std::span<const double> quantiles);
// {"x_min", "x_max", "quantiles", "curve": [[window, value...]]}.
void mmu_plot_json(JsonWriter& w, const MmuPlot& plot);
// What the MMU view shows of a curve: {"mmu": mmu_json's, with the `worst` worst windows
// of each window length, "plot": mmu_plot_json's}. Throws for a window under 1 ns.
std::string mmu_view_json(const MmuCurve& curve, unsigned flags, std::span<const double> windows, int worst);

}  // namespace gotrace::analysis
