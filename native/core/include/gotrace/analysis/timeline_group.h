// What a set of goroutines (a folded group of the timeline) does, per pixel of a view:
// how many of them are in each state there, on average over the pixel (the time they
// spent in the state within it over its width). A folded group's lane draws this.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "gotrace/analysis/timeline_query.h"

namespace gotrace::analysis {

struct GroupActivity {
  Time from = 0;              // the view's start: pixel p covers from + p * ns_per_pixel on
  double ns_per_pixel = 1;
  // in[s][p]: goroutines in SliceState s in pixel p (Active stays 0).
  std::array<std::vector<double>, kSliceStates> in;
};

GroupActivity query_group_activity(const TimelineIndex& index, std::span<const GoID> goroutines,
                                   const TimelineView& view);

}  // namespace gotrace::analysis
