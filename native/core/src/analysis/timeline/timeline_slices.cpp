// Slices of one track for one screen, with level of detail: slices at least a pixel wide
// come back exactly; narrower ones that begin in the same pixel merge into one
// rectangle, which records how many it holds and its time in each state. A block of 64
// slices narrower than a pixel merges whole, from its summary, into the rectangle of the
// pixel where it begins: a query reads a few blocks per pixel, not the slices.
#include "gotrace/analysis/timeline_query.h"
#include "timeline_data.h"
#include "timeline_families.h"

namespace gotrace::analysis {
namespace {

using namespace detail;

template <class Family>
class SliceQuery {
  static constexpr size_t K = Family::kStates.size();

 public:
  SliceQuery(const TimelineData& d, const SliceTracks& t, uint32_t lane, const TimelineView& v, SliceRects& out)
      : s_(*d.store), t_(t), lane_(lane), trace_start_(d.start), trace_end_(d.end), v_(v), out_(out),
        px_(v) {}

  void run() {
    const uint32_t n = t_.lanes.size(lane_);
    if (n == 0) return;
    const SliceTracks::LaneSummaries sums = t_.summaries_of(lane_);
    LaneSet::Reader r(t_.lanes, lane_, first_block());
    uint32_t e = r.event();
    Time t = time_of(r.index(), e);
    while (!r.done() && t < v_.to) {
      const uint32_t j = r.index();
      // A whole run of 1024 or 64 slices narrower than a pixel (so none as wide as one):
      // merge it from its summary into the rectangle of the pixel where it starts.
      if (j % LaneSet::kBlock == 0 && (try_merge(1, j, sums, r, e, t) || try_merge(0, j, sums, r, e, t))) {
        if (r.done()) break;
        continue;
      }
      int64_t detail;
      const int slot = Family::slot(s_, e, detail);
      const uint32_t this_event = e;
      r.next();
      Time next = trace_end_;
      if (!r.done()) {
        e = r.event();
        next = s_.time(e);
      }
      // A slice in view: overlapping it, or of zero length inside it.
      if (slot != kGap && (next > v_.from || (next == t && t >= v_.from)))
        slice(slot, this_event, std::max(t, v_.from), std::min(next, v_.to));
      t = next;
    }
    flush();
  }

 private:
  Time time_of(uint32_t j, uint32_t e) const {
    return j == 0 && Family::backdated(s_, e) ? trace_start_ : s_.time(e);
  }
  int64_t bucket(Time t) const { return px_.of(t); }
  // The block holding the slice under way at `from` (the last block starting at or
  // before it).
  uint32_t first_block() const {
    uint32_t lo = 0, hi = t_.lanes.blocks(lane_);
    while (hi - lo > 1) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (s_.time(t_.lanes.block_event(lane_, mid)) <= v_.from) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  void slice(int slot, uint32_t event, Time a, Time b) {
    if (!px_.narrow(b - a)) {
      flush();
      open(bucket(a), a);
      add(slot, event, a, b);
      flush();
      return;
    }
    const int64_t p = bucket(a);
    if (!group_.open || group_.bucket != p) {
      flush();
      open(p, a);
    }
    add(slot, event, a, b);
  }

  void open(int64_t bucket, Time start) {
    group_ = Group{};
    group_.open = true;
    group_.bucket = bucket;
    group_.start = start;
  }
  void add(int slot, uint32_t event, Time a, Time b) {
    group_.end = std::max(group_.end, b);
    group_.count++;
    group_.time[static_cast<size_t>(slot)] += b - a;
    if (b - a > group_.longest) {
      group_.longest = b - a;
      group_.longest_event = event;
    }
  }
  // Merges the summary of level `level` starting at entry j if it fits; then moves the
  // reader past it. Returns whether it did.
  bool try_merge(int level, uint32_t j, const SliceTracks::LaneSummaries& sums, LaneSet::Reader& r, uint32_t& e,
                 Time& t) {
    const uint32_t size = level == 0 ? LaneSet::kBlock : LaneSet::kBlock * kSuperBlocks;
    if (j % size != 0 || j / size >= sums.count[level]) return false;
    const uint32_t k = sums.first[level] + j / size;
    const SliceTracks::Level& lv = t_.levels[static_cast<size_t>(level)];
    const BlockSummary& sum = lv.blocks[k];
    const Time end = t + Time{sum.span};
    if (!sum.mergeable || t < v_.from || end > v_.to || !px_.narrow(sum.span)) return false;
    if (sum.busy > 0) merge_block(sum, t, end, &lv.state_time[size_t{k} * K]);
    r.seek_block((j + size) / LaneSet::kBlock);
    if (!r.done()) e = r.event();
    t = end;
    return true;
  }

  void merge_block(const BlockSummary& sum, Time block_start, Time block_end, const uint32_t* state_time) {
    const Time busy_start = block_start + sum.busy_start;
    const int64_t p = bucket(busy_start);
    if (!group_.open || group_.bucket != p) {
      flush();
      open(p, busy_start);
    }
    group_.end = std::max(group_.end, block_end - Time{sum.busy_end});
    group_.count += sum.busy;
    for (size_t k = 0; k < K; k++) group_.time[k] += state_time[k];
    if (Time{sum.longest} > group_.longest) {
      group_.longest = sum.longest;
      group_.longest_event = sum.longest_event;
    }
  }

  void flush() {
    if (!group_.open) return;
    group_.open = false;
    int64_t detail;
    int slot = Family::slot(s_, group_.longest_event, detail);
    for (size_t k = 0; k < K; k++)
      if (group_.time[k] > group_.time[static_cast<size_t>(slot)]) slot = static_cast<int>(k);
    out_.start.push_back(group_.start);
    out_.end.push_back(group_.end);
    out_.state.push_back(Family::kStates[static_cast<size_t>(slot)]);
    out_.count.push_back(group_.count);
    out_.detail.push_back(detail);
    for (auto& v : out_.time_in) v.push_back(0);
    for (size_t k = 0; k < K; k++) out_.time_in[static_cast<size_t>(Family::kStates[k])].back() = group_.time[k];
  }

  struct Group {
    bool open = false;
    int64_t bucket = 0;
    Time start = 0, end = 0;
    uint32_t count = 0;
    std::array<Time, K> time{};
    Time longest = -1;
    uint32_t longest_event = 0;
  };

  const EventStore& s_;
  const SliceTracks& t_;
  const uint32_t lane_;
  const Time trace_start_, trace_end_;
  const TimelineView& v_;
  SliceRects& out_;
  const Pixels px_;
  Group group_;
};

}  // namespace

void SliceRects::clear() {
  start.clear();
  end.clear();
  state.clear();
  count.clear();
  detail.clear();
  for (auto& v : time_in) v.clear();
}

SliceRects query_slices(const TimelineIndex& index, Track track, const TimelineView& view) {
  SliceRects out;
  query_slices(index, track, view, out);
  return out;
}

void query_slices(const TimelineIndex& index, Track track, const TimelineView& view, SliceRects& out) {
  out.clear();
  const TimelineData& d = index.data();
  if (view.to <= view.from || view.pixels == 0) return;
  const SliceTracks& t = d.of(track.kind);
  int64_t lane = t.lane_of(track.id);
  if (lane < 0) return;
  with_family(track.kind, [&](auto family) {
    SliceQuery<decltype(family)>(d, t, static_cast<uint32_t>(lane), view, out).run();
    return 0;
  });
}

}  // namespace gotrace::analysis
