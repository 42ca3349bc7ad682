// A folded group's activity made of rectangles: each rectangle's time in each state spread
// over the pixels it covers, each pixel taking its share (timeline_group.cpp: a lane's
// rectangles; timeline_overview.cpp: the whole trace's buckets).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "gotrace/analysis/timeline_group.h"

namespace gotrace::analysis::detail {

// The activity of no goroutine over a view, its pixels made.
inline GroupActivity empty_activity(const TimelineView& view) {
  GroupActivity out;
  const uint32_t pixels = std::max<uint32_t>(1, view.pixels);
  out.from = view.from;
  out.ns_per_pixel = std::max(1.0, static_cast<double>(view.to - view.from)) / pixels;
  for (auto& column : out.in) column.assign(pixels, 0.0);
  return out;
}

// Adds [start, end), with time_in(s) ns in SliceState s, to `out` (its pixels made, from
// out.from on, out.ns_per_pixel wide): goroutines in each state, on average over a pixel.
template <class TimeIn>
void spread_activity(GroupActivity& out, Time start, Time end, TimeIn time_in) {
  const double w = out.ns_per_pixel;
  const auto pixels = static_cast<int64_t>(out.in[0].size());
  const double a = static_cast<double>(start - out.from);
  const double b = static_cast<double>(end - out.from);
  if (!(b > a)) return;
  const auto first = static_cast<int64_t>(std::floor(a / w));
  const auto last = std::min<int64_t>(pixels - 1, static_cast<int64_t>(std::ceil(b / w)) - 1);
  for (int64_t p = std::max<int64_t>(0, first); p <= last; p++) {
    const double part = (std::min(b, static_cast<double>(p + 1) * w) - std::max(a, static_cast<double>(p) * w)) / (b - a);
    if (part <= 0) continue;
    for (size_t s = 0; s < kSliceStates; s++) {
      const auto t = time_in(s);
      if (t > 0) out.in[s][static_cast<size_t>(p)] += part * static_cast<double>(t) / w;
    }
  }
}

}  // namespace gotrace::analysis::detail
