// The profiles of `go tool trace -pprof=TYPE`: for every corpus trace with Go's
// reference profiles (Go 1.23's for the older traces, Go 1.27's for the newest), ours
// print exactly Go's folded lines.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <set>
#include <sstream>

#include "corpus.h"
#include "gotrace/analysis/pprof_folded.h"
#include "gotrace/analysis/profile_filter.h"
#include "gotrace/reader.h"
#include "reference.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

std::string reference_path(const ReferenceTrace& t, ProfileType type) {
  return t.reference(".pprof-" + std::string(to_string(type)) + ".folded.zst");
}

std::string folded(const EventStore& store, const Summary& summary, ProfileType type) {
  return pprof_folded(build_pprof_profile(store, compute_go_tool_profile(store, summary, type)));
}

// The lines only one of two folded profiles has, to show where they differ.
std::string line_difference(const std::string& ours, const std::string& go) {
  auto lines = [](const std::string& text) {
    std::multiset<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.insert(line);
    return out;
  };
  std::multiset<std::string> a = lines(ours), b = lines(go);
  std::string out;
  for (const std::string& l : a)
    if (b.count(l) < a.count(l)) out += "only ours: " + l + "\n";
  for (const std::string& l : b)
    if (a.count(l) < b.count(l)) out += "only Go's: " + l + "\n";
  return out.substr(0, 2000);
}

}  // namespace

TEST_CASE("profiles equal Go's -pprof references", "[profile][corpus]") {
  auto traces = traces_with_reference();
  REQUIRE(traces.size() >= (corpus_sampled() ? 80 : 90));
  for (const ReferenceTrace& t : traces) {
    if (!file_exists(reference_path(t, ProfileType::Net))) continue;
    DYNAMIC_SECTION(t.name) {
      ReadResult r = t.read();
      if (!t.go127 && !r.ok()) return;  // a format our reader does not read (yet)
      REQUIRE(r.ok());
      Summary summary = summarize(r.store);
      for (ProfileType type : kProfileTypes) {
        INFO(t.name << " -pprof=" << to_string(type));
        std::string ours = folded(r.store, summary, type);
        std::string go = read_zstd(reference_path(t, type));
        INFO(line_difference(ours, go));
        CHECK(ours == go);
      }
    }
  }
}

TEST_CASE("profile type names", "[profile]") {
  for (ProfileType t : kProfileTypes) CHECK(parse_profile_type(to_string(t)) == t);
  CHECK(!parse_profile_type("block"));
}

TEST_CASE("filters restrict a profile", "[profile]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-stress.trace")));
  REQUIRE(r.ok());
  Summary summary = summarize(r.store);
  auto total = [](const Profile& p) {
    int64_t ns = 0;
    for (const ProfileRecord& rec : p.records) ns += rec.nanoseconds;
    return ns;
  };
  Profile all = compute_profile(r.store, ProfileType::Sched);
  const Time first = r.store.time(0), last = r.store.time(r.store.size() - 1);

  SECTION("a window over the whole trace changes nothing") {
    Profile p = compute_profile(r.store, ProfileType::Sched, {nullptr, Interval{first, last}});
    CHECK(total(p) == total(all));
  }
  SECTION("two halves add up to the whole") {
    Time mid = first + (last - first) / 2;
    Profile a = compute_profile(r.store, ProfileType::Sched, {nullptr, Interval{first, mid}});
    Profile b = compute_profile(r.store, ProfileType::Sched, {nullptr, Interval{mid, last}});
    CHECK(total(a) + total(b) == total(all));
    CHECK(total(a) > 0);
    CHECK(total(b) > 0);
  }
  SECTION("goroutine groups partition the goroutines") {
    std::set<std::string_view> names;
    for (const GoroutineSummary& g : summary.goroutines) names.insert(g.name);
    GoroutineIntervals every = goroutine_group_intervals(summary);
    int64_t whole = total(compute_profile(r.store, ProfileType::Sched, {&every, std::nullopt}));
    int64_t sum = 0;
    for (std::string_view n : names) {
      if (n.empty()) continue;
      GoroutineIntervals group = goroutine_group_intervals(summary, n);
      REQUIRE(group.goroutines() > 0);
      sum += total(compute_profile(r.store, ProfileType::Sched, {&group, std::nullopt}));
    }
    GoroutineIntervals unnamed;
    for (const GoroutineSummary& g : summary.goroutines)
      if (g.name.empty()) unnamed.add(g.id, {g.start_time, g.end_time ? g.end_time : summary.last_time});
    sum += total(compute_profile(r.store, ProfileType::Sched, {&unnamed, std::nullopt}));
    CHECK(sum == whole);
    CHECK(goroutine_group_intervals(summary, "no.such.function").goroutines() == 0);
  }
}

TEST_CASE("region filters keep the outermost regions", "[profile]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-annotations.trace")));
  REQUIRE(r.ok());
  Summary summary = summarize(r.store);
  GoroutineIntervals any = region_intervals(summary, [](const RegionSummary&) { return true; });
  REQUIRE(any.goroutines() > 0);
  for (size_t k = 0; k < any.goroutines(); k++) {
    auto ivs = any.of(any.goroutine(k));
    for (size_t i = 1; i < ivs.size(); i++) CHECK(ivs[i - 1].end <= ivs[i].start);
  }
  GoroutineIntervals none = region_type_intervals(summary, "no such region");
  CHECK(none.goroutines() == 0);
  Profile p = compute_profile(r.store, ProfileType::Sync, {&none, std::nullopt});
  CHECK(p.records.empty());
}
