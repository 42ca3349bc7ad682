// EventStore::count_by_type: the tallies of the type column equal a count of type(i)
// over every event (traces of several chunks, the last one partial; v1 and v2), and
// the stats given them equal the stats that count.
#include <catch2/catch.hpp>

#include <array>

#include "corpus.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"

using namespace gotrace;
using namespace gotrace::test;

TEST_CASE("count_by_type equals counting type(i)", "[store]") {
  const auto names = corpus_traces({"go1*-workload", "fmt_1_21_pprof_good"});
  REQUIRE(names.size() >= 3);
  size_t multi_chunk = 0;
  for (const std::string& name : names) {
    INFO(name);
    ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
    REQUIRE(r.ok());
    std::array<uint64_t, 256> want = {};
    for (size_t i = 0; i < r.store.size(); i++) want[r.store.type(i)]++;
    CHECK(r.store.count_by_type() == want);
    multi_chunk += r.store.size() > (size_t{1} << 16);
    // The stats given the counts (as the wasm bindings share them) equal those that count.
    CHECK(stats_json(compute_stats(r, &want)) == stats_json(compute_stats(r)));
  }
  CHECK(multi_chunk >= 1);
  CHECK(EventStore().count_by_type() == std::array<uint64_t, 256>{});
}
