// select_profile against the filters `gotrace pprof` applies: nothing selected is Go's
// profile; a group, a region type, a time range and the group's goroutines by id each
// give what the CLI's --goroutine, --region, --from/--to give.
#include <catch2/catch.hpp>

#include "corpus.h"
#include "gotrace/analysis/goroutines.h"
#include "gotrace/analysis/pprof_folded.h"
#include "gotrace/analysis/profile_filter.h"
#include "gotrace/analysis/profile_selection.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/reader.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {
std::string folded(const EventStore& s, const Profile& p) { return pprof_folded(build_pprof_profile(s, p)); }
}  // namespace

TEST_CASE("profile selections equal the CLI's filters", "[profile][selection][corpus]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-annotations-stress.trace")));
  REQUIRE(r.ok());
  const EventStore& s = r.store;
  Summary summary = summarize(s);
  std::vector<GoroutineGroup> groups = goroutine_groups(summary);
  REQUIRE(!groups.empty());
  for (ProfileType type : kProfileTypes) {
    CHECK(folded(s, select_profile(s, summary, type, {})) == folded(s, compute_go_tool_profile(s, summary, type)));

    const std::string group(groups[0].name);
    GoroutineIntervals by_group = goroutine_group_intervals(summary, group);
    const std::string want_group = folded(s, compute_profile(s, type, {&by_group, std::nullopt}));
    ProfileSelection sel;
    sel.group = group;
    CHECK(folded(s, select_profile(s, summary, type, sel)) == want_group);
    ProfileSelection ids;
    ids.goroutines = groups[0].goroutines;
    CHECK(folded(s, select_profile(s, summary, type, ids)) == want_group);

    std::vector<RegionTypeStats> regions = region_types(s, summary);
    REQUIRE(!regions.empty());
    ProfileSelection reg;
    reg.region = std::string(regions[0].name);
    GoroutineIntervals by_region = region_type_intervals(summary, regions[0].name);
    CHECK(folded(s, select_profile(s, summary, type, reg)) == folded(s, compute_profile(s, type, {&by_region, std::nullopt})));

    ProfileSelection range;
    range.range = Interval{summary.first_time + (summary.last_time - summary.first_time) / 3, summary.last_time};
    GoroutineIntervals all = goroutine_group_intervals(summary);
    CHECK(folded(s, select_profile(s, summary, type, range)) == folded(s, compute_profile(s, type, {&all, range.range})));

    ProfileSelection none;
    none.group = "no.such.function";
    CHECK(select_profile(s, summary, type, none).records.empty());
  }
}

TEST_CASE("profiles of several types in one pass equal each computed alone", "[profile][selection][corpus]") {
  for (std::string name : {"go123-annotations-stress", "go122-workload", "go123-stress"}) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      REQUIRE(r.ok());
      const EventStore& s = r.store;
      Summary summary = summarize(s);
      ProfileSelection range;  // a selection too: the filter is shared by the types
      range.range = Interval{summary.first_time + (summary.last_time - summary.first_time) / 2, summary.last_time};
      for (const ProfileSelection& sel : {ProfileSelection{}, range}) {
        std::vector<Profile> all = select_profiles(s, summary, kProfileTypes, sel);
        REQUIRE(all.size() == std::size(kProfileTypes));
        size_t records = 0;
        for (size_t k = 0; k < all.size(); k++) {
          CHECK(all[k].type == kProfileTypes[k]);
          CHECK(folded(s, all[k]) == folded(s, select_profile(s, summary, kProfileTypes[k], sel)));
          records += all[k].records.size();
        }
        CHECK(records > 0);
        // In another order, and one type alone.
        const ProfileType reversed[] = {ProfileType::Sched, ProfileType::Syscall, ProfileType::Net};
        std::vector<Profile> some = select_profiles(s, summary, reversed, sel);
        for (size_t k = 0; k < std::size(reversed); k++)
          CHECK(folded(s, some[k]) == folded(s, select_profile(s, summary, reversed[k], sel)));
      }
    }
  }
}
