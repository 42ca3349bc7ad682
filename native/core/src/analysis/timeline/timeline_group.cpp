// A group's activity from its goroutines' slices at the view's level of detail: each
// rectangle's time in each state is spread over the pixels it covers (a rectangle of one
// slice exactly; a merged one, a pixel or a little more wide, evenly). A short-lived
// goroutine whose slices the view all begins in one pixel is the one rectangle of its
// extent (timeline_extents.h), the same one its lane's query would give.
#include "gotrace/analysis/timeline_group.h"

#include <algorithm>
#include <cmath>

#include "timeline_data.h"
#include "timeline_families.h"

namespace gotrace::analysis {

GroupActivity query_group_activity(const TimelineIndex& index, std::span<const GoID> goroutines,
                                   const TimelineView& view) {
  GroupActivity out;
  const uint32_t pixels = std::max<uint32_t>(1, view.pixels);
  out.from = view.from;
  out.ns_per_pixel = std::max(1.0, static_cast<double>(view.to - view.from)) / pixels;
  for (auto& column : out.in) column.assign(pixels, 0.0);
  const double w = out.ns_per_pixel;
  // One rectangle [start, end) with time_in(s) ns in state s, spread over its pixels.
  auto spread = [&](Time start, Time end, auto time_in) {
    const double a = static_cast<double>(start - view.from);
    const double b = static_cast<double>(end - view.from);
    if (!(b > a)) return;
    const auto first = static_cast<int64_t>(std::floor(a / w));
    const auto last = std::min<int64_t>(pixels - 1, static_cast<int64_t>(std::ceil(b / w)) - 1);
    for (int64_t p = std::max<int64_t>(0, first); p <= last; p++) {
      const double part = (std::min(b, (p + 1) * w) - std::max(a, p * w)) / (b - a);
      if (part <= 0) continue;
      for (size_t s = 0; s < kSliceStates; s++) {
        const Time t = time_in(s);
        if (t > 0) out.in[s][static_cast<size_t>(p)] += part * static_cast<double>(t) / w;
      }
    }
  };
  if (goroutines.empty() || view.to <= view.from || view.pixels == 0) return out;
  const detail::SliceTracks& tracks = index.data().of(TrackKind::Goroutine);
  const detail::LaneExtents& extents = tracks.extents;
  const detail::Pixels px(view);
  SliceRects r;
  for (GoID g : goroutines) {
    const int64_t lane = tracks.lane_of(g);
    if (lane >= 0 && static_cast<size_t>(lane) < extents.span.size()) {
      const uint32_t span = extents.span[static_cast<size_t>(lane)];
      const uint32_t last = extents.last[static_cast<size_t>(lane)];
      const Time start = extents.start[static_cast<size_t>(lane)];
      const Time end = start + Time{span};
      // Every slice narrower than a pixel (those before the last lie within [start,
      // start + last]) and begun in the pixel of the first: one rectangle.
      if (span != detail::LaneExtents::kNone && start >= view.from && end < view.to && px.narrow(last) &&
          px.narrow(span - last) && px.of(start) == px.of(start + Time{last})) {
        const uint32_t* time = &extents.state_time[static_cast<size_t>(lane) * detail::LaneExtents::kStates];
        std::array<Time, kSliceStates> in{};
        for (size_t k = 0; k < detail::LaneExtents::kStates; k++)
          in[static_cast<size_t>(detail::GoroutineFamily::kStates[k])] = time[k];
        spread(start, end, [&](size_t s) { return in[s]; });
        continue;
      }
    }
    query_slices(index, {TrackKind::Goroutine, g}, view, r);
    for (size_t i = 0; i < r.size(); i++) spread(r.start[i], r.end[i], [&](size_t s) { return r.time_in[s][i]; });
  }
  return out;
}

}  // namespace gotrace::analysis
