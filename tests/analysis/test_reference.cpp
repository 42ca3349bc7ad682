// Goroutine summaries, regions, tasks and MMU of every corpus trace that has one of Go's
// analysis references equal Go's: Go 1.23's for the older traces, Go 1.27's for the
// newest (corpus/newest), each trace read with its Go's Syncs (reference.h).
#include <catch2/catch.hpp>

#include "corpus.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/report.h"
#include "gotrace/reader.h"
#include "json_parse.h"
#include "reference.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

std::string our_report_json(const ReadResult& r) {
  analysis::Report rep = analysis::analyze(r.store, r.ok() ? "" : r.error->what());
  std::string out;
  JsonWriter w(out);
  analysis::report_json(w, rep);
  return out;
}

}  // namespace

TEST_CASE("analysis equals Go's references", "[analysis][corpus]") {
  auto traces = traces_with_reference();
  REQUIRE(traces.size() >= (corpus_sampled() ? 80 : 90));
  for (const ReferenceTrace& t : traces) {
    DYNAMIC_SECTION(t.name) {
      ReadResult r = t.read();
      if (!r.ok() && !t.go127) {
        // Not ours to compare yet: the reader fails on it (the reader's tests say why).
        WARN(t.name << ": skipped, the reader stops with: " << r.error->what());
        return;
      }
      REQUIRE(r.ok());
      Json ours = Json::parse(our_report_json(r));
      Json go = Json::parse(read_zstd(t.reference(".analysis.json.zst")));
      // Go 1.27's references: exactly equal, to the nanosecond. (Go 1.23's older ones
      // allow a few ns where Go's order of tied events moved a time.)
      Tolerance tolerance;
      if (t.go127) tolerance = Tolerance{0, 0.0, 0};
      std::vector<Mismatch> diff = compare_reports(ours, go, tolerance);
      for (size_t i = 0; i < diff.size() && i < 20; i++)
        UNSCOPED_INFO(diff[i].where << ": ours " << diff[i].ours << ", Go " << diff[i].go);
      CHECK(diff.empty());
    }
  }
}

TEST_CASE("the analysis is deterministic", "[analysis]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-stress.trace")));
  REQUIRE(r.ok());
  CHECK(our_report_json(r) == our_report_json(r));
}

TEST_CASE("a trace without events has an empty analysis", "[analysis]") {
  EventStore empty;
  analysis::Report rep = analysis::analyze(empty, "");
  CHECK(rep.events == 0);
  CHECK(rep.summary.goroutines.empty());
  CHECK(rep.summary.tasks.empty());
  REQUIRE(rep.mmu.size() == 3);
  for (auto& v : rep.mmu)
    for (auto& [w, mmu] : v.by_window) CHECK(mmu == 1.0);  // Go: no series, nothing below 1
  std::string out;
  JsonWriter w(out);
  analysis::report_json(w, rep);
  Json j = Json::parse(out);
  CHECK(j["goroutines"].is_null());
  CHECK(j["tasks"].is_null());
  CHECK(j["events"].int64() == 0);
}

TEST_CASE("a truncated trace is analysed as far as it was read", "[analysis]") {
  auto bytes = read_bytes(corpus_path("go123-stress.trace"));  // two generations: the first stays
  bytes.resize(bytes.size() * 3 / 4);
  ReadResult r = read_trace(bytes);
  REQUIRE(!r.ok());
  REQUIRE(r.store.size() > 0);
  analysis::Report rep = analysis::analyze(r.store, r.error->what());
  CHECK(rep.events == r.store.size());
  CHECK(!rep.summary.goroutines.empty());
  CHECK(rep.error == r.error->what());
  for (const auto& g : rep.summary.goroutines) {
    CHECK(g.stats.total >= 0);
    CHECK(g.stats.exec >= 0);
  }
}
