// A report whose summaries are put away as goroutines end (SummaryKeeping::Archived, as
// `gotrace analysis` keeps them) is the report kept in memory, also where Go's
// summarizer does something unusual after an end: a goroutine named again after it ended
// (taken back out of the archive), one that ended at its creation (its total made the
// time to the trace's end by the last finalize), an id reused (the first left out).
// The corpus's traces are compared in test_streamed_read.
#include <catch2/catch.hpp>

#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/report.h"
#include "gotrace/event_store.h"
#include "gotrace/json_writer.h"
#include "gotrace/v2_spec.h"

using namespace gotrace;
using namespace gotrace::analysis;

namespace {

std::string json_of(const Report& r) {
  std::string out;
  JsonWriter w(out, true);
  report_json(w, r);
  return out;
}

}  // namespace

TEST_CASE("summaries put away as goroutines end give the report kept in memory", "[summary]") {
  EventStore s;
  const ContextID main = s.intern_context({1, 0, 1});  // thread 1, proc 0, goroutine 1
  auto on = [&](GoID g) { return s.intern_context({1, 0, g}); };
  Time t = 1000;
  auto push_at = [&](Time at, uint8_t type, ContextID ctx, GoID g) {
    s.push(at, type, ctx, 0, static_cast<uint32_t>(g), static_cast<uint32_t>(static_cast<uint64_t>(g) >> 32), 0);
  };
  auto push = [&](uint8_t type, ContextID ctx, GoID g) {
    t += 10;
    push_at(t, type, ctx, g);
  };
  push(v2::EvGoCreate, main, 5);
  push(v2::EvGoStart, main, 5);
  push(v2::EvGoDestroy, on(5), 5);
  push(v2::EvGoStart, main, 5);  // after its end: taken back
  push(v2::EvGoDestroy, on(5), 5);
  push(v2::EvGoCreate, main, 7);
  push_at(t, v2::EvGoDestroy, on(7), 7);  // ends when it is created: a total of 0
  push(v2::EvGoCreate, main, 9);
  push(v2::EvGoStart, main, 9);
  push(v2::EvGoDestroy, on(9), 9);
  push(v2::EvGoCreate, main, 9);  // the id again: the first 9 is left out
  push(v2::EvGoCreate, main, 11);
  push(v2::EvGoStart, main, 11);
  push(v2::EvGoCreate, main, 3);  // live at the end

  const Report in_memory = analyze(s);
  ReportBuilder b(s, SummaryKeeping::Archived);
  b.add(0, s.size());
  const Report archived = b.finish();
  REQUIRE(archived.archived);
  CHECK(archived.archived->restored == 1);
  CHECK(archived.goroutine_count() == in_memory.summary.goroutines.size());
  CHECK(archived.goroutine_count() == 5);
  CHECK(json_of(archived) == json_of(in_memory));
  // Goroutine 7's total is the time to the trace's end.
  const GoroutineSummary* g7 = in_memory.summary.goroutine(7);
  REQUIRE(g7);
  CHECK(g7->stats.total == t - g7->creation_time);
}
