// The whole trace's profiles from streamed reads (StreamedProfiles: a second read with the
// goroutines of the first read's StreamedSummary, each generation's events through the
// profiles' pass, then released) are the whole read's, on every corpus trace: every
// type's records, its flame graph, and its pprof, byte for byte; so are those counted
// with the goroutines' lifetimes of an archived summary.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "corpus.h"
#include "gotrace/session.h"
#include "gotrace/streamed_profiles.h"
#include "gotrace/streamed_read.h"
#include "gotrace/streamed_summary.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

TEST_CASE("streamed reads' profiles are the whole read's", "[streamed]") {
  const auto paths = every_trace_path();
  REQUIRE(paths.size() >= 80);
  size_t released = 0, records = 0, profiled = 0;
  for (const std::string& path : paths) {
    INFO(path);
    const std::vector<uint8_t> bytes = read_bytes(path);
    TraceSession whole(read_trace(bytes));
    ReadResult first;
    StreamedSummary summary(first.store, SIZE_MAX, StreamedSummary::Keeping::Held);
    StreamedSummary archived(first.store, SIZE_MAX, StreamedSummary::Keeping::Archived);
    read_streamed(bytes, first, [&](const EventStore&, size_t from, size_t to) {
      summary.add(from, to);
      archived.add(from, to);
    });
    summary.finish();
    archived.finish();
    ReadResult second;
    second.store.begin_with_tables_of(first.store);  // as the index reads again: the same ids, shared
    StreamedProfiles held_profiles(first.store, summary.held_views().summary(), second.store);
    StreamedProfiles archived_profiles(first.store, archived.lifetimes(), second.store);
    CHECK_THROWS_WITH(held_profiles.profile(ProfileType::Sched), Catch::Contains("still being read"));
    read_streamed(bytes, second, [&](const EventStore&, size_t from, size_t to) {
      held_profiles.add(from, to);
      archived_profiles.add(from, to);
    });
    held_profiles.finish();
    archived_profiles.finish();
    if (second.store.first_held() > 0) released++;
    bool any = false;
    for (StreamedProfiles* profiles : {&held_profiles, &archived_profiles}) {
    INFO((profiles == &held_profiles ? "held" : "archived"));
    for (ProfileType t : kProfileTypes) {
      INFO(to_string(t));
      const Profile& expected = whole.whole_profile(t);
      const Profile& got = profiles->profile(t);
      REQUIRE(got.records.size() == expected.records.size());
      for (size_t k = 0; k < got.records.size(); k++) {
        CHECK(got.records[k].stack == expected.records[k].stack);
        CHECK(got.records[k].count == expected.records[k].count);
        CHECK(got.records[k].nanoseconds == expected.records[k].nanoseconds);
      }
      records += got.records.size();
      any = any || !got.records.empty();
      const FlameGraph& f = profiles->flame(t);
      const FlameGraph& g = whole.whole_flame(t);
      CHECK(f.names == g.names);
      CHECK(f.parent == g.parent);
      CHECK(f.total_ns == g.total_ns);
      CHECK(f.self_count == g.self_count);
      CHECK(profiles->pprof(t) == whole.pprof(to_string(t), {}));
    }
    }
    if (any) profiled++;
  }
  // Traces of many generations let go of their first events, and most traces have
  // something to profile.
  CHECK(released >= 25);
  CHECK(profiled >= 80);
  CHECK(records >= 4000);  // both ways
  WARN("released " << released << ", profiled " << profiled << ", records " << records);
}

TEST_CASE("goroutine lifetimes find each goroutine, its ids close together or not", "[streamed]") {
  GoroutineLifetimes lives;
  // Close ids (gaps of up to 64 kept as absent spans), then one far off, then more.
  const std::vector<GoID> ids = {3, 4, 9, 70, 71, 1000, 1001, int64_t{1} << 40, (int64_t{1} << 40) + 2};
  for (GoID g : ids) lives.add(g, {g * 10, g * 10 + 5});
  CHECK(lives.size() == ids.size());
  for (GoID g : ids) {
    INFO(g);
    const Interval* span = lives.of(g);
    REQUIRE(span);
    CHECK(span->start == g * 10);
    CHECK(span->end == g * 10 + 5);
  }
  for (GoID g : {GoID{0}, GoID{5}, GoID{69}, GoID{72}, GoID{999}, (int64_t{1} << 40) + 1, GoID{-1}}) CHECK_FALSE(lives.of(g));
  GoroutineLifetimes dense;
  for (GoID g = 1; g < 100; g += 3) dense.add(g, {g, g + 1});
  CHECK(dense.of(97)->end == 98);
  CHECK_FALSE(dense.of(98));
  CHECK_FALSE(dense.of(100));
}
