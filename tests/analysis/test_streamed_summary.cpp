// The whole trace's summary views from a streamed read (StreamedSummary: each
// generation's events summarized, then released), their summaries held in arrays or put
// away in an archive, answer as a session over the whole read does, on every corpus
// trace: the goroutine groups and every group's goroutines (sorted two ways), every
// goroutine, the task and region types, the tasks and regions of every histogram bucket,
// every task with its logs, and the goroutines' lifetimes the profiles count.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <utility>

#include "corpus.h"
#include "gotrace/analysis/histogram.h"
#include "gotrace/session.h"
#include "gotrace/streamed_read.h"
#include "gotrace/streamed_summary.h"
#include "streamed_to.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

TEST_CASE("a streamed read's summary views answer as the whole read's", "[streamed]") {
  const auto paths = every_trace_path();
  REQUIRE(paths.size() >= 80);
  size_t released = 0, logs = 0, regions = 0, groups = 0, logs_matched = 0, task_regions = 0;
  for (const std::string& path : paths) {
    INFO(path);
    const std::vector<uint8_t> bytes = read_bytes(path);
    TraceSession whole(read_trace(bytes));
    ReadResult r;
    StreamedSummary held(r.store, SIZE_MAX, StreamedSummary::Keeping::Held);
    StreamedSummary archived(r.store, SIZE_MAX, StreamedSummary::Keeping::Archived);
    read_streamed(bytes, r, [&](const EventStore&, size_t from, size_t to) {
      held.add(from, to);
      archived.add(from, to);
    });
    if (r.store.first_held() > 0) released++;
    for (StreamedSummary* streamed : {&held, &archived}) {
    INFO((streamed->archived() ? "archived" : "held"));
    CHECK_THROWS_WITH(streamed->views(), Catch::Contains("still being read"));
    streamed->finish();
    SummaryAnswers& part = streamed->views();
    SummaryViews& all = whole.views();

    REQUIRE(part.goroutine_groups_json() == all.goroutine_groups_json());
    for (const GoroutineGroup& g : all.groups()) {
      groups++;
      CHECK(part.goroutine_group_page_json(g.name, "total", true, 0, std::nullopt) ==
            all.goroutine_group_page_json(g.name, "total", true, 0, std::nullopt));
      CHECK(part.goroutine_group_page_json(g.name, "start", false, 1, 50) ==
            all.goroutine_group_page_json(g.name, "start", false, 1, 50));
    }
    const Summary& s = all.summary();
    for (size_t k = 0; k < s.goroutines.size(); k += 1 + s.goroutines.size() / 2000)
      CHECK(part.goroutine_json(static_cast<double>(s.goroutines[k].id)) ==
            all.goroutine_json(static_cast<double>(s.goroutines[k].id)));

    REQUIRE(part.task_types_json() == all.task_types_json());
    std::set<std::pair<std::string_view, int>> task_buckets, region_buckets;
    for (const TaskSummary& t : s.tasks) {
      logs += t.logs.size();
      task_regions += t.regions.size();
      CHECK(part.task_json(static_cast<double>(t.id)) == all.task_json(static_cast<double>(t.id)));
      if (t.complete()) task_buckets.insert({t.name, duration_bucket(t.end - t.start)});
    }
    for (auto [name, b] : task_buckets) {
      const double min = static_cast<double>(TimeHistogram::bucket_min(b));
      CHECK(part.tasks_in_bucket_json(name, min) == all.tasks_in_bucket_json(name, min));
    }
    // Every task of a type, complete or not.
    std::set<std::string_view> task_names;
    for (const TaskSummary& t : s.tasks) task_names.insert(t.name);
    for (std::string_view name : task_names)
      CHECK(part.tasks_in_bucket_json(name, std::nullopt) == all.tasks_in_bucket_json(name, std::nullopt));
    // The search's logs: by category and by message, any case, and none.
    for (const char* text : {"", "a", "E", "no log says this"}) {
      const std::string matched = all.task_logs_matching_json(text, 40);
      CHECK(part.task_logs_matching_json(text, 40) == matched);
      if (matched != "[]") logs_matched++;
    }

    REQUIRE(part.region_types_json() == all.region_types_json());
    for (const RegionSummary& rs : s.regions) {
      regions++;
      region_buckets.insert({rs.name, duration_bucket(region_interval(s, rs).duration())});
    }
    for (auto [name, b] : region_buckets) {
      const double min = static_cast<double>(TimeHistogram::bucket_min(b));
      CHECK(part.regions_in_bucket_json(name, min) == all.regions_in_bucket_json(name, min));
    }
    // A region type's own (its name and pc).
    for (const RegionTypeStats& t : all.region_types()) {
      const auto& buckets = t.durations.histogram.buckets;
      for (size_t b = 0; b < buckets.size(); b++) {
        if (buckets[b] == 0) continue;
        const double min = static_cast<double>(TimeHistogram::bucket_min(static_cast<int>(b)));
        CHECK(part.regions_in_bucket_json(t.name, min, t.pc) == all.regions_in_bucket_json(t.name, min, t.pc));
      }
    }

    const GoroutineLifetimes lives = streamed->lifetimes();
    REQUIRE(lives.size() == s.goroutines.size());
    for (size_t k = 0; k < s.goroutines.size(); k++) {
      const GoroutineSummary& g = s.goroutines[k];
      const Interval* span = lives.of(g.id);
      REQUIRE(span);
      CHECK(span->start == g.start_time);
      CHECK(span->end == (g.end_time != 0 ? g.end_time : s.last_time));
    }
    }
  }
  // Traces of many generations let go of their first events; tasks log, goroutines
  // have regions, and groups are many (the whole corpus: 45 traces released, 219,396
  // logs, 219,655 regions, 1,325 groups; its sample: 30, 72,993, 73,223, 1,123).
  CHECK(released >= 25);
  CHECK(logs >= 100000);
  CHECK(task_regions >= 50000);
  CHECK(regions >= 100000);
  CHECK(groups >= 2000);
  CHECK(logs_matched >= 30);
  WARN("logs matched in " << logs_matched << " searches");
}

TEST_CASE("a streamed summary over its memory budget gives up, saying so", "[streamed]") {
  // The annotation stress trace: goroutines with regions and tasks over 668 generations.
  const std::vector<uint8_t> bytes = read_bytes(newest_path("go127-annotations-stress.stress.trace"));
  // Its summaries foretold by the first generation: 2.5 MB held in arrays, 0.6 MB archived.
  std::string held_groups;
  for (size_t budget : {size_t{1} << 30, size_t{3} << 19, size_t{1} << 10}) {
    INFO(budget);
    ReadResult r;
    const auto streamed =
        read_streamed_to(bytes, r, [&](const EventStore& s) { return std::make_unique<StreamedSummary>(s, budget); });
    streamed->finish();
    if (budget < (size_t{1} << 20)) {
      CHECK_THAT(streamed->given_up(), Catch::StartsWith("the whole trace's summaries would take more than 0 MiB"));
      CHECK_THAT(streamed->given_up(), Catch::Contains("(the first generation foretells "));
      CHECK_THROWS_WITH(streamed->views(), streamed->given_up());
    } else if (budget < (size_t{1} << 30)) {
      // Past the budget held, within it archived: the same answers.
      INFO(streamed->given_up());
      REQUIRE(streamed->given_up().empty());
      CHECK(streamed->archived());
      CHECK(streamed->bytes() < budget);
      CHECK_THROWS_WITH(streamed->held_views(), Catch::Contains("archived"));
      CHECK(streamed->views().goroutine_groups_json() == held_groups);
      CHECK(streamed->lifetimes().size() == 51);
    } else {
      CHECK(streamed->given_up().empty());
      CHECK_FALSE(streamed->archived());
      CHECK(streamed->held_views().summary().goroutines.size() == 51);
      CHECK(streamed->held_views().summary().regions.size() == 98);
      held_groups = streamed->views().goroutine_groups_json();
    }
  }
  // Held at most to a bound, archived past it, within the budget: the same answers.
  {
    ReadResult r;
    const auto streamed = read_streamed_to(bytes, r, [&](const EventStore& s) {
      return std::make_unique<StreamedSummary>(s, size_t{1} << 30, StreamedSummary::Keeping::Fitting, size_t{1} << 20);
    });
    streamed->finish();
    CHECK(streamed->archived());
    CHECK(streamed->views().goroutine_groups_json() == held_groups);
  }
  // A file far larger than its first generation foretells more summaries than memory
  // holds: given up before anything is reserved (a reservation of what is foretold would
  // throw here, and in WebAssembly takes address space a 3 GB trace does not leave).
  ReadResult r;
  StreamedSummary huge(r.store, size_t{384} << 20);  // the web app's budget
  read_streamed(bytes, r, [&](const EventStore&, size_t from, size_t to) {
    r.store.format.file_bytes = uint64_t{1} << 50;  // a petabyte
    huge.add(from, to);
  });
  huge.finish();
  CHECK_THAT(huge.given_up(), Catch::StartsWith("the whole trace's summaries would take more than 384 MiB (the first generation foretells "));
  // Without a budget (the CLI's), the summaries are made all the same, their arrays
  // growing as they fill. (Not under AddressSanitizer, whose allocator ends the run where
  // a release build's throws std::bad_alloc.)
#if defined(__SANITIZE_ADDRESS__)
  return;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return;
#endif
#endif
  ReadResult unbounded;
  StreamedSummary all(unbounded.store);
  read_streamed(bytes, unbounded, [&](const EventStore&, size_t from, size_t to) {
    unbounded.store.format.file_bytes = uint64_t{1} << 50;
    all.add(from, to);
  });
  all.finish();
  CHECK(all.held_views().summary().goroutines.size() == 51);
}
