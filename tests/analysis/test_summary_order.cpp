// The summary's records come in id order whatever order the goroutines appear in (ids
// beyond the id index's array included), and a goroutine created with the id of one
// that ended replaces the earlier one's record, as Go's summarizer does.
#include <catch2/catch.hpp>

#include "gotrace/analysis/summary.h"
#include "gotrace/event_store.h"
#include "gotrace/v2_spec.h"

using namespace gotrace;
using namespace gotrace::analysis;

TEST_CASE("summaries come in id order, a reused id replacing the goroutine that ended", "[summary]") {
  EventStore s;
  const ContextID main = s.intern_context({1, 0, 1});  // thread 1, proc 0, goroutine 1
  Time t = 1000;
  auto push = [&](uint8_t type, ContextID ctx, GoID g) {
    t += 10;
    s.push(t, type, ctx, 0, static_cast<uint32_t>(g), static_cast<uint32_t>(static_cast<uint64_t>(g) >> 32), 0);
    return t;
  };
  const GoID large = (GoID{1} << 40) + 3;  // beyond the array of ids
  const Time created_large = push(v2::EvGoCreate, main, large);
  push(v2::EvGoCreate, main, 9);
  const Time created_7 = push(v2::EvGoCreate, main, 7);
  push(v2::EvGoCreate, main, 5);
  push(v2::EvGoStart, main, 5);
  push(v2::EvGoDestroy, s.intern_context({1, 0, 5}), 5);
  const Time created_again = push(v2::EvGoCreate, main, 5);
  const Time started = push(v2::EvGoStart, main, 5);
  const Time ended = push(v2::EvGoDestroy, s.intern_context({1, 0, 5}), 5);
  push(v2::EvGoStart, main, 9);

  const Summary sum = summarize(s);
  REQUIRE(sum.goroutines.size() == 4);
  CHECK(sum.goroutines[0].id == 5);
  CHECK(sum.goroutines[1].id == 7);
  CHECK(sum.goroutines[2].id == 9);
  CHECK(sum.goroutines[3].id == large);
  const GoroutineSummary& g5 = sum.goroutines[0];  // the second goroutine 5
  CHECK(g5.creation_time == created_again);
  CHECK(g5.start_time == started);
  CHECK(g5.end_time == ended);
  CHECK(g5.stats.exec == ended - started);
  CHECK(sum.goroutines[1].creation_time == created_7);
  CHECK(sum.goroutines[1].start_time == 0);
  CHECK(sum.goroutines[2].start_time == t);
  CHECK(sum.goroutines[3].creation_time == created_large);
  for (const GoroutineSummary& g : sum.goroutines) CHECK(sum.goroutine(g.id) == &g);

  // The same a piece at a time.
  SummaryBuild b(s);
  while (!b.step(2)) {
  }
  const Summary pieces = b.take();
  REQUIRE(pieces.goroutines.size() == 4);
  for (size_t k = 0; k < 4; k++) {
    CHECK(pieces.goroutines[k].id == sum.goroutines[k].id);
    CHECK(pieces.goroutines[k].creation_time == sum.goroutines[k].creation_time);
  }
}
