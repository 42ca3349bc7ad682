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
#include "gotrace/analysis/summary.h"
#include "gotrace/go_int.h"
#include "gotrace/reader.h"

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
