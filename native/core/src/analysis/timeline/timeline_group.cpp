// A group's activity from its goroutines' slices at the view's level of detail: each
// rectangle's time in each state is spread over the pixels it covers (a rectangle of one
// slice exactly; a merged one, a pixel or a little more wide, evenly).
#include "gotrace/analysis/timeline_group.h"

#include <algorithm>
#include <cmath>

namespace gotrace::analysis {

GroupActivity query_group_activity(const TimelineIndex& index, std::span<const GoID> goroutines,
                                   const TimelineView& view) {
  GroupActivity out;
  const uint32_t pixels = std::max<uint32_t>(1, view.pixels);
  out.from = view.from;
  out.ns_per_pixel = std::max(1.0, static_cast<double>(view.to - view.from)) / pixels;
  for (auto& column : out.in) column.assign(pixels, 0.0);
  const double w = out.ns_per_pixel;
  for (GoID g : goroutines) {
    const SliceRects r = query_slices(index, {TrackKind::Goroutine, g}, view);
    for (size_t i = 0; i < r.size(); i++) {
      const double a = static_cast<double>(r.start[i] - view.from);
      const double b = static_cast<double>(r.end[i] - view.from);
      if (!(b > a)) continue;
      const auto first = static_cast<int64_t>(std::floor(a / w));
      const auto last = std::min<int64_t>(pixels - 1, static_cast<int64_t>(std::ceil(b / w)) - 1);
      for (int64_t p = std::max<int64_t>(0, first); p <= last; p++) {
        const double part = (std::min(b, (p + 1) * w) - std::max(a, p * w)) / (b - a);
        if (part <= 0) continue;
        for (size_t s = 0; s < kSliceStates; s++)
          if (r.time_in[s][i] > 0) out.in[s][static_cast<size_t>(p)] += part * static_cast<double>(r.time_in[s][i]) / w;
      }
    }
  }
  return out;
}

}  // namespace gotrace::analysis
