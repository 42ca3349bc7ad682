// The MMU curve of a streamed read (StreamedMmu: each generation's events through the
// utilization pass, then released) is the whole read's, on every corpus trace: the MMU
// view's answer (windows, worst windows, distribution, plot) for the default flags.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "corpus.h"
#include "gotrace/analysis/mmu_json.h"
#include "gotrace/session.h"
#include "gotrace/streamed_mmu.h"
#include "streamed_to.h"

using namespace gotrace;
using namespace gotrace::test;

TEST_CASE("a streamed read's MMU curve is the whole read's", "[streamed]") {
  const auto paths = every_trace_path();
  REQUIRE(paths.size() >= 80);
  const double windows[] = {1e3, 1e5, 1e6, 1e8};
  const unsigned flags = TraceSession::kDefaultMmuFlags;
  size_t released = 0, with_gc = 0;
  for (const std::string& path : paths) {
    INFO(path);
    const std::vector<uint8_t> bytes = read_bytes(path);
    TraceSession whole(read_trace(bytes));
    ReadResult r;
    const auto streamed = read_streamed_to(bytes, r, [&](const EventStore& s) { return std::make_unique<StreamedMmu>(s, flags); });
    CHECK_THROWS_WITH(streamed->curve(), Catch::Contains("still being read"));
    streamed->finish();
    std::string expected, error;
    try {
      expected = whole.mmu_json(windows, flags, 3);
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (!error.empty()) {
      CHECK_THROWS_WITH(analysis::mmu_view_json(streamed->curve(), flags, windows, 3), error);
      continue;
    }
    CHECK(analysis::mmu_view_json(streamed->curve(), flags, windows, 3) == expected);
    if (r.store.first_held() > 0) released++;
    if (expected.find("\"mmu\":1,") == std::string::npos) with_gc++;
  }
  // Traces of many generations let go of their first events; most traces have GC work
  // (the whole corpus: 45 and 77 of 114 traces; its sample: 30 and 61 of 98).
  CHECK(released >= 25);
  CHECK(with_gc >= 55);
}
