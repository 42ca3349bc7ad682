// The whole trace's timeline overview from a streamed read (TimelineOverview: the index's
// state rules over each generation's events, then released) against the whole read's
// timeline index, on every corpus trace: each bucket's time in each state and the extent
// of its slices are the index's over the bucket, for every proc, thread, GC, STW and
// sweep track, and each series' value at a bucket's end is the index's.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>

#include "corpus.h"
#include "gotrace/analysis/timeline_details.h"
#include "gotrace/analysis/timeline_overview.h"
#include "gotrace/analysis/timeline_query.h"
#include "gotrace/streamed_read.h"
#include "streamed_to.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

// Up to `most` buckets of the overview, spread over it (every one when there are fewer).
std::vector<size_t> some_buckets(const TimelineOverview& o, size_t most) {
  const auto n = static_cast<size_t>((o.end() - o.start()) / o.bucket_ns()) + 1;
  std::vector<size_t> out;
  const size_t step = std::max<size_t>(1, n / most);
  for (size_t b = 0; b < n; b += step) out.push_back(b);
  return out;
}

}  // namespace

TEST_CASE("the streamed overview's buckets are the whole timeline's", "[streamed][timeline]") {
  const auto paths = every_trace_path();
  REQUIRE(paths.size() >= 80);
  size_t traces = 0, buckets_checked = 0, busy = 0, released = 0, halved = 0, series_checked = 0;
  for (const std::string& path : paths) {
    INFO(path);
    const std::vector<uint8_t> bytes = read_bytes(path);
    ReadResult whole = read_trace(bytes);
    if (whole.store.size() == 0 || whole.store.size() >= UINT32_MAX) continue;
    const TimelineIndex index = build_timeline_index(whole.store);
    ReadResult streamed;
    const auto overview = read_streamed_to(bytes, streamed, [](const EventStore& s) { return std::make_unique<TimelineOverview>(s); });
    overview->finish();
    traces++;
    if (streamed.store.first_held() > 0) released++;
    if (overview->bucket_ns() > 1024) halved++;
    REQUIRE(overview->start() == index.start());
    REQUIRE(overview->end() == index.end());
    const Time w = overview->bucket_ns();
    const std::vector<size_t> buckets = some_buckets(*overview, 96);
    for (TrackKind kind : {TrackKind::Proc, TrackKind::Thread, TrackKind::GC, TrackKind::STW, TrackKind::Sweep}) {
      INFO(to_string(kind));
      const auto ids = index.ids(kind);
      const std::vector<int64_t> expected_ids(ids.begin(), ids.end());
      // The index gives GC and STW a track whatever the trace; the overview those it saw.
      if (kind != TrackKind::GC && kind != TrackKind::STW) CHECK(overview->ids(kind) == expected_ids);
      for (int64_t id : expected_ids) {
        INFO("track " << id);
        for (size_t b : buckets) {
          INFO("bucket " << b);
          const Time from = overview->start() + static_cast<Time>(b) * w;
          const TimelineView view{from, from + w, 1};
          const SliceRects want = query_slices(index, {kind, id}, view);
          const SliceRects got = overview->slices({kind, id}, view);
          std::array<Time, kSliceStates> want_in{}, got_in{};
          for (size_t s = 0; s < kSliceStates; s++) {
            for (Time t : want.time_in[s]) want_in[s] += t;
            for (Time t : got.time_in[s]) got_in[s] += t;
          }
          CHECK(got_in == want_in);
          REQUIRE(got.size() <= 1);
          buckets_checked++;
          // The index leaves gaps out, but reports a slice of no time; so does the overview.
          if (want.size() == 0) {
            CHECK(got.size() == 0);
            continue;
          }
          REQUIRE(got.size() == 1);
          busy++;
          CHECK(got.start[0] == want.start.front());
          CHECK(got.end[0] == want.end.back());
        }
      }
    }
    for (size_t k = 0; k < kSeriesKinds; k++) {
      const auto kind = static_cast<SeriesKind>(k);
      INFO(to_string(kind));
      for (size_t b : buckets) {
        INFO("bucket " << b);
        const Time from = overview->start() + static_cast<Time>(b) * w;
        // Wide enough for every change to come back exactly.
        const SeriesPoints want = query_series(index, kind, {from, from + w, 1u << 20});
        const SeriesPoints got = overview->series(kind, {from, from + w, 1});
        if (want.size() == 0) continue;
        REQUIRE(want.exact);
        REQUIRE(got.size() == 1);
        CHECK(got.value[0] == want.value.back());
        CHECK(got.min[0] <= *std::min_element(want.value.begin(), want.value.end()));
        CHECK(got.max[0] >= *std::max_element(want.value.begin(), want.value.end()));
        series_checked++;
      }
    }
  }
  // Traces of many generations let go of their first events; long ones widen the buckets.
  // (Goroutine groups: below.)
  CHECK(traces >= 80);
  CHECK(released >= 25);
  CHECK(halved >= 50);
  CHECK(busy >= 10000);
  CHECK(series_checked >= 10000);
  WARN("traces " << traces << ", released " << released << ", widened " << halved << ", buckets " << buckets_checked
                 << " (busy " << busy << "), series " << series_checked);
}

// The goroutine groups' time in each state, all groups together, is the time the whole
// trace's goroutines spent in it: the whole index's activity of every goroutine.
TEST_CASE("the streamed overview's goroutine groups hold every goroutine's time", "[streamed][timeline]") {
  const auto paths = every_trace_path();
  REQUIRE(paths.size() >= 80);
  size_t checked = 0, busy = 0, grouped = 0;
  for (const std::string& path : paths) {
    INFO(path);
    const std::vector<uint8_t> bytes = read_bytes(path);
    ReadResult whole = read_trace(bytes);
    if (whole.store.size() == 0) continue;
    const TimelineIndex index = build_timeline_index(whole.store);
    index.build_goroutine_lanes();
    const auto ids = index.ids(TrackKind::Goroutine);
    const std::vector<GoID> all(ids.begin(), ids.end());
    ReadResult streamed;
    const auto overview = read_streamed_to(bytes, streamed, [](const EventStore& s) { return std::make_unique<TimelineOverview>(s); });
    overview->finish();
    const std::vector<std::string_view> groups = overview->groups();
    if (groups.size() > 1) grouped++;
    const Time w = overview->bucket_ns();
    for (size_t b : some_buckets(*overview, 24)) {
      INFO("bucket " << b);
      const Time from = overview->start() + static_cast<Time>(b) * w;
      const TimelineView view{from, from + w, 1};
      const GroupActivity want = query_group_activity(index, all, view);
      for (SliceState state : {SliceState::Running, SliceState::Runnable, SliceState::Waiting, SliceState::Syscall}) {
        INFO(to_string(state));
        double got = 0;
        for (std::string_view g : groups) got += overview->group_activity(g, view).in[static_cast<size_t>(state)][0];
        const double expected = want.in[static_cast<size_t>(state)][0];
        // Goroutine-nanoseconds: the groups' are kept in floats.
        CHECK(std::abs(got - expected) * static_cast<double>(w) <= 1000 + expected * static_cast<double>(w) * 1e-5);
        checked++;
        if (expected > 0) busy++;
      }
    }
  }
  CHECK(grouped >= 80);
  CHECK(busy >= 2000);
  WARN("group buckets checked " << checked << " (busy " << busy << "), traces with several groups " << grouped);
}
// Group by group: a goroutine's time counts for the start function it was named by when
// the time ended, where the index counts all of its life for its last name (a goroutine
// that shows no stack for a while, or whose id is used again), so most buckets of most
// groups, not all, are the index's.
TEST_CASE("the streamed overview's goroutine groups are mostly the index's, group by group", "[streamed][timeline]") {
  size_t same = 0, differ = 0;
  for (const std::string& path : every_trace_path()) {
    const std::vector<uint8_t> bytes = read_bytes(path);
    ReadResult whole = read_trace(bytes);
    if (whole.store.size() == 0) continue;
    const TimelineIndex index = build_timeline_index(whole.store);
    index.build_goroutine_lanes();
    TrackList t = list_tracks(index);
    ReadResult streamed;
    const auto overview = read_streamed_to(bytes, streamed, [](const EventStore& s) { return std::make_unique<TimelineOverview>(s); });
    overview->finish();
    const Time w = overview->bucket_ns();
    for (size_t gi = 0; gi < t.groups.size(); gi++) {
      std::vector<GoID> members;
      for (size_t i = 0; i < t.goroutines.size(); i++)
        if (t.goroutine_group[i] == gi) members.push_back(t.goroutines[i]);
      for (size_t b : some_buckets(*overview, 12)) {
        const Time from = overview->start() + static_cast<Time>(b) * w;
        const TimelineView view{from, from + w, 1};
        auto want = query_group_activity(index, members, view);
        auto got = overview->group_activity(t.groups[gi], view);
        bool ok = true;
        for (size_t k = 0; k < 4; k++)
          if (std::abs(want.in[k][0] - got.in[k][0]) * static_cast<double>(w) > 1000 + want.in[k][0] * static_cast<double>(w) * 1e-5) ok = false;
        (ok ? same : differ)++;
      }
    }
  }
  CHECK(same >= 10000);
  CHECK(same >= 9 * (same + differ) / 10);
  WARN("group buckets as the index's " << same << ", not " << differ);
}
