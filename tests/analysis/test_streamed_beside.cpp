// `gotrace stats` counts on a second thread while the reader orders the next events
// (native/cli/streamed_beside.h): the counts are the whole read's on every corpus trace,
// the runs follow each other, and a consumer's exception ends the read.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "corpus.h"
#include "gotrace/stats.h"
#include "streamed_beside.h"

using namespace gotrace;
using namespace gotrace::test;

TEST_CASE("stats counted beside the read are the whole read's", "[streamed]") {
  const auto paths = every_trace_path();
  REQUIRE(paths.size() >= 80);
  size_t split = 0;  // traces handed on in several runs while the read went on
  for (const std::string& path : paths) {
    INFO(path);
    const std::vector<uint8_t> bytes = read_bytes(path);
    const ReadResult whole = read_trace(bytes);
    StatsCounter counter;
    size_t handed = 0, runs = 0;
    ReadResult r;
    cli::read_streamed_beside(bytes, r, [&](const EventStore& s, size_t from, size_t to) {
      REQUIRE(from == handed);
      REQUIRE(to <= s.size());
      handed = to;
      runs++;
      counter.add(s, from, to);
    });
    CHECK(handed == whole.store.size());
    CHECK(r.ok() == whole.ok());
    CHECK(stats_json(counter.finish(r)) == stats_json(compute_stats(whole)));
    if (runs >= 3) split++;
  }
  CHECK(split >= 3);
}

TEST_CASE("a consumer's exception beside the read ends it and is rethrown", "[streamed]") {
  const std::vector<uint8_t> bytes = read_bytes(trace_path("go123-gc-stress"));
  ReadResult r;
  size_t calls = 0;
  CHECK_THROWS_WITH(cli::read_streamed_beside(bytes, r,
                                              [&](const EventStore&, size_t, size_t) {
                                                if (++calls == 2) throw std::runtime_error("consumer gave up");
                                              }),
                    "consumer gave up");
  CHECK(calls == 2);
}
