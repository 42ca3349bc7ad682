// Instants: user logs and CPU profile samples, drawn on the goroutine, proc or thread
// they happened on (cmd/trace's logEventGenerator and stackSampleGenerator).
#include "gotrace/analysis/timeline_query.h"
#include "gotrace/event_slices.h"
#include "gotrace/event_view.h"
#include "timeline_data.h"
#include "timeline_families.h"

namespace gotrace::analysis {
namespace detail {
namespace {

int lane_of(uint8_t type) {
  switch (event_kinds()[type]) {
    case EventKind::Log: return static_cast<int>(InstantKind::Log);
    case EventKind::StackSample: return static_cast<int>(InstantKind::CPUSample);
    default: return -1;
  }
}

}  // namespace

void build_instants(TimelineData& d) {
  const EventStore& s = *d.store;
  LaneSetBuilder b;
  for_each_event_slice(s.size(), [&](size_t from, size_t to) {
    for (size_t i = from; i < to; i++) {
      int lane = lane_of(s.type(i));
      if (lane >= 0) b.add(static_cast<uint32_t>(lane), static_cast<uint32_t>(i));
    }
  });
  d.instants = b.finish(2);
}

}  // namespace detail

InstantMarks query_instants(const TimelineIndex& index, InstantKind kind, ResourceKind by, const TimelineView& view) {
  using namespace detail;
  InstantMarks out;
  const TimelineData& d = index.data();
  if (view.to <= view.from || view.pixels == 0) return out;
  const EventStore& s = *d.store;
  const LaneSet& lanes = d.instants;
  const auto lane = static_cast<uint32_t>(kind);
  if (lane >= lanes.lanes() || lanes.size(lane) == 0) return out;
  const Pixels px(view);

  const uint32_t first = first_at_or_after(s, lanes, lane, view.from);
  // Open group per resource: resource -> index of its rectangle in `out`, and its pixel.
  struct Open {
    uint32_t rect = 0;
    int64_t bucket = -1;
  };
  FlatMap<Open> open;
  for (LaneSet::Reader r = lanes.at(lane, first); !r.done(); r.next()) {
    const uint32_t e = r.event();
    const Time t = s.time(e);
    if (t >= view.to) break;
    const Context& c = s.context(e);
    const int64_t res = by == ResourceKind::Goroutine ? c.g : by == ResourceKind::Proc ? c.p : c.m;
    const int64_t p = px.of(t);
    Open& o = open[static_cast<uint64_t>(res)];
    if (o.bucket == p) {
      out.count[o.rect]++;
      continue;
    }
    o = {static_cast<uint32_t>(out.size()), p};
    out.time.push_back(t);
    out.resource.push_back(res);
    out.count.push_back(1);
    out.event.push_back(e);
  }
  return out;
}

}  // namespace gotrace::analysis
