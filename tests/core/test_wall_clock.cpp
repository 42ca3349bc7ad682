// Wall-clock time from the clock snapshots of Go 1.25+ traces: printed as Go prints it,
// and the start and end of a trace in `gotrace stats`.
#include <catch2/catch.hpp>

#include "corpus.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"
#include "gotrace/wall_clock.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

std::string text(const WallTime& t) {
  std::string s;
  append_rfc3339_nano(s, t);
  return s;
}

}  // namespace

TEST_CASE("wall-clock times print as Go's RFC 3339 with nanoseconds", "[wall]") {
  auto wall = [](uint64_t sec, uint64_t nsec) { return text(snapshot_wall(ClockSnapshot{0, 0, sec, nsec})); };
  CHECK(wall(0, 0) == "1970-01-01T00:00:00Z");
  CHECK(wall(1795752665, 996086443) == "2026-11-27T04:11:05.996086443Z");
  CHECK(wall(951782400, 500000000) == "2000-02-29T00:00:00.5Z");
  CHECK(wall(4102444799, 1000000000) == "2100-01-01T00:00:00Z");  // time.Unix carries nsec
}

TEST_CASE("stats give the wall-clock start and end of a Go 1.25+ trace", "[wall][stats]") {
  // Its one generation's snapshot: trace time 468193138432 at 2026-11-27T04:11:05.996086443Z;
  // its first event (the Sync) at 468193127488, its last at 468193276033.
  ReadResult r = read_go127(read_bytes(newest_path("go127-annotations.default.trace")));
  REQUIRE(r.ok());
  TraceStats st = compute_stats(r);
  REQUIRE(st.wall_start);
  REQUIRE(st.wall_end);
  CHECK(text(*st.wall_start) == "2026-11-27T04:11:05.996075499Z");
  CHECK(text(*st.wall_end) == "2026-11-27T04:11:05.996224044Z");
  CHECK(stats_text(st).find("wall clock   2026-11-27T04:11:05.996075499Z .. 2026-11-27T04:11:05.996224044Z\n") !=
        std::string::npos);
  CHECK(stats_json(st).find("\"wall_start\": \"2026-11-27T04:11:05.996075499Z\"") != std::string::npos);

  // A trace of Go 1.24 (format 1.23) has no snapshot.
  TraceStats old = compute_stats(read_trace(read_bytes(newest_path("go124-annotations.default.trace"))));
  CHECK_FALSE(old.wall_start);
  CHECK(stats_text(old).find("wall clock") == std::string::npos);
}
