// Inputs the fuzzers once failed on (tests/hardening/data/fuzz), replayed through the same
// driver: under the sanitizers (scripts/test-sanitized.sh) any undefined behaviour fails
// the test; in every build, what the analyses make of them is checked where it is known.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "analysis_driver.h"
#include "corpus.h"
#include "gotrace/analysis/goroutines.h"
#include "gotrace/analysis/mmu.h"
#include "gotrace/analysis/report.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/error.h"
#include "gotrace/go_int.h"
#include "gotrace/reader.h"
#include "trace_builder.h"

using namespace gotrace;
using namespace gotrace::analysis;

namespace {

std::filesystem::path fuzz_inputs() { return std::filesystem::path(GOTRACE_SOURCE_DIR) / "tests/hardening/data/fuzz"; }

}  // namespace

TEST_CASE("inputs the analyses' fuzzer failed on run to the end", "[hardening][fuzz]") {
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(fuzz_inputs())) {
    std::vector<uint8_t> bytes = test::read_bytes(entry.path().string());
    INFO(entry.path().filename().string());
    CHECK(fuzz::run_every_analysis(bytes.data(), bytes.size()) == 0);
    files++;
  }
  CHECK(files >= 1);
}

TEST_CASE("group totals wrap as Go's int64 sums do", "[hardening][fuzz]") {
  // Goroutines whose times lie near 2^63: their group's sums overflow (Go wraps them).
  ReadResult r = read_trace(test::read_bytes((fuzz_inputs() / "analysis-group-totals-overflow.bin").string()));
  REQUIRE(r.store.size() > 0);
  Summary s = summarize(r.store);
  bool wrapped = false;
  for (const GoroutineGroup& group : goroutine_groups(s)) {
    int64_t exec = 0, total = 0, unchecked = 0;
    for (GoID id : group.goroutines) {
      const GoroutineSummary* g = s.goroutine(id);
      REQUIRE(g);
      exec = wrap_add(exec, g->stats.exec);
      total = wrap_add(total, g->stats.total);
      wrapped = __builtin_add_overflow(unchecked, g->stats.total, &unchecked) || wrapped;
    }
    CHECK(group.totals.exec == exec);
    CHECK(group.totals.total == total);
  }
  CHECK(wrapped);  // the input does overflow
}

namespace {

// Wire event types of Go 1.23 (FORMAT.md §2.8) for the traces below.
enum : uint8_t { ProcsChange = 9, ProcStatus = 13, GoStatus = 25, STWBegin = 26, STWEnd = 27 };

// One thread running goroutine 1 on proc 0: GOMAXPROCS is `procs`, then `stops`
// stops of the world for the GC.
std::vector<uint8_t> stops_of_the_world(uint64_t procs, int stops) {
  test::TraceBuilder b;
  b.strings(1, {{1, "GC mark termination"}}).frequency(1);
  b.batch(1, 1).event(ProcStatus, {1, 0, 1}).event(GoStatus, {1, 1, 1, 2}).event(ProcsChange, {1, procs, 0});
  for (int i = 0; i < stops; i++) b.event(STWBegin, {1, 1, 0}).event(STWEnd, {1});
  return b.bytes();
}

}  // namespace

TEST_CASE("the MMU refuses a GOMAXPROCS no machine runs, at once", "[hardening][fuzz][mmu]") {
  // Found by the fuzzer: GOMAXPROCS 220033872 made the MMU allocate a P each (24 GB).
  ReadResult r = read_trace(test::read_bytes((fuzz_inputs() / "analysis-gomaxprocs-huge.bin").string()));
  REQUIRE(r.store.size() > 0);
  CHECK_THROWS_WITH(mutator_utilization(r.store, kUtilSTW | kUtilPerProc),
                    Catch::Contains("GOMAXPROCS of 220033872 at time 3236790") && Catch::Contains("generation 1"));
  CHECK_THROWS_AS(analyze(r.store), TraceError);
  CHECK(summarize(r.store).goroutines.size() == 55);  // the other analyses are unaffected

  ReadResult most = read_trace(stops_of_the_world(kMmuMaxProcs, 1));
  REQUIRE(most.ok());
  CHECK(mutator_utilization(most.store, kUtilSTW | kUtilPerProc).size() == kMmuMaxProcs);
  ReadResult more = read_trace(stops_of_the_world(kMmuMaxProcs + 1, 1));
  REQUIRE(more.ok());
  CHECK_THROWS_AS(mutator_utilization(more.store, kUtilSTW | kUtilPerProc), TraceError);
}

TEST_CASE("per P, the MMU refuses more work than any real trace needs", "[hardening][mmu]") {
  // Each stop of the world gives each of 65536 Ps a point at its start and its end:
  // 100 stops would be 13 M points from 200 events.
  ReadResult r = read_trace(stops_of_the_world(65536, 100));
  REQUIRE(r.ok());
  CHECK_THROWS_WITH(mutator_utilization(r.store, kUtilSTW | kUtilPerProc),
                    Catch::Contains("steps of work on Ps (GOMAXPROCS up to 65536)"));
  // One series for all Ps costs nothing per P.
  std::vector<UtilSeries> all = mutator_utilization(r.store, kUtilSTW);
  REQUIRE(all.size() == 1);
  CHECK(all[0].size() == 2 + 2 * 100);  // 1 at the start, 0 and 1 at each stop, 0 at the end
  // Fewer stops fit: 10 of them, 21 points per P.
  ReadResult few = read_trace(stops_of_the_world(65536, 10));
  std::vector<UtilSeries> per_p = mutator_utilization(few.store, kUtilSTW | kUtilPerProc);
  REQUIRE(per_p.size() == 65536);
  CHECK(per_p[0].size() == 2 + 2 * 10);
  CHECK(per_p[65535].size() == 2 + 2 * 10);
}
