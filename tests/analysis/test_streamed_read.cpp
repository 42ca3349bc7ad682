// A streamed read (read_streamed: each generation's events handed on, then released)
// gives the same stats and the same analysis report as a whole read, on every corpus
// trace, while holding about one generation's events (and its summaries put away as
// goroutines and tasks end, as `gotrace analysis` does); a released event cannot be read.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <thread>

#include "corpus.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/report.h"
#include "gotrace/json_writer.h"
#include "gotrace/stats.h"
#include "gotrace/streamed_read.h"

using namespace gotrace;
using namespace gotrace::test;
namespace fs = std::filesystem;

namespace {

std::string report_text(const analysis::Report& r) {
  std::string out;
  JsonWriter w(out, true);
  analysis::report_json(w, r);
  return out;
}

}  // namespace

TEST_CASE("a streamed read gives the whole read's stats and report, holding one generation", "[streamed]") {
  const auto paths = every_trace_path();
  REQUIRE(paths.size() >= 80);
  size_t released = 0;
  uint64_t restored = 0;  // goroutines and tasks named after their end, out of the archive
  for (const std::string& path : paths) {
    INFO(path);
    const std::vector<uint8_t> bytes = read_bytes(path);
    const ReadResult whole = read_trace(bytes);

    StatsCounter counter;
    std::unique_ptr<analysis::ReportBuilder> builder;
    size_t most_held = 0, handed = 0;
    ReadResult r;
    read_streamed(bytes, r, [&](const EventStore& s, size_t from, size_t to) {
      REQUIRE(from == handed);
      handed = to;
      most_held = std::max(most_held, s.size() - s.first_held());
      counter.add(s, from, to);
      if (!builder) builder = std::make_unique<analysis::ReportBuilder>(s, analysis::SummaryKeeping::Archived);
      builder->add(from, to);
    });
    CHECK(handed == whole.store.size());
    CHECK(r.ok() == whole.ok());
    CHECK(stats_json(counter.finish(r)) == stats_json(compute_stats(whole)));
    const std::string error = whole.ok() ? "" : whole.error->what();
    const analysis::Report streamed = builder->finish(error);
    CHECK(report_text(streamed) == report_text(analysis::analyze(whole.store, error)));
    restored += streamed.archived->restored;

    // What was held at once: the largest generation and the chunk before it, at most.
    uint64_t largest = 0;
    for (const GenerationInfo& g : whole.store.generations) largest = std::max(largest, g.event_count);
    if (!whole.store.format.legacy) CHECK(most_held <= largest + 2 * (size_t{1} << 16) + 2);
    if (r.store.first_held() > 0) {
      released++;
      CHECK_THROWS_AS(r.store.time(0), TraceError);
      CHECK_THROWS_WITH(r.store.type(0), Catch::Contains("no longer held"));
      CHECK(r.store.time(r.store.size() - 1) == whole.store.time(whole.store.size() - 1));
    }
  }
  // Traces of many generations let go of their first ones.
  CHECK(released >= 5);
  // The annotation traces log into tasks that have ended.
  CHECK(restored >= 3);
}

TEST_CASE("the report's two passes run at once on two threads give the same report", "[streamed]") {
  // As gotrace analysis runs them: the summaries here, the utilization beside, over each
  // generation as it is read.
  for (const char* name : {"newest/go127-gomaxprocs.stress", "go122-workload", "go123-annotations-stress"}) {
    INFO(name);
    const std::vector<uint8_t> bytes = read_bytes(trace_path(name));
    const ReadResult whole = read_trace(bytes);
    std::unique_ptr<analysis::ReportBuilder> builder;
    ReadResult r;
    size_t generations = 0;
    read_streamed(bytes, r, [&](const EventStore& s, size_t from, size_t to) {
      if (!builder) builder = std::make_unique<analysis::ReportBuilder>(s, analysis::SummaryKeeping::Archived);
      std::thread beside([&] { builder->add_utilization(from, to); });
      builder->add_summaries(from, to);
      beside.join();
      generations++;
    });
    CHECK(generations >= 2);
    CHECK(report_text(builder->finish()) == report_text(analysis::analyze(whole.store)));
  }
}

TEST_CASE("a consumer's exception ends a streamed read and is rethrown", "[streamed]") {
  const std::vector<uint8_t> bytes = read_bytes(newest_path("go127-workload.trace"));
  ReadResult r;
  size_t calls = 0;
  CHECK_THROWS_WITH(read_streamed(bytes, r,
                                  [&](const EventStore&, size_t, size_t) {
                                    if (++calls == 2) throw std::runtime_error("consumer gave up");
                                  }),
                    "consumer gave up");
  CHECK(calls == 2);
}
