// select_profile against the filters `gotrace pprof` applies: nothing selected is Go's
// profile; a group, a region type, a time range and the group's goroutines by id each
// give what the CLI's --goroutine, --region (with --region-pc), --from/--to give.
#include <catch2/catch.hpp>

#include <cstdio>

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

// Go's region filter takes a type and a pc (cmd/trace's newRegionFilter): the four types
// named "special" here, begun in four functions, are four profiles, each what the CLI's
// --region with --region-pc gives, and together the name's.
TEST_CASE("a region type by name and pc: one of the types that share a name", "[profile][selection][corpus]") {
  const std::string path = corpus_path("go123-futile-wakeup.trace");
  ReadResult r = read_trace(read_bytes(path));
  REQUIRE(r.ok());
  const EventStore& s = r.store;
  Summary summary = summarize(s);
  std::vector<RegionTypeStats> special;
  for (const RegionTypeStats& t : region_types(s, summary))
    if (t.name == "special") special.push_back(t);
  REQUIRE(special.size() == 4);
  const StoreEvents events(s);
  ProfileSelection by_name;
  by_name.region = "special";
  const Profile whole = select_profile(s, summary, ProfileType::Sync, by_name);
  int64_t sum = 0;
  int blocked = 0;  // types whose regions blocked on sync
  for (const RegionTypeStats& t : special) {
    char pc[32];
    std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(t.pc));
    INFO(t.func << " @ " << pc);
    ProfileSelection sel = by_name;
    sel.region_pc = t.pc;
    const Profile p = select_profile(s, summary, ProfileType::Sync, sel);
    // The type's regions, found here by their start frame's own pc.
    GoroutineIntervals own = region_intervals(summary, [&](const RegionSummary& reg) {
      const FrameID f = region_start_frame(s, events, reg);
      return reg.name == "special" && f != 0 && s.stacks.frame(f).pc == t.pc;
    });
    CHECK(folded(s, p) == folded(s, compute_profile(s, ProfileType::Sync, {&own, std::nullopt})));
    std::string cli;
    REQUIRE(run_command(cli_path() + " pprof --type=sync --folded --region=special --region-pc=" + pc + " '" + path + "'", &cli) == 0);
    CHECK(folded(s, p) == cli);
    if (!p.records.empty()) blocked++;
    for (const ProfileRecord& rec : p.records) sum += rec.nanoseconds;
  }
  int64_t whole_ns = 0;
  for (const ProfileRecord& rec : whole.records) whole_ns += rec.nanoseconds;
  CHECK(blocked >= 2);
  CHECK(sum == whole_ns);
}
