// The timeline index's contents, shared by its builder and its queries.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include "gotrace/analysis/timeline.h"
#include "gotrace/analysis/timeline_query.h"
#include "gotrace/event_view.h"
#include "gotrace/id_map.h"
#include "timeline_extents.h"
#include "timeline_lanes.h"

namespace gotrace::analysis::detail {

// Level-of-detail summary of a full block of 64 slices of a lane, or of a run of 16 full
// blocks (1024 slices): enough to merge it whole into one rectangle without reading it.
// Only lanes longer than a block have them. Times are offsets within the block, so 32
// bits; a block longer than 2^32 ns (4.3 s) is never merged whole (it is read instead).
struct BlockSummary {
  uint32_t span = 0;           // from its first entry to the next block's (or the trace's end)
  uint32_t busy_start = 0;     // its first non-gap slice starts this long after the block
  uint32_t busy_end = 0;       // its last non-gap slice ends this long before the block ends
  uint32_t longest = 0;        // the longest non-gap slice
  uint32_t longest_event = 0;  // where that slice begins
  uint16_t busy = 0;           // non-gap slices
  bool mergeable = false;      // shorter than 2^32 ns
};
inline constexpr uint32_t kSuperBlocks = 16;  // blocks per second-level summary

// The slice tracks of one kind: lane k belongs to ids[k].
struct SliceTracks {
  std::vector<int64_t> ids;  // ascending
  LaneSet lanes;
  // Goroutine tracks: per lane, the StringID of the goroutine's start function (0: none).
  std::vector<uint32_t> aux;
  // Summaries, per level: [0] one per full block, [1] one per 16 full blocks.
  struct Level {
    std::vector<BlockSummary> blocks;
    std::vector<uint32_t> state_time;  // per summary, time in each of the family's states
    std::vector<uint32_t> begin;       // per summarized lane: its first summary
  };
  // Lanes longer than a block, ascending. (Most goroutines' lanes are short.)
  std::vector<uint32_t> summarized;
  std::array<Level, 2> levels;
  // Goroutine tracks: each short lane as one rectangle (a folded group's activity).
  LaneExtents extents;

  struct LaneSummaries {
    uint32_t first[2] = {0, 0};
    uint32_t count[2] = {0, 0};
  };
  LaneSummaries summaries_of(uint32_t lane) const {
    LaneSummaries out;
    auto it = std::lower_bound(summarized.begin(), summarized.end(), lane);
    if (it == summarized.end() || *it != lane) return out;
    const auto q = static_cast<size_t>(it - summarized.begin());
    const uint32_t blocks = lanes.size(lane) / LaneSet::kBlock;
    out.first[0] = levels[0].begin[q];
    out.count[0] = blocks;
    out.first[1] = levels[1].begin[q];
    out.count[1] = blocks / kSuperBlocks;
    return out;
  }
  int64_t lane_of(int64_t id) const {
    auto it = std::lower_bound(ids.begin(), ids.end(), id);
    return it != ids.end() && *it == id ? it - ids.begin() : -1;
  }
  size_t bytes_reserved() const {
    size_t n = ids.capacity() * 8 + lanes.bytes_reserved() + (summarized.capacity() + aux.capacity()) * 4;
    for (const Level& l : levels)
      n += l.blocks.capacity() * sizeof(BlockSummary) + (l.state_time.capacity() + l.begin.capacity()) * 4;
    return n + extents.bytes_reserved();
  }
};

// An event index for "not in the trace" (a span begun before it or still open at its end).
inline constexpr uint32_t kAbsent = ~uint32_t{0};

// User regions, grouped by goroutine, each goroutine's by start.
struct RegionSpans {
  std::vector<int64_t> goroutines;       // ascending
  std::vector<uint32_t> goroutine_begin;  // per goroutine (+1): its first region
  std::vector<uint32_t> begin, end;      // events; kAbsent: before the trace / still open
  std::vector<uint8_t> depth;            // nesting (0 = outermost)
  // Open as generations read again begin: 1 + its index in the store's regions_at_start
  // (which names it when neither its begin nor its end is read); else 0.
  std::vector<uint32_t> seed;
  size_t bytes_reserved() const {
    return goroutines.capacity() * 8 +
           (goroutine_begin.capacity() + begin.capacity() + end.capacity() + seed.capacity()) * 4 + depth.capacity();
  }
};

// User tasks by start, laid out in rows. Their times are kept (tasks overlap, so a
// view must look at every task that could reach into it: reading the times from the
// events would be a cache miss each).
struct TaskSpans {
  std::vector<Time> start, end;   // begun before the trace: its start; still open: its end
  std::vector<uint32_t> event;    // its TaskBegin, or its TaskEnd if it has none
  std::vector<uint32_t> row;
  std::vector<Time> block_end;    // per 64 tasks: the latest end among them and those before
  uint32_t rows = 0;
  size_t bytes_reserved() const {
    return (start.capacity() + end.capacity() + block_end.capacity()) * 8 + (event.capacity() + row.capacity()) * 4;
  }
};

// Counters and metrics, one checkpoint per kTileEvents events: the values before the
// tile's first event and their extremes within it. Counts fit 32 bits; the heap's
// metrics take 64.
inline constexpr uint32_t kTileEvents = 256;
class TileColumn {
 public:
  explicit TileColumn(bool wide = false) : wide_(wide) {}
  int64_t operator[](size_t i) const { return wide_ ? wide64_[i] : narrow_[i]; }
  void push_back(int64_t v) {
    if (wide_) wide64_.push_back(v);
    else narrow_.push_back(static_cast<int32_t>(v));
  }
  void reserve(size_t n) { wide_ ? wide64_.reserve(n) : narrow_.reserve(n); }
  size_t bytes_reserved() const { return wide64_.capacity() * 8 + narrow_.capacity() * 4; }

 private:
  bool wide_;
  std::vector<int32_t> narrow_;
  std::vector<int64_t> wide64_;
};

struct SeriesTiles {
  std::array<TileColumn, 8> first, min, max;  // by SeriesKind, per tile
  std::array<int64_t, 8> last{};              // after the last event
  size_t bytes_reserved() const {
    size_t n = 0;
    for (size_t k = 0; k < first.size(); k++)
      n += first[k].bytes_reserved() + min[k].bytes_reserved() + max[k].bytes_reserved();
    return n;
  }
};

struct TimelineData;
// The goroutine tracks' lanes and summaries, built on first use (TimelineData::of): the
// first screen shows procs and threads, and the track list needs only the ids. Or a
// piece at a time: advance_goroutine_lanes goes up to `events` events further (true
// once the lanes are built).
void build_goroutine_lanes(TimelineData& d);
bool advance_goroutine_lanes(TimelineData& d, size_t events);

// The goroutine lanes' pass under way.
struct GoroutineLaneBuild {
  explicit GoroutineLaneBuild(uint32_t goroutines) : extents(goroutines) {}
  IdMap<uint32_t, ~uint32_t{0}> lane_of;
  LaneSetBuilder lanes;
  LaneExtentBuild extents;
  size_t next = 0;                      // the first event not seen yet
  std::unique_ptr<SliceTracks> built;   // once the pass is over: the lanes, to summarize
};

struct TimelineData {
  const EventStore* store = nullptr;
  Time start = 0, end = 0;
  bool threads = false;
  std::array<SliceTracks, kTrackKinds> tracks;
  RegionSpans regions;
  TaskSpans tasks;
  LaneSet instants;  // a lane per InstantKind
  SeriesTiles series;
  std::vector<int64_t> single_track = {0};  // the ids of the GC and STW tracks

  bool goroutine_lanes_built = false;
  std::unique_ptr<GoroutineLaneBuild> goroutine_build;  // while built a piece at a time

  // A kind's tracks, complete (a query's first look at the goroutine tracks builds their
  // lanes: a const query may modify the index once, so queries of one index must not
  // run concurrently until then). `tracks[k]` is what is built so far: every kind's ids,
  // and the goroutines' start functions.
  const SliceTracks& of(TrackKind k) const {
    if (k == TrackKind::Goroutine && !goroutine_lanes_built) build_goroutine_lanes(const_cast<TimelineData&>(*this));
    return tracks[static_cast<size_t>(k)];
  }
};

}  // namespace gotrace::analysis::detail

namespace gotrace::analysis::detail {

// A view's pixels: which pixel a time falls in, where a pixel starts, and whether a
// length is narrower than one.
class Pixels {
 public:
  explicit Pixels(const TimelineView& v)
      : from_(v.from), width_(static_cast<double>(v.to - v.from) / static_cast<double>(v.pixels)) {}
  int64_t of(Time t) const { return static_cast<int64_t>(std::floor(static_cast<double>(t - from_) / width_)); }
  Time start(uint32_t p) const { return from_ + static_cast<Time>(std::ceil(width_ * p)); }
  bool narrow(Time length) const { return static_cast<double>(length) < width_; }

 private:
  Time from_;
  double width_;
};

// The first entry of a lane whose event is at or after time t (lane.size if none).
// Entries are in event order, so in time order.
inline uint32_t first_at_or_after(const EventStore& s, const LaneSet& lanes, uint32_t lane, Time t) {
  uint32_t lo = 0, hi = lanes.blocks(lane);
  if (hi == 0) return 0;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (s.time(lanes.block_event(lane, mid)) < t) lo = mid;
    else hi = mid;
  }
  for (LaneSet::Reader r(lanes, lane, lo); !r.done(); r.next())
    if (s.time(r.event()) >= t) return r.index();
  return lanes.size(lane);
}

// The parts of build_timeline_index, each in the file of its queries. Each fills its
// part of `d` from d.store (d.start and d.end already set).
//
// The slice tracks (and the series), a slice of events at a time: run() the events in
// order, then finish_next() until it is true (one kind of track each time).
class SliceTrackBuild {
 public:
  explicit SliceTrackBuild(TimelineData& d);
  ~SliceTrackBuild();
  void run(size_t from, size_t to);
  bool finish_next();

 private:
  struct State;
  std::unique_ptr<State> s_;
};
void build_regions(TimelineData& d);
void build_tasks(TimelineData& d);
void build_instants(TimelineData& d);

// The series' checkpoints, fed event by event by the slice tracks' pass over the events
// (SliceTrackBuild), which decodes the same transitions.
// The series' values, changed by an event as the index's series are (a mask of the kinds
// changed comes back): what the whole trace's overview counts (timeline_overview.cpp).
using SeriesValues = std::array<int64_t, kSeriesKinds>;
unsigned apply_series_metric(uint8_t type, uint64_t value, SeriesValues& v);
unsigned apply_series_transition(const StateTransition& st, SeriesValues& v);

class SeriesBuilder {
 public:
  SeriesBuilder(SeriesTiles& t, size_t events);
  // Around each event i, in order: before(i, its time), then metric or transition if it is one,
  // then after(i).
  void before(size_t i, Time /*time*/) {
    if (i % kTileEvents == 0) open_tile();
  }
  void metric(uint8_t type, uint64_t value);
  void transition(const StateTransition& st);
  void after(size_t i) {
    if (i % kTileEvents == kTileEvents - 1 || i + 1 == events_) close_tile();
  }
  void finish() { t_.last = v_; }

 private:
  using Values = std::array<int64_t, 8>;
  void changed(unsigned mask);
  void open_tile();
  void close_tile();
  SeriesTiles& t_;
  size_t events_;
  Values v_{}, lo_{}, hi_{};
};

}  // namespace gotrace::analysis::detail
