// Analyses built a piece at a time (the web worker answers requests between pieces)
// equal those built at once: the summaries' JSON byte for byte, and every track,
// region, task, instant, wake-edge and series query of the timeline index.
#include <catch2/catch.hpp>

#include <string>

#include "corpus.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/goroutines.h"
#include "gotrace/analysis/mmu.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/tasks.h"
#include "gotrace/analysis/timeline_json.h"
#include "gotrace/analysis/wake_index.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

std::string summary_json(const EventStore& store, const Summary& s) {
  std::string out;
  JsonWriter w(out);
  w.begin_array();
  goroutines_json(w, s, goroutine_groups(s));
  tasks_json(w, store, s, task_types(s));
  regions_json(w, s, region_types(store, s));
  w.end_array();
  return out;
}

// Every query of the index over the whole trace and over a narrow window, as JSON.
std::string timeline_json(const EventStore& store, const TimelineIndex& index) {
  std::string out;
  JsonWriter w(out);
  w.begin_array();
  const Time span = index.end() - index.start() + 1;
  for (TimelineView v : {TimelineView{index.start(), index.end() + 1, 700},
                         TimelineView{index.start() + span / 3, index.start() + span / 3 + span / 40, 300}}) {
    for (TrackKind k : {TrackKind::Goroutine, TrackKind::Proc, TrackKind::Thread, TrackKind::GC, TrackKind::STW,
                        TrackKind::Sweep, TrackKind::MarkAssist})
      for (int64_t id : index.ids(k)) slices_json(w, store, k, query_slices(index, {k, id}, v));
    spans_json(w, store, query_tasks(index, v));
    for (int64_t g : index.ids(TrackKind::Goroutine)) spans_json(w, store, query_regions(index, g, v));
    for (InstantKind k : {InstantKind::Log, InstantKind::CPUSample})
      for (ResourceKind by : {ResourceKind::Goroutine, ResourceKind::Proc, ResourceKind::Thread})
        instants_json(w, query_instants(index, k, by, v));
    wake_edges_json(w, store, query_wake_edges(index, v, 1u << 30));
    for (size_t k = 0; k < kSeriesKinds; k++) series_json(w, query_series(index, static_cast<SeriesKind>(k), v));
  }
  w.end_array();
  return out;
}

}  // namespace

TEST_CASE("summaries built a piece at a time equal those built at once", "[summary][corpus]") {
  for (std::string name : {"go123-annotations-stress", "go122-workload", "go121-workload", "go123-stress"}) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      REQUIRE(r.ok());
      const std::string whole = summary_json(r.store, summarize(r.store));
      const TraceStats stats = compute_stats(r);
      // One event per step on the smallest trace only (long enough there). One build
      // takes the counts of events by type from the stats rather than counting them.
      for (size_t piece : {size_t{1}, size_t{997}, size_t{65536} + 3}) {
        if (piece == 1 && r.store.size() > 200'000) continue;
        SummaryBuild b(r.store, piece == 997 ? &stats.events_by_type : nullptr);
        size_t steps = 1;
        while (!b.step(piece)) steps++;
        CHECK(steps >= r.store.size() / piece);
        CHECK(summary_json(r.store, b.take()) == whole);
      }
    }
  }
}

TEST_CASE("a timeline index built a piece at a time equals one built at once", "[timeline][corpus]") {
  for (std::string name : {"go123-annotations-stress", "go122-workload", "go123-stress"}) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      REQUIRE(r.ok());
      TimelineIndex whole = build_timeline_index(r.store);
      const std::string want = timeline_json(r.store, whole);
      REQUIRE(want.size() > 1000);

      TimelineIndexBuild b(r.store);
      size_t steps = 1;
      while (!b.step(5000)) steps++;
      CHECK(steps > r.store.size() / 5000);  // the pass in pieces, then the other parts
      TimelineIndex pieces = b.take();
      // Goroutine lanes a piece at a time too (otherwise built by the first query).
      size_t lane_steps = 1;
      while (!pieces.build_goroutine_lanes(3001)) lane_steps++;
      CHECK(lane_steps > r.store.size() / 3001);
      CHECK(pieces.build_goroutine_lanes(1));
      CHECK(timeline_json(r.store, pieces) == want);
    }
  }
}

TEST_CASE("a wake index built a piece at a time equals one built at once", "[wakes][corpus]") {
  for (std::string name : {"go123-annotations-stress", "go122-workload", "go123-stress"}) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      REQUIRE(r.ok());
      const WakeIndex whole = build_wake_index(r.store);
      REQUIRE(whole.edges() > 50);
      WakeIndexBuild b(r.store);
      size_t steps = 1;
      while (!b.step(4099)) steps++;
      CHECK(steps >= r.store.size() / 4099);  // the pass in pieces
      const WakeIndex pieces = b.take();
      CHECK(pieces.edges() == whole.edges());
      const Summary s = summarize(r.store);
      const Time mid = (s.first_time + s.last_time) / 2;
      auto same = [](const std::vector<WakeCount>& x, const std::vector<WakeCount>& y) {
        if (x.size() != y.size()) return false;
        for (size_t k = 0; k < x.size(); k++)
          if (x[k].goroutine != y[k].goroutine || x[k].count != y[k].count || x[k].first != y[k].first) return false;
        return true;
      };
      size_t with_edges = 0;
      for (const GoroutineSummary& g : s.goroutines) {
        for (auto [from, to] : {std::pair{s.first_time, s.last_time + 1}, std::pair{mid, s.last_time + 1}}) {
          const WakeCounts a = whole.count(g.id, from, to), c = pieces.count(g.id, from, to);
          with_edges += !a.woken_by.empty();
          CHECK(same(a.woken_by, c.woken_by));
          CHECK(same(a.woke, c.woke));
        }
      }
      CHECK(with_edges > 10);
    }
  }
}

TEST_CASE("mutator utilization computed a piece at a time equals it computed at once", "[mmu][corpus]") {
  for (std::string name : {"go123-annotations-stress", "go122-workload", "go123-stress"}) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      REQUIRE(r.ok());
      for (unsigned flags : {15u, 15u | kUtilPerProc, unsigned{kUtilAssist}}) {
        const std::vector<UtilSeries> whole = mutator_utilization(r.store, flags);
        REQUIRE(!whole.empty());
        UtilizationBuild b(r.store, flags);
        size_t steps = 1;
        while (!b.step(3001)) steps++;
        CHECK(steps > r.store.size() / 3001);
        const std::vector<UtilSeries> pieces = b.take();
        REQUIRE(pieces.size() == whole.size());
        for (size_t k = 0; k < whole.size(); k++) {
          REQUIRE(pieces[k].size() == whole[k].size());
          for (size_t j = 0; j < whole[k].size(); j++) {
            CHECK(pieces[k][j].time == whole[k][j].time);
            CHECK(pieces[k][j].util == whole[k][j].util);
          }
        }
      }
    }
  }
}
