// The analyses of generations read again from the middle of a trace (a part, as the web
// app shows a trace too large to hold whole): a goroutine alive when the part begins is
// summarized from there, as Go summarizes one alive when a trace begins.
#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>

#include "corpus.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/timeline.h"
#include "gotrace/analysis/timeline_details.h"
#include "gotrace/reader.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

TEST_CASE("a part's goroutine summaries hold every goroutine its timeline shows", "[analysis][generations][corpus]") {
  for (const char* name : {"newest/go127-gomaxprocs.stress", "newest/go124-stacks.stress", "go122-workload", "go123-stress"}) {
    INFO(name);
    const std::vector<uint8_t> bytes = read_bytes(trace_path(name));
    ReadOptions o;
    o.resume_points = true;
    const ReadResult whole = read_trace(bytes, o);
    const size_t n = whole.store.generations.size();
    REQUIRE(n >= 2);
    ReadResult part;
    read_generations(bytes, whole.store, n / 2, std::min(n - 1, n / 2 + 1), part);
    REQUIRE(part.ok());
    const Summary s = summarize(part.store);
    const TrackList tracks = list_tracks(build_timeline_index(part.store));
    std::vector<GoID> summarized;
    for (const GoroutineSummary& g : s.goroutines) summarized.push_back(g.id);
    std::sort(summarized.begin(), summarized.end());
    size_t alive_before = 0;
    for (int64_t g : tracks.goroutines) {
      INFO("goroutine " << g);
      CHECK(std::binary_search(summarized.begin(), summarized.end(), g));
    }
    for (const GoroutineSummary& g : s.goroutines) {
      // Alive when the part began: it has existed since the part's first Sync.
      if (g.creation_time == part.store.time(0)) alive_before++;
      CHECK(g.creation_time >= part.store.time(0));
    }
    CHECK(alive_before > 0);
  }
}

TEST_CASE("a part's timeline begins a goroutine named by a status where the part begins, in the whole trace's state",
          "[analysis][generations][corpus]") {
  for (const char* name : {"newest/go127-gomaxprocs.stress", "newest/go124-stacks.stress", "go123-stress"}) {
    INFO(name);
    const std::vector<uint8_t> bytes = read_bytes(trace_path(name));
    ReadOptions o;
    o.resume_points = true;
    const ReadResult whole = read_trace(bytes, o);
    const TimelineIndex whole_index = build_timeline_index(whole.store);
    const size_t n = whole.store.generations.size();
    ReadResult part;
    read_generations(bytes, whole.store, n / 2, std::min(n - 1, n / 2 + 2), part);
    REQUIRE(part.ok());
    const TimelineIndex index = build_timeline_index(part.store);
    const TrackList tracks = list_tracks(index);
    const Time start = part.store.time(0);
    size_t at_start = 0, waiting = 0;
    for (int64_t g : tracks.goroutines) {
      INFO("goroutine " << g);
      const Track track{TrackKind::Goroutine, g};
      const std::optional<SliceAt> got = slice_at(index, track, start);
      if (!got) continue;  // named later by another event
      const std::optional<SliceAt> want = slice_at(whole_index, track, start);
      REQUIRE(want);
      CHECK(got->start == start);
      CHECK(got->state == want->state);
      // Waiting for what it began to wait for before the part (the tables are the whole
      // read's: the same string ids).
      CHECK(got->detail == want->detail);
      waiting += got->state == SliceState::Waiting && got->detail != 0;
      if (got->end_event != kNoSliceEvent && want->end_event != kNoSliceEvent) CHECK(got->end == want->end);
      at_start++;
    }
    CHECK(at_start > 0);
    CHECK(waiting > 0);
  }
}

// A region begun before a part and ended after it is, in the part, a region of its
// goroutine with neither start nor end (as the timeline draws it through the whole
// part): the part's summaries begin each goroutine in the regions it was in as the
// part began (EventStore::regions_at_start).
TEST_CASE("a part's summaries count the regions open through it", "[analysis][generations][corpus]") {
  size_t through = 0;
  for (const char* name : {"newest/go124-annotations-stress.stress", "newest/go127-annotations-stress.stress",
                           "newest/go127-annotations.stress", "go123-annotations-stress"}) {
    INFO(name);
    const std::vector<uint8_t> bytes = read_bytes(trace_path(name));
    ReadOptions o;
    o.resume_points = true;
    const ReadResult whole = read_trace(bytes, o);
    REQUIRE(whole.ok());
    const Summary all = summarize(whole.store);
    for (size_t g = 1; g < whole.store.generations.size(); g++) {
      INFO("generation " << g);
      ReadResult part;
      read_generations(bytes, whole.store, g, g, part);
      REQUIRE(part.ok());
      const Summary s = summarize(part.store);
      const Time from = part.store.time(0), to = part.store.time(part.store.size() - 1);
      // The whole trace's regions through the part, of goroutines the part summarizes.
      std::vector<std::tuple<GoID, TaskID, std::string_view>> want, got;
      for (const RegionSummary& r : all.regions) {
        if (r.has_start() && r.start < from && (!r.has_end() || r.end > to) && s.goroutine(r.goroutine) && !r.name.empty())
          want.emplace_back(r.goroutine, r.task, r.name);
      }
      for (const RegionSummary& r : s.regions) {
        if (!r.has_start() && !r.has_end() && !r.name.empty()) got.emplace_back(r.goroutine, r.task, r.name);
      }
      std::sort(want.begin(), want.end());
      std::sort(got.begin(), got.end());
      CHECK(got == want);
      through += got.size();
    }
  }
  WARN(through << " regions open through a part");
  CHECK(through > 20);
}
