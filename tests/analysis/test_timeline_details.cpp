// The track list and slice_at against the timeline's own queries: the slice under the
// middle of every exact rectangle is that rectangle, and a running goroutine's waker is
// the wake edge into its start.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "corpus.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/timeline_details.h"
#include "gotrace/event_view.h"
#include "gotrace/reader.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

void check_track(const TimelineIndex& index, Track track, const std::map<std::pair<int64_t, Time>, Time>& wakes,
                 size_t& checked) {
  const EventStore& s = index.store();
  const Time span = index.end() + 1 - index.start();
  TimelineView all{index.start(), index.end() + 1, static_cast<uint32_t>(std::min<Time>(span, 4'000'000'000))};
  SliceRects r = query_slices(index, track, all);
  for (size_t i = 0; i < r.size(); i++) {
    if (r.count[i] != 1 || r.end[i] <= r.start[i]) continue;
    const Time mid = r.start[i] + (r.end[i] - r.start[i]) / 2;
    std::optional<SliceAt> at = slice_at(index, track, mid);
    REQUIRE(at);
    CHECK(at->start == r.start[i]);
    CHECK(at->end == r.end[i]);
    CHECK(at->state == r.state[i]);
    CHECK(at->detail == r.detail[i]);
    CHECK(s.time(at->begin_event) <= at->start + (at->start == index.start() ? s.time(at->begin_event) : 0));
    if (at->end_event != kNoSliceEvent) CHECK(s.time(at->end_event) == at->end);
    if (i + 1 < r.size() && r.count[i + 1] == 1 && r.start[i + 1] == r.end[i] && r.end[i + 1] > r.start[i + 1]) {
      CHECK(at->has_next);
      CHECK(at->next_start == r.start[i + 1]);
      CHECK(at->next_state == r.state[i + 1]);
    }
    if (track.kind == TrackKind::Goroutine && at->state == SliceState::Running) {
      auto w = wakes.find({track.id, at->start});
      if (w != wakes.end()) {
        REQUIRE(at->wake);
        CHECK(s.time(at->wake_event) == w->second);
      }
    }
    checked++;
  }
}

}  // namespace

TEST_CASE("slice_at finds the rectangles of the timeline", "[timeline][details][corpus]") {
  for (std::string name : {"go123-stress", "go122-workload", "go123-cpu-profile"}) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      REQUIRE(r.ok());
      TimelineIndex index = build_timeline_index(r.store);
      WakeEdges e = query_wake_edges(index, {index.start(), index.end() + 1, 1000}, 1u << 30);
      std::map<std::pair<int64_t, Time>, Time> wakes;
      for (size_t i = 0; i < e.size(); i++) wakes[{e.goroutine[i], e.to_time[i]}] = e.from_time[i];
      size_t checked = 0;
      auto gs = index.ids(TrackKind::Goroutine);
      for (size_t k = 0; k < gs.size() && k < 200; k++) check_track(index, {TrackKind::Goroutine, gs[k]}, wakes, checked);
      for (int64_t p : index.ids(TrackKind::Proc)) check_track(index, {TrackKind::Proc, p}, wakes, checked);
      check_track(index, {TrackKind::GC, 0}, wakes, checked);
      check_track(index, {TrackKind::STW, 0}, wakes, checked);
      CHECK(checked > 100);
      CHECK_FALSE(slice_at(index, {TrackKind::Goroutine, -12345}, index.start()));
      CHECK_FALSE(slice_at(index, {TrackKind::Proc, gs.empty() ? 0 : index.ids(TrackKind::Proc)[0]}, index.end() + 10));
    }
  }
}

TEST_CASE("the track list groups goroutines by the summary's start functions", "[timeline][details][corpus]") {
  for (const std::string& name : corpus_traces({"go12*", "fmt_1_21_pprof_good"})) {
    INFO(name);
    ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
    if (!r.ok()) continue;
    TimelineIndex index = build_timeline_index(r.store);
    Summary summary = summarize(r.store);
    TrackList t = list_tracks(index);
    auto gs = index.ids(TrackKind::Goroutine);
    REQUIRE(t.goroutine_group.size() == gs.size());
    for (size_t i = 0; i < gs.size(); i++) {
      const GoroutineSummary* g = summary.goroutine(gs[i]);
      CHECK(t.groups[t.goroutine_group[i]] == (g ? g->name : std::string_view{}));
    }
  }
}

TEST_CASE("the track list names every track and goroutine group", "[timeline][details][corpus]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-annotations.trace")));
  REQUIRE(r.ok());
  TimelineIndex index = build_timeline_index(r.store);
  Summary summary = summarize(r.store);
  TrackList t = list_tracks(index);
  CHECK(t.start == index.start());
  CHECK(t.end == index.end());
  auto gs = index.ids(TrackKind::Goroutine);
  REQUIRE(t.goroutines.size() == gs.size());
  REQUIRE(t.goroutine_group.size() == gs.size());
  for (size_t i = 0; i < gs.size(); i++) {
    CHECK(t.goroutines[i] == gs[i]);
    const GoroutineSummary* g = summary.goroutine(gs[i]);
    CHECK(t.groups[t.goroutine_group[i]] == (g ? g->name : std::string_view{}));
  }
  CHECK(t.procs.size() == index.ids(TrackKind::Proc).size());
  size_t logs = 0;
  for (size_t i = 0; i < r.store.size(); i++) logs += EventView(r.store, i).kind() == EventKind::Log;
  CHECK(t.logs == logs);
  CHECK(logs > 0);
  CHECK(!t.region_goroutines.empty());
  CHECK(t.task_rows > 0);
  CHECK(std::find(t.series.begin(), t.series.end(), SeriesKind::GoroutinesRunning) != t.series.end());
}
