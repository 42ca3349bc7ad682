#include "timeline_extents.h"

#include "timeline_families.h"
#include "timeline_lanes.h"

namespace gotrace::analysis::detail {

static_assert(LaneExtents::kStates == GoroutineFamily::kStates.size());

namespace {
constexpr Time kNoSlice = INT64_MIN;  // out_.start of a lane with no non-gap slice yet
constexpr uint8_t kLong = LaneSet::kBlock;
}  // namespace

LaneExtentBuild::LaneExtentBuild(uint32_t lanes)
    : open_(lanes, 0), end_(lanes, 0), last_(lanes, 0), slot_(lanes, static_cast<int8_t>(kGap)), seen_(lanes, 0) {
  out_.start.assign(lanes, kNoSlice);
  out_.span.assign(lanes, LaneExtents::kNone);
  out_.last.assign(lanes, 0);
  out_.state_time.assign(size_t{lanes} * LaneExtents::kStates, 0);
}

void LaneExtentBuild::close(uint32_t lane, Time end) {
  if (slot_[lane] == kGap || seen_[lane] == kLong) return;
  const Time begin = open_[lane];
  if (out_.start[lane] == kNoSlice) out_.start[lane] = begin;
  if (end - out_.start[lane] >= Time{LaneExtents::kNone}) {
    seen_[lane] = kLong;  // too long for 32 bits: drawn from the lane
    return;
  }
  end_[lane] = end;
  last_[lane] = begin;
  out_.state_time[size_t{lane} * LaneExtents::kStates + static_cast<size_t>(slot_[lane])] +=
      static_cast<uint32_t>(end - begin);
}

void LaneExtentBuild::add(const EventStore& s, uint32_t lane, uint32_t event, Time trace_start) {
  if (seen_[lane] == kLong) return;
  const Time t = s.time(event);
  if (seen_[lane] == 0) {
    open_[lane] = GoroutineFamily::backdated(s, event) ? trace_start : t;
  } else {
    close(lane, t);
    open_[lane] = t;
  }
  int64_t detail;
  slot_[lane] = static_cast<int8_t>(GoroutineFamily::slot(s, event, detail));
  seen_[lane]++;
}

LaneExtents LaneExtentBuild::finish(Time trace_end) {
  for (uint32_t lane = 0; lane < seen_.size(); lane++) {
    if (seen_[lane] == 0 || seen_[lane] == kLong) continue;
    close(lane, trace_end);
    if (seen_[lane] == kLong || out_.start[lane] == kNoSlice) continue;
    out_.span[lane] = static_cast<uint32_t>(end_[lane] - out_.start[lane]);
    out_.last[lane] = static_cast<uint32_t>(last_[lane] - out_.start[lane]);
  }
  open_ = {};
  end_ = {};
  last_ = {};
  slot_ = {};
  seen_ = {};
  return std::move(out_);
}

}  // namespace gotrace::analysis::detail
