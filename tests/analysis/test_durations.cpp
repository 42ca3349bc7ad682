// Durations as Go writes and parses them, the duration histogram of `go tool trace`,
// and the MMU flag names: compared with values Go computed (data/go-durations.json).
#include <catch2/catch.hpp>

#include "corpus.h"
#include "gotrace/analysis/go_duration.h"
#include "gotrace/analysis/histogram.h"
#include "gotrace/analysis/mmu.h"
#include "json_parse.h"

using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {
const Json& go_data() {
  static const Json data = Json::parse(read_text(std::string(GOTRACE_SOURCE_DIR) + "/tests/analysis/data/go-durations.json"));
  return data;
}
}  // namespace

TEST_CASE("durations print as Go's time.Duration.String", "[analysis][durations]") {
  for (const Json& c : go_data()["duration_strings"].elements()) {
    INFO(c[0].int64());
    CHECK(go_duration_string(c[0].int64()) == c[1].string());
  }
}

TEST_CASE("durations parse as Go's time.ParseDuration", "[analysis][durations]") {
  for (const Json& c : go_data()["parses"].elements()) {
    INFO('"' << c[0].string() << '"');
    auto d = parse_go_duration(c[0].string());
    CHECK(d.has_value() == c[2].boolean());
    if (d && c[2].boolean()) CHECK(*d == c[1].int64());
  }
}

TEST_CASE("histogram buckets are Go's TimeHistogram buckets", "[analysis][durations]") {
  const Json& d = go_data();
  REQUIRE(d["durations"].size() == d["buckets"].size());
  for (size_t i = 0; i < d["durations"].size(); i++) {
    int64_t v = d["durations"][i].int64();
    INFO("duration " << v);
    TimeHistogram h;
    h.add(v);
    int want = static_cast<int>(d["buckets"][i].int64());
    REQUIRE(h.buckets.size() == static_cast<size_t>(want) + 1);
    CHECK(h.buckets[static_cast<size_t>(want)] == 1);
  }
  for (size_t b = 0; b < d["bucket_min"].size(); b++)
    CHECK(TimeHistogram::bucket_min(static_cast<int>(b)) == d["bucket_min"][b].int64());
}

TEST_CASE("histogram bounds keep Go's quirk", "[analysis][durations]") {
  // While the highest bucket is 0, each sample moves the lowest bucket (Go's
  // `bucket < h.MinBucket || h.MaxBucket == 0`).
  TimeHistogram h;
  h.add(0);
  h.add(1'500'000);  // bucket 30
  CHECK(h.count == 2);
  CHECK(h.min_bucket == 30);
  CHECK(h.max_bucket == 30);
  CHECK(h.buckets[0] == 1);
  h.add(15);  // bucket 5
  CHECK(h.min_bucket == 5);
  CHECK(h.max_bucket == 30);
}

TEST_CASE("duration quantiles are order statistics", "[analysis][durations]") {
  CHECK(duration_quantiles({}).count == 0);
  std::vector<int64_t> d;
  for (int64_t v = 100; v >= 1; v--) d.push_back(v);
  DurationQuantiles q = duration_quantiles(d);
  CHECK(q.count == 100);
  CHECK(q.min == 1);
  CHECK(q.p50 == 50);
  CHECK(q.p90 == 90);
  CHECK(q.p99 == 99);
  CHECK(q.max == 100);
  CHECK(q.total == 5050);
  DurationQuantiles one = duration_quantiles({7});
  CHECK((one.min == 7 && one.p50 == 7 && one.p99 == 7 && one.max == 7));
}

TEST_CASE("MMU flag sets by name", "[analysis][durations]") {
  CHECK(util_flags_name(kUtilSTW) == "stw");
  CHECK(util_flags_name(kUtilSTW | kUtilBackground | kUtilAssist | kUtilSweep) == "stw+background+assist+sweep");
  CHECK(util_flags_name(kUtilSTW | kUtilBackground | kUtilAssist | kUtilSweep | kUtilPerProc) ==
        "stw+background+assist+sweep per-proc");
  CHECK(util_flags_name(kUtilPerProc) == "per-proc");
  CHECK(util_flags_name(0) == "none");
  CHECK(parse_util_flags("stw+background+assist+sweep per-proc") == (kUtilSTW | kUtilBackground | kUtilAssist | kUtilSweep | kUtilPerProc));
  CHECK(parse_util_flags("stw|assist") == (kUtilSTW | kUtilAssist));
  CHECK(parse_util_flags("all,perproc") == 31u);
  CHECK(parse_util_flags("") == 0u);
  CHECK(!parse_util_flags("stw,gc").has_value());
}
