// Building the slice tracks: which events change each goroutine, proc, thread and range
// track, after cmd/trace's generators (gstate.go, procgen.go, threadgen.go, gen.go), in
// one pass over the events, which also feeds the series' checkpoints (timeline_series.cpp).
// Then each long lane gets its level-of-detail summaries.
#include <algorithm>
#include <stdexcept>

#include "gotrace/event_slices.h"
#include "gotrace/event_view.h"
#include "gotrace/id_map.h"
#include "timeline_data.h"
#include "timeline_families.h"
#include "timeline_rules.h"
#include "analysis/transition.h"

namespace gotrace::analysis::detail {
namespace {

using namespace v2;

// One kind of track being built: ids become lanes in order of appearance, renumbered
// by id at the end.
class TrackBuilder {
 public:
  void emit(int64_t id, uint32_t event, int /*slot*/, GoID /*goroutine*/) {  // the lanes read states back
    uint32_t lane = lane_.get(id);
    if (lane == kNoLane) {
      lane = static_cast<uint32_t>(ids_.size());
      lane_.set(id, lane);
      ids_.push_back(id);
    }
    lanes_.add(lane, event);
  }
  // Gives the id a track whose lane is built later.
  void note(int64_t id) {
    if (lane_.get(id) == kNoLane) {
      lane_.set(id, static_cast<uint32_t>(ids_.size()));
      ids_.push_back(id);
    }
  }
  // A per-lane value kept beside the lane (the goroutines' start functions), renumbered
  // with the lanes.
  uint32_t& aux(int64_t id) {
    const uint32_t lane = lane_.get(id);
    if (aux_.size() < ids_.size()) aux_.resize(ids_.size(), 0);
    return aux_[lane];
  }
  // The track expects no more changes (its goroutine ended).
  void retire(int64_t id) {
    uint32_t lane = lane_.get(id);
    if (lane != kNoLane) lanes_.retire(lane);
  }
  void finish(SliceTracks& out) {
    // The lanes in id order. The map's array lists the (small) ids in order already: only
    // ids beyond it, or negative, need sorting (sorting them all took ~5% of the index's
    // build time on a trace with half a million goroutines).
    std::vector<uint32_t> by_id;
    by_id.reserve(ids_.size());
    std::vector<std::pair<int64_t, uint32_t>> far;
    lane_.for_each([&](int64_t id, uint32_t lane) {
      if (id >= 0 && static_cast<uint64_t>(id) < decltype(lane_)::kDenseLimit) by_id.push_back(lane);
      else far.emplace_back(id, lane);
    });
    if (!far.empty()) {
      std::sort(far.begin(), far.end());
      auto first_positive = std::partition_point(far.begin(), far.end(), [](const auto& f) { return f.first < 0; });
      std::vector<uint32_t> all;
      all.reserve(ids_.size());
      for (auto it = far.begin(); it != first_positive; ++it) all.push_back(it->second);
      all.insert(all.end(), by_id.begin(), by_id.end());
      for (auto it = first_positive; it != far.end(); ++it) all.push_back(it->second);
      by_id = std::move(all);
    }
    std::vector<uint32_t> order(ids_.size());
    std::vector<int64_t> sorted_ids(ids_.size());
    for (uint32_t rank = 0; rank < by_id.size(); rank++) {
      order[by_id[rank]] = rank;
      sorted_ids[rank] = ids_[by_id[rank]];
    }
    out.lanes = lanes_.finish(static_cast<uint32_t>(ids_.size()), order);
    out.ids = std::move(sorted_ids);
    ids_ = {};
    if (!aux_.empty()) {
      aux_.resize(out.ids.size(), 0);
      out.aux.assign(out.ids.size(), 0);
      for (uint32_t l = 0; l < aux_.size(); l++) out.aux[order[l]] = aux_[l];
      aux_ = {};
    }
    lane_ = {};
  }

 private:
  static constexpr uint32_t kNoLane = ~uint32_t{0};
  IdMap<uint32_t, kNoLane> lane_;
  std::vector<int64_t> ids_;
  std::vector<uint32_t> aux_;
  LaneSetBuilder lanes_;
};

// The state rules (timeline_rules.h), building the index's tracks and series.
using Rules = TimelineRules<std::array<TrackBuilder, kTrackKinds>, SeriesBuilder>;

// The summaries of every full block of a lane longer than one block, then of every run
// of 16 full blocks.
template <class Family>
void summarize_lanes(const EventStore& s, Time trace_start, Time trace_end, SliceTracks& t) {
  constexpr size_t K = Family::kStates.size();
  const uint32_t lanes = t.lanes.lanes();
  SliceTracks::Level& l0 = t.levels[0];
  SliceTracks::Level& l1 = t.levels[1];
  uint32_t total0 = 0, total1 = 0;
  for (uint32_t l = 0; l < lanes; l++) {
    if (t.lanes.size(l) <= LaneSet::kBlock) continue;
    const uint32_t blocks = t.lanes.size(l) / LaneSet::kBlock;
    t.summarized.push_back(l);
    l0.begin.push_back(total0);
    l1.begin.push_back(total1);
    total0 += blocks;
    total1 += blocks / kSuperBlocks;
  }
  l0.blocks.assign(total0, BlockSummary{});
  l0.state_time.assign(size_t{total0} * K, 0);
  l1.blocks.assign(total1, BlockSummary{});
  l1.state_time.assign(size_t{total1} * K, 0);
  for (size_t q = 0; q < t.summarized.size(); q++) {
    const uint32_t l = t.summarized[q], first = l0.begin[q];
    const uint32_t count = t.lanes.size(l) / LaneSet::kBlock;
    LaneSet::Reader r(t.lanes, l);
    uint32_t e = r.event();
    Time time = Family::backdated(s, e) ? trace_start : s.time(e);
    for_each_event_slice(
        count,
        [&](size_t from, size_t to) {
          for (auto b = static_cast<uint32_t>(from); b < to; b++) {
            const Time block_start = time;
            Time busy_start = 0, busy_end = 0, longest = -1;
            uint32_t longest_event = 0, busy = 0;
            std::array<Time, K> state_time{};
            for (uint32_t k = 0; k < LaneSet::kBlock; k++) {
              int64_t detail;
              const int slot = Family::slot(s, e, detail);
              const uint32_t this_event = e;
              const Time this_time = time;
              r.next();
              time = trace_end;
              if (!r.done()) {
                e = r.event();
                time = s.time(e);
              }
              if (slot == kGap) continue;
              const Time d = time - this_time;
              if (busy++ == 0) busy_start = this_time;
              busy_end = time;
              state_time[static_cast<size_t>(slot)] += d;
              if (d > longest) {
                longest = d;
                longest_event = this_event;
              }
            }
            BlockSummary& sum = l0.blocks[first + b];
            sum.mergeable = time - block_start <= static_cast<Time>(UINT32_MAX);
            if (!sum.mergeable) continue;
            sum.span = static_cast<uint32_t>(time - block_start);
            sum.busy = static_cast<uint16_t>(busy);
            if (busy == 0) continue;
            sum.busy_start = static_cast<uint32_t>(busy_start - block_start);
            sum.busy_end = static_cast<uint32_t>(time - busy_end);
            sum.longest = static_cast<uint32_t>(longest);
            sum.longest_event = longest_event;
            for (size_t k = 0; k < K; k++) l0.state_time[size_t{first + b} * K + k] = static_cast<uint32_t>(state_time[k]);
          }
        },
        kEventSlice / LaneSet::kBlock);
    // Second level: runs of 16 blocks, from the first level's summaries.
    for (uint32_t b = 0; b < count / kSuperBlocks; b++) {
      BlockSummary& sup = l1.blocks[l1.begin[q] + b];
      Time span = 0, busy_end_at = 0;
      bool mergeable = true;
      for (uint32_t k = 0; k < kSuperBlocks; k++) {
        const size_t i = first + size_t{b} * kSuperBlocks + k;
        const BlockSummary& sum = l0.blocks[i];
        mergeable = mergeable && sum.mergeable;
        if (!mergeable) break;
        if (sum.busy > 0) {
          if (sup.busy == 0) sup.busy_start = static_cast<uint32_t>(span + sum.busy_start);
          busy_end_at = span + sum.span - sum.busy_end;
          if (sup.busy == 0 || sum.longest > sup.longest) {
            sup.longest = sum.longest;
            sup.longest_event = sum.longest_event;
          }
          sup.busy = static_cast<uint16_t>(sup.busy + sum.busy);
          for (size_t s2 = 0; s2 < K; s2++)
            l1.state_time[(l1.begin[q] + size_t{b}) * K + s2] += l0.state_time[i * K + s2];
        }
        span += sum.span;
      }
      sup.mergeable = mergeable && span <= static_cast<Time>(UINT32_MAX);
      if (!sup.mergeable) {
        sup = BlockSummary{};
        continue;
      }
      sup.span = static_cast<uint32_t>(span);
      sup.busy_end = static_cast<uint32_t>(span - busy_end_at);
    }
  }
}

}  // namespace

struct SliceTrackBuild::State {
  explicit State(TimelineData& data)
      : d(data), series(data.series, data.store->size()), rules(*data.store, builders, series, data.threads) {}
  TimelineData& d;
  std::array<TrackBuilder, kTrackKinds> builders;
  SeriesBuilder series;
  Rules rules;
  size_t finished = 0;  // kinds of tracks finished
};

SliceTrackBuild::SliceTrackBuild(TimelineData& d) {
  if (d.store->size() >= UINT32_MAX) throw std::length_error("the timeline indexes at most 2^32 - 1 events");
  s_ = std::make_unique<State>(d);
}
SliceTrackBuild::~SliceTrackBuild() = default;

void SliceTrackBuild::run(size_t from, size_t to) { s_->rules.run(from, to); }

bool SliceTrackBuild::finish_next() {
  State& st = *s_;
  if (st.finished == 0) st.rules.finish();
  if (st.finished == kTrackKinds) return true;
  TimelineData& d = st.d;
  const size_t k = st.finished++;
  st.builders[k].finish(d.tracks[k]);
  if (static_cast<TrackKind>(k) != TrackKind::Goroutine) {
    with_family(static_cast<TrackKind>(k), [&](auto family) {
      summarize_lanes<decltype(family)>(*d.store, d.start, d.end, d.tracks[k]);
      return 0;
    });
  }
  return st.finished == kTrackKinds;
}

// Every goroutine transition that changes its state is an entry of its lane (gstate.go);
// the lane is retired when the goroutine ends.
bool advance_goroutine_lanes(TimelineData& d, size_t events) {
  if (d.goroutine_lanes_built) return true;
  const EventStore& s = *d.store;
  SliceTracks& t = d.tracks[static_cast<size_t>(TrackKind::Goroutine)];
  if (!d.goroutine_build) {
    d.goroutine_build = std::make_unique<GoroutineLaneBuild>(static_cast<uint32_t>(t.ids.size()));
    for (uint32_t l = 0; l < t.ids.size(); l++) d.goroutine_build->lane_of.set(t.ids[l], l);
  }
  GoroutineLaneBuild& b = *d.goroutine_build;
  const size_t to = b.next + std::min(events, s.size() - b.next);
  for_each_goroutine_change(s, b.next, to, [&](uint32_t e, uint8_t, const StateTransition& st, const auto& col) {
    const uint32_t l = b.lane_of.get(st.resource.id);
    if (l == ~uint32_t{0}) return;  // not seen by the first pass: cannot happen
    b.lanes.add(l, e);
    b.extents.add(col, l, e, d.start);
    if (st.go_to() == GoState::NotExist) b.lanes.retire(l);
  });
  b.next = to;
  if (to < s.size() || events == 0) return false;
  // After the pass, one piece each: the lanes, then their summaries.
  if (!b.built) {
    b.built = std::make_unique<SliceTracks>();
    b.built->lanes = b.lanes.finish(static_cast<uint32_t>(t.ids.size()));
    b.lanes = {};
    b.built->extents = b.extents.finish(d.end);
    if (events != SIZE_MAX) return false;
  }
  SliceTracks& built = *b.built;
  summarize_lanes<GoroutineFamily>(s, d.start, d.end, built);
  built.ids = std::move(t.ids);
  built.aux = std::move(t.aux);
  t = std::move(built);
  d.goroutine_build.reset();
  d.goroutine_lanes_built = true;
  return true;
}

void build_goroutine_lanes(TimelineData& d) { advance_goroutine_lanes(d, SIZE_MAX); }

}  // namespace gotrace::analysis::detail
