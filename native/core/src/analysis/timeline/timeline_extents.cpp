#include "timeline_extents.h"

#include "timeline_families.h"
#include "timeline_lanes.h"

namespace gotrace::analysis::detail {

static_assert(LaneExtents::kStates == GoroutineFamily::kStates.size());

namespace {
constexpr uint8_t kLong = LaneSet::kBlock;
}  // namespace

void LaneExtentBuild::close(Lane& l, Time end) {
  if (l.slot == kGap || l.seen == kLong) return;
  if (!l.busy) {
    l.start = l.open;
    l.busy = true;
  }
  if (end - l.start >= Time{LaneExtents::kNone}) {
    l.seen = kLong;  // too long for 32 bits: drawn from the lane
    return;
  }
  l.last = l.open;
  l.end = end;
  l.time[static_cast<size_t>(l.slot)] += static_cast<uint32_t>(end - l.open);
}

void LaneExtentBuild::add(const EventStore::ChunkColumns& col, uint32_t lane, uint32_t event, Time trace_start) {
  Lane& l = lanes_[lane];
  if (l.seen == kLong) return;
  const Time t = col.time(event);
  if (l.seen == 0) {
    l.open = GoroutineFamily::backdated(col, event) ? trace_start : t;
  } else {
    close(l, t);
    l.open = t;
  }
  int64_t detail;
  l.slot = static_cast<int8_t>(GoroutineFamily::slot(col, event, detail));
  l.seen++;
}

LaneExtents LaneExtentBuild::finish(Time trace_end) {
  LaneExtents out;
  const size_t n = lanes_.size();
  out.start.assign(n, 0);
  out.span.assign(n, LaneExtents::kNone);
  out.last.assign(n, 0);
  out.state_time.assign(n * LaneExtents::kStates, 0);
  for (size_t k = 0; k < n; k++) {
    Lane& l = lanes_[k];
    if (l.seen == 0 || l.seen == kLong) continue;
    close(l, trace_end);
    if (l.seen == kLong || !l.busy) continue;
    out.start[k] = l.start;
    out.span[k] = static_cast<uint32_t>(l.end - l.start);
    out.last[k] = static_cast<uint32_t>(l.last - l.start);
    std::copy(l.time.begin(), l.time.end(), out.state_time.begin() + static_cast<ptrdiff_t>(k * LaneExtents::kStates));
  }
  lanes_ = {};
  return out;
}

}  // namespace gotrace::analysis::detail
