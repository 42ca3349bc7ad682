// TraceSession: every analysis of kAnalyses built a piece at a time (as the web worker
// builds them, between requests) gives what the analyses built at once give, and the
// registry names each analysis once, after what it needs.
#include <catch2/catch.hpp>

#include <functional>
#include <set>
#include <string>

#include "corpus.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/mmu.h"
#include "gotrace/analysis/timeline_details.h"
#include "gotrace/session.h"
#include "gotrace/stats.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

std::string json_of(const std::function<void(JsonWriter&)>& write) {
  std::string out;
  JsonWriter w(out);
  write(w);
  return out;
}

}  // namespace

TEST_CASE("the registry names each analysis once, after what it needs", "[session]") {
  std::set<std::string_view> seen;
  for (const AnalysisInfo& a : kAnalyses) {
    CHECK(seen.insert(a.name).second);
    if (a.needs) CHECK(seen.count(info(*a.needs).name) == 1);
    CHECK(parse_analysis(a.name) == a.id);
    CHECK(info(a.id).name == a.name);
  }
  CHECK(!parse_analysis("no such analysis"));
  ReadResult r = read_trace(read_bytes(corpus_path("go122-workload.trace")));
  TraceSession session(std::move(r));
  CHECK_THROWS_WITH(session.prepare("nothing"), "nothing to prepare called 'nothing'");
  CHECK_THROWS_WITH(session.prepare("flame:heap"), Catch::Contains("unknown profile type 'heap'"));
  // The analyses with a result of their own give it as JSON; the others say they have none.
  CHECK(session.json("taskTypes") == session.views().task_types_json());
  CHECK(session.json(Analysis::GoroutineGroups) == session.views().goroutine_groups_json());
  CHECK_THROWS_WITH(session.json("summary"), "the analysis 'summary' has no JSON of its own");
  CHECK_THROWS_WITH(session.json("nothing"), "no analysis called 'nothing'");
}

TEST_CASE("a session's analyses built a piece at a time equal those built at once", "[session][corpus]") {
  for (std::string name : {"go123-annotations-stress", "go122-workload", "go121-workload"}) {
    DYNAMIC_SECTION(name) {
      const std::vector<uint8_t> bytes = read_bytes(corpus_path(name + ".trace"));
      ReadResult r = read_trace(bytes);
      REQUIRE(r.ok());
      const Summary s = summarize(r.store);
      const std::string goroutines = json_of([&](JsonWriter& w) { goroutines_json(w, s, goroutine_groups(s)); });
      const std::string tasks = json_of([&](JsonWriter& w) { tasks_json(w, r.store, s, task_types(s)); });
      const std::string regions = json_of([&](JsonWriter& w) { regions_json(w, s, region_types(r.store, s)); });
      const std::string stats = stats_json(compute_stats(r), false);
      const TimelineIndex index = build_timeline_index(r.store);
      const TrackList tracks = list_tracks(index);
      const MmuCurve curve(mutator_utilization(r.store, TraceSession::kDefaultMmuFlags));

      TraceSession session(read_trace(bytes));
      size_t pieces = 0;
      for (const AnalysisInfo& a : kAnalyses)
        while (!session.advance(a.name, 4099)) pieces++;
      CHECK(pieces >= 4 * (r.store.size() / 4099));  // summary, wakes, mmu, timeline and lanes in pieces
      CHECK(session.goroutines_json() == goroutines);
      CHECK(session.tasks_json() == tasks);
      CHECK(session.regions_json() == regions);
      CHECK(session.stats_json() == stats);
      CHECK(list_tracks(session.timeline()).goroutines == tracks.goroutines);
      CHECK(list_tracks(session.timeline()).groups == tracks.groups);
      const std::vector<double> windows = {1e3, 1e6};
      std::vector<MmuWindowResult> results;
      for (double w : windows) results.push_back(mmu_window(curve, static_cast<int64_t>(w), 3, kMudQuantiles));
      const std::string mmu = json_of([&](JsonWriter& w) {
        w.begin_object();
        w.key("mmu");
        mmu_json(w, TraceSession::kDefaultMmuFlags, curve, results, kMudQuantiles);
        w.key("plot");
        mmu_plot_json(w, mmu_plot(curve, false));
        w.end_object();
      });
      CHECK(session.mmu_json(windows, TraceSession::kDefaultMmuFlags, 3) == mmu);
      // The groups of the goroutine table: each group's count and its members in order.
      REQUIRE(!session.groups().empty());
      for (size_t k = 0; k < session.groups().size(); k++)
        CHECK(session.members_of(k).size() == session.groups()[k].count);
    }
  }
}
