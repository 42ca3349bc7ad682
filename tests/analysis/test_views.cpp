// The views `go tool trace` builds on the summaries: goroutines grouped by start
// function, tasks and regions by type with their duration distributions, and their JSON.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "corpus.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/reader.h"
#include "json_parse.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

struct Analysed {
  ReadResult read;
  Summary summary;
};

const Analysed& analysed(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Analysed>> cache;
  auto& slot = cache[name];
  if (!slot) {
    slot = std::make_unique<Analysed>();
    slot->read = read_trace(read_bytes(corpus_path(name + ".trace")));
    slot->summary = summarize(slot->read.store);
  }
  return *slot;
}

template <class F>
Json to_json(F&& write) {
  std::string out;
  JsonWriter w(out, true);
  write(w);
  return Json::parse(out);
}

}  // namespace

TEST_CASE("goroutines group by start function", "[analysis][views]") {
  for (const char* name : {"go123-annotations-stress", "go123-stress", "go122-workload"}) {
    DYNAMIC_SECTION(name) {
      const Analysed& a = analysed(name);
      const Summary& s = a.summary;
      auto groups = goroutine_groups(s);
      size_t total = 0;
      std::set<std::string_view> names;
      for (size_t k = 0; k < groups.size(); k++) {
        const GoroutineGroup& g = groups[k];
        total += g.count;
        CHECK(names.insert(g.name).second);
        REQUIRE(g.goroutines.size() == g.count);
        int64_t exec = 0, sched = 0, blocked = 0;
        for (size_t j = 0; j < g.goroutines.size(); j++) {
          const GoroutineSummary* gs = s.goroutine(g.goroutines[j]);
          REQUIRE(gs);
          CHECK(gs->name == g.name);
          exec += gs->stats.exec;
          sched += gs->stats.sched_wait;
          blocked += gs->stats.block_total();
          if (j > 0) CHECK(s.goroutine(g.goroutines[j - 1])->stats.total >= gs->stats.total);  // longest first
        }
        CHECK(g.totals.exec == exec);
        CHECK(g.totals.sched_wait == sched);
        CHECK(g.totals.block_total() == blocked);
        if (k > 0) CHECK(groups[k - 1].totals.exec >= g.totals.exec);  // most execution first
      }
      CHECK(total == s.goroutines.size());

      Json j = to_json([&](JsonWriter& w) { goroutines_json(w, s, groups); });
      CHECK(j["groups"].size() == groups.size());
      CHECK(j["goroutines"].size() == s.goroutines.size());
      CHECK(j["groups"][0]["count"].int64() == static_cast<int64_t>(groups[0].count));

      // Groups left unordered are the same groups, each in Go's order once ordered; the
      // members are the goroutines by index.
      auto unordered = goroutine_groups_unordered(s);
      REQUIRE(unordered.size() == groups.size());
      for (size_t k = 0; k < groups.size(); k++) {
        GoroutineGroup& u = unordered[k];
        CHECK(u.name == groups[k].name);
        CHECK(u.count == groups[k].count);
        CHECK(u.totals.exec == groups[k].totals.exec);
        CHECK(u.goroutines.empty());
        CHECK(std::is_sorted(u.members.begin(), u.members.end()));
        order_members(s, u);
        CHECK(u.goroutines == groups[k].goroutines);
        CHECK(u.members == groups[k].members);
        for (size_t m = 0; m < u.members.size(); m++) CHECK(s.goroutines[u.members[m]].id == u.goroutines[m]);
      }
    }
  }
}

TEST_CASE("non-overlapping stats are Go's", "[analysis][views]") {
  const Summary& s = analysed("go123-annotations").summary;
  const GoroutineSummary* main = s.goroutine(1);
  REQUIRE(main);
  auto stats = non_overlapping_stats(s, main->stats);
  REQUIRE(!stats.empty());
  CHECK(stats[0].name == "Execution time");
  CHECK(stats[0].ns == main->stats.exec);
  int64_t sum = 0;
  std::set<std::string> names;
  for (auto& d : stats) {
    sum += d.ns;
    names.insert(d.name);
  }
  for (const char* n : {"Sched wait time", "Syscall execution time", "Block time (syscall)", "Unknown time", "Block time (sync)"})
    CHECK(names.count(n) == 1);
  CHECK(sum == std::max(main->stats.total, sum - main->stats.unknown()));
  CHECK(std::is_sorted(stats.begin() + 1, stats.end(), [](auto& a, auto& b) { return a.name < b.name; }));
}

TEST_CASE("tasks group by type", "[analysis][views]") {
  const Analysed& a = analysed("go123-annotations-stress");
  const Summary& s = a.summary;
  auto types = task_types(s);
  size_t count = 0, complete = 0;
  for (size_t k = 0; k < types.size(); k++) {
    count += types[k].count;
    complete += types[k].complete;
    CHECK(types[k].durations.quantiles.count == types[k].complete);
    CHECK(types[k].durations.histogram.count == types[k].complete);
    if (k > 0) CHECK(types[k - 1].name < types[k].name);
  }
  CHECK(count == s.tasks.size());
  CHECK(complete == static_cast<size_t>(std::count_if(s.tasks.begin(), s.tasks.end(), [](auto& t) { return t.complete(); })));
  auto it = std::find_if(types.begin(), types.end(), [](auto& t) { return t.name == "do"; });
  REQUIRE(it != types.end());
  CHECK(it->count == 18);
  CHECK(it->complete == 18);

  // Children and parents agree; intervals stay inside the trace.
  for (const TaskSummary& t : s.tasks) {
    for (TaskID c : t.children) {
      const TaskSummary* child = s.task(c);
      REQUIRE(child);
      CHECK(child->parent == t.id);
    }
    Interval iv = task_interval(s, t);
    CHECK(iv.start >= s.first_time);
    CHECK(iv.end <= s.last_time);
    CHECK(iv.duration() >= 0);
  }

  Json j = to_json([&](JsonWriter& w) { tasks_json(w, a.read.store, s, types); });
  REQUIRE(j["tasks"].size() == s.tasks.size());
  for (const Json& t : j["tasks"].elements()) {
    CHECK(t["logs"].size() == s.task(t["id"].uint64())->logs.size());
    if (t["complete"].boolean()) CHECK(t["duration"].int64() == t["end"].int64() - t["start"].int64());
    else CHECK(t["duration"].is_null());
  }
  const Json& logs = j["tasks"][5]["logs"];  // task 5 ("do") logs its fan-out
  REQUIRE(logs.size() > 0);
  CHECK(logs[0].has("category"));
  CHECK(logs[0].has("message"));
}

TEST_CASE("regions group by type and start frame", "[analysis][views]") {
  const Analysed& a = analysed("go123-annotations");
  const Summary& s = a.summary;
  auto types = region_types(a.read.store, s);
  size_t count = 0;
  std::map<std::string, size_t> by_name;
  for (size_t k = 0; k < types.size(); k++) {
    count += types[k].count;
    by_name[std::string(types[k].name)] += types[k].count;
    CHECK(types[k].durations.histogram.count == types[k].count);
    if (k > 0) CHECK((types[k - 1].name < types[k].name || (types[k - 1].name == types[k].name && types[k - 1].pc <= types[k].pc)));
  }
  size_t regions = 0;
  for (const auto& g : s.goroutines) regions += g.regions.size();
  CHECK(count == regions);
  CHECK(by_name["region0"] == 1);
  CHECK(by_name["unended region"] == 1);
  // A region begun by runtime/trace.WithRegion starts in its caller: a frame with a name.
  auto r0 = std::find_if(types.begin(), types.end(), [](auto& t) { return t.name == "region0"; });
  REQUIRE(r0 != types.end());
  CHECK(!r0->func.empty());
  CHECK(r0->pc != 0);

  Json j = to_json([&](JsonWriter& w) { regions_json(w, s, types); });
  CHECK(j["regions"].size() == regions);
  CHECK(j["types"].size() == types.size());
  for (const Json& r : j["regions"].elements()) {
    if (!r["start"].is_null() && !r["end"].is_null()) CHECK(r["duration"].int64() == r["end"].int64() - r["start"].int64());
  }
}

TEST_CASE("a goroutine inherits its creator's task", "[analysis][views]") {
  // In go123-annotations, goroutine 9 starts inside "task0 region" of task 1: its first
  // region is the synthetic one Go makes, unnamed, from its creation to its end.
  const Summary& s = analysed("go123-annotations").summary;
  const GoroutineSummary* g = s.goroutine(9);
  REQUIRE(g);
  REQUIRE(!g->regions.empty());
  const RegionSummary& r = s.regions[g->regions[0]];
  CHECK(r.name.empty());
  CHECK(r.task == 1);
  CHECK(r.start == g->creation_time);
  CHECK(r.end == g->end_time);
  CHECK(r.goroutine == 9);
  CHECK(!is_system_goroutine(g->name));
  CHECK(is_system_goroutine("runtime.bgsweep"));
  CHECK(!is_system_goroutine("runtime.main"));
  CHECK(is_system_goroutine(""));
}

TEST_CASE("the MMU JSON of a flag set", "[analysis][views]") {
  const Analysed& a = analysed("go123-gc-stress");
  MmuCurve curve(mutator_utilization(a.read.store, kUtilSTW | kUtilBackground | kUtilAssist | kUtilSweep));
  std::vector<MmuWindowResult> windows;
  for (int64_t w : {1'000'000, 10'000'000}) windows.push_back(mmu_window(curve, w, 3, kMudQuantiles));
  Json j = to_json([&](JsonWriter& w) { mmu_json(w, kUtilSTW | kUtilBackground | kUtilAssist | kUtilSweep, curve, windows, kMudQuantiles); });
  CHECK(j["flags"].string() == "stw+background+assist+sweep");
  CHECK(j["series"].int64() == 1);
  REQUIRE(j["windows"].size() == 2);
  CHECK(j["windows"][0]["label"].string() == "1ms");
  CHECK(j["windows"][1]["worst"].size() == 3);
  CHECK(j["windows"][1]["mud"].size() == 4);
  CHECK(std::abs(j["windows"][1]["mud"][0]["util"].number() - j["windows"][1]["mmu"].number()) <= 1e-9);  // the 0-quantile
  CHECK(j["windows"][1]["mud"][3]["util"].number() >= j["windows"][1]["mud"][1]["util"].number());
}
