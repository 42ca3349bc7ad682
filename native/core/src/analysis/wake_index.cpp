// The index of every wake-up edge: one walk of the goroutines' tracks when it is built;
// a goroutine's edges are then two binary searches away.
#include "gotrace/analysis/wake_index.h"

#include <algorithm>
#include <unordered_map>

#include "gotrace/event_slices.h"
#include "gotrace/v2_spec.h"
#include "id_map.h"
#include "timeline_data.h"
#include "wake_kind.h"

namespace gotrace::analysis {
namespace {

using namespace detail;

// Counts per counterpart, in the order edges come (the first seen is the first).
class Counter {
 public:
  void add(int64_t who, Time t) {
    auto [it, fresh] = at_.try_emplace(who, list_.size());
    if (fresh) list_.push_back({who, 0, t});
    list_[it->second].count++;
  }
  std::vector<WakeCount> take() {
    std::sort(list_.begin(), list_.end(), [](const WakeCount& a, const WakeCount& b) {
      return a.count != b.count ? a.count > b.count : a.goroutine < b.goroutine;
    });
    return std::move(list_);
  }

 private:
  std::vector<WakeCount> list_;
  std::unordered_map<int64_t, size_t> at_;
};

}  // namespace

WakeCounts count_wakeups(const WakeEdges& r, int64_t g) {
  Counter by, woke;
  for (size_t i = 0; i < r.size(); i++) {
    if (r.goroutine[i] == g) by.add(r.from_goroutine[i], r.to_time[i]);
    if (r.from_goroutine[i] == g && r.goroutine[i] != g) woke.add(r.goroutine[i], r.from_time[i]);
  }
  return {by.take(), woke.take()};
}

WakeCounts WakeIndex::count(int64_t g, Time from, Time to) const {
  if (!store_) return {};
  const EventStore& s = *store_;
  // The edges of g's group whose start is in [from, to).
  auto range = [&](const Grouped& gr) -> std::pair<uint32_t, uint32_t> {
    auto it = std::lower_bound(gr.ids.begin(), gr.ids.end(), g);
    if (it == gr.ids.end() || *it != g) return {0, 0};
    const auto k = static_cast<size_t>(it - gr.ids.begin());
    auto b = gr.edges.begin() + gr.begin[k], e = gr.edges.begin() + gr.end[k];
    auto lo = std::partition_point(b, e, [&](const auto& x) { return s.time(x.first) < from; });
    auto hi = std::partition_point(lo, e, [&](const auto& x) { return s.time(x.first) < to; });
    return {static_cast<uint32_t>(lo - gr.edges.begin()), static_cast<uint32_t>(hi - gr.edges.begin())};
  };
  Counter by, woke;
  auto [a, b] = range(into_);
  for (uint32_t i = a; i < b; i++) by.add(s.context(into_.edges[i].second).g, s.time(into_.edges[i].first));
  std::tie(a, b) = range(from_);
  for (uint32_t i = a; i < b; i++) {
    const auto [start, wake] = from_.edges[i];
    const auto woken = static_cast<int64_t>(s.ab(start));
    if (woken != g) woke.add(woken, s.time(wake));
  }
  return {by.take(), woke.take()};
}

WakeIndex build_wake_index(const TimelineIndex& index) {
  const TimelineData& d = index.data();
  const EventStore& s = *d.store;
  const SliceTracks& gs = d.of(TrackKind::Goroutine);
  WakeIndex out;
  out.store_ = &s;

  // At most one edge per start: room for them all, without growing by doubling.
  size_t starts = 0;
  for_each_event_slice(s.size(), [&](size_t from, size_t to) {
    for (size_t i = from; i < to; i++) starts += s.type(i) == v2::EvGoStart;
  });

  // Into each goroutine: its own track holds its starts, each just after what made it
  // runnable (edge_into's reading, done in one walk per track, in start order).
  WakeIndex::Grouped& into = out.into_;
  into.edges.reserve(starts);
  for (uint32_t l = 0; l < gs.lanes.lanes(); l++) {
    const auto first = static_cast<uint32_t>(into.edges.size());
    uint32_t before = 0;
    for (LaneSet::Reader r = gs.lanes.at(l, 0); !r.done(); r.next()) {
      const uint32_t e = r.event();
      if (r.index() > 0 && s.type(e) == v2::EvGoStart && wake_kind(s.type(before))) into.edges.emplace_back(e, before);
      before = e;
    }
    if (into.edges.size() == first) continue;
    into.ids.push_back(gs.ids[l]);
    into.begin.push_back(first);
    into.end.push_back(static_cast<uint32_t>(into.edges.size()));
  }

  // From each goroutine: the same edges in buckets by the waker's track (one past the
  // last for wakers without one, as the runtime: -1), each bucket in (waker, start) order.
  const size_t n = into.edges.size();
  const auto lanes = static_cast<uint32_t>(gs.ids.size());
  auto waker = [&](const std::pair<uint32_t, uint32_t>& e) { return static_cast<int64_t>(s.context(e.second).g); };
  // Lanes by goroutine id in an array: a binary search per edge was most of the build.
  IdMap<uint32_t, kAbsent> lane_of;
  for (uint32_t l = 0; l < lanes; l++) lane_of.set(gs.ids[l], l);
  std::vector<uint32_t> bucket(n);
  std::vector<uint32_t> at(lanes + 2, 0);
  for (size_t i = 0; i < n; i++) {
    const uint32_t l = lane_of.get(waker(into.edges[i]));
    bucket[i] = l != kAbsent ? l : lanes;
    at[bucket[i] + 1]++;
  }
  for (uint32_t b = 0; b <= lanes; b++) at[b + 1] += at[b];
  WakeIndex::Grouped& from = out.from_;
  from.edges.resize(n);
  for (size_t i = 0; i < n; i++) from.edges[at[bucket[i]]++] = into.edges[i];
  bucket = {};
  // at[b] is now where bucket b ends.
  for (uint32_t b = lanes + 1; b > 0; b--) at[b] = at[b - 1];
  at[0] = 0;
  struct Group {
    int64_t waker;
    uint32_t begin, end;
  };
  std::vector<Group> groups;
  for (uint32_t b = 0; b <= lanes; b++) {
    const auto lo = from.edges.begin() + at[b], hi = from.edges.begin() + at[b + 1];
    if (b < lanes) {
      std::sort(lo, hi);
    } else {
      std::sort(lo, hi, [&](const auto& x, const auto& y) {
        const int64_t wx = waker(x), wy = waker(y);
        return wx != wy ? wx < wy : x.first < y.first;
      });
    }
    for (auto it = lo; it != hi; ++it) {
      const auto k = static_cast<uint32_t>(it - from.edges.begin());
      if (it == lo || groups.back().waker != waker(*it)) groups.push_back({waker(*it), k, k});
      groups.back().end = k + 1;
    }
  }
  // Lane buckets come in ascending id order; the last bucket's wakers go where they sort.
  std::sort(groups.begin(), groups.end(), [](const Group& x, const Group& y) { return x.waker < y.waker; });
  for (const Group& g : groups) {
    from.ids.push_back(g.waker);
    from.begin.push_back(g.begin);
    from.end.push_back(g.end);
  }
  return out;
}

}  // namespace gotrace::analysis
