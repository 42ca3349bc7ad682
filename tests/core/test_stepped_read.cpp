// A trace read a few generations at a time (SteppedRead) is the trace read at once: the
// same events (column by column), error and generations, whatever the steps; each step reads no more
// generations than it was asked for.
#include <catch2/catch.hpp>

#include "corpus.h"
#include "gotrace/stepped_read.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

std::string error_of(const ReadResult& r) { return r.error ? r.error->what() : ""; }

// The same events, column by column (the same reader: the same encoding).
bool same_events(const EventStore& a, const EventStore& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++) {
    if (a.time(i) != b.time(i) || a.type(i) != b.type(i) || a.context(i) != b.context(i) || a.stack(i) != b.stack(i) ||
        a.ab(i) != b.ab(i) || a.c(i) != b.c(i)) {
      return false;
    }
  }
  return true;
}

void check_stepped(std::span<const uint8_t> bytes, const ReadResult& want, size_t step) {
  INFO(step << " generations a step");
  const TraceSource source{bytes.size(), [&](uint64_t offset, size_t n, uint8_t* out) {
                             std::copy_n(bytes.begin() + static_cast<ptrdiff_t>(offset), n, out);
                             return true;
                           }};
  ReadResult got;
  SteppedRead read(source, got);
  CHECK(got.store.size() == 0);  // nothing read until asked
  size_t steps = 0, before = 0;
  while (read.advance(step)) {
    steps++;
    CHECK(got.store.generations.size() - before <= step);
    before = got.store.generations.size();
    REQUIRE(steps < 100000);
  }
  CHECK(read.done());
  CHECK_FALSE(read.advance(1));
  CHECK(error_of(got) == error_of(want));
  CHECK(got.store.generations.size() == want.store.generations.size());
  CHECK(same_events(got.store, want.store));
  if (!want.store.format.legacy && want.ok()) CHECK(steps + 1 >= want.store.generations.size() / step);
}

}  // namespace

TEST_CASE("every corpus trace read a few generations at a time is the trace read at once", "[source][corpus]") {
  for (const std::string& name : every_trace()) {
    DYNAMIC_SECTION(name) {
      const std::vector<uint8_t> bytes = read_bytes(trace_path(name));
      const ReadResult want = read_trace(bytes);
      for (size_t step : {size_t{1}, size_t{7}}) check_stepped(bytes, want, step);
    }
  }
}

TEST_CASE("a trace cut short reads a generation at a time as at once, error and all", "[v2][source][corpus]") {
  const std::vector<uint8_t> bytes = read_bytes(newest_path("go127-gomaxprocs.stress.trace"));
  for (size_t cut : {size_t{10}, size_t{100}, bytes.size() / 3, bytes.size() - 1}) {
    DYNAMIC_SECTION("cut at " << cut) {
      const std::span<const uint8_t> part = std::span<const uint8_t>(bytes).first(cut);
      const ReadResult want = read_trace(part);
      check_stepped(part, want, 1);
    }
  }
}
