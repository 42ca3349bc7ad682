// A group's activity from its goroutines' slices at the view's level of detail: each
// rectangle's time in each state is spread over the pixels it covers (a rectangle of one
// slice exactly; a merged one, a pixel or a little more wide, evenly). A short-lived
// goroutine whose slices the view all begins in one pixel is the one rectangle of its
// extent (timeline_extents.h), the same one its lane's query would give.
#include "gotrace/analysis/timeline_group.h"

#include <algorithm>
#include <cmath>

#include "timeline_activity.h"
#include "timeline_data.h"
#include "timeline_families.h"

namespace gotrace::analysis {

GroupActivity query_group_activity(const TimelineIndex& index, std::span<const GoID> goroutines,
                                   const TimelineView& view) {
  GroupActivity out = detail::empty_activity(view);
  // One rectangle [start, end) with time_in(s) ns in state s, spread over its pixels.
  auto spread = [&](Time start, Time end, auto time_in) { detail::spread_activity(out, start, end, time_in); };
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
