// The parts of the summary analyses one view shows: a group sorted by a column, the
// instances in one histogram bucket, matching logs, and their JSON, which must be the
// same objects as the whole analyses' JSON.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "corpus.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/summary_pages.h"
#include "gotrace/event_view.h"
#include "gotrace/reader.h"

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
std::string json(F&& write) {
  std::string out;
  JsonWriter w(out);
  write(w);
  return out;
}

const char* const kTraces[] = {"go123-annotations-stress", "go123-stress", "go122-workload"};

}  // namespace

TEST_CASE("a group's goroutines sort by every column, ties in the group's order", "[analysis][pages]") {
  for (const char* name : kTraces) {
    DYNAMIC_SECTION(name) {
      const Summary& s = analysed(name).summary;
      const char* columns[] = {"id", "start", "total", "exec", "sched_wait", "block", "syscall", "syscall_block",
                               "unknown", "range:GC mark assist", "breakdown"};
      for (const GoroutineGroup& g : goroutine_groups(s)) {
        std::map<GoID, size_t> place;
        for (size_t i = 0; i < g.goroutines.size(); i++) place[g.goroutines[i]] = i;
        const auto members = group_members(s, g);
        REQUIRE(members.size() == g.count);
        for (size_t i = 0; i < members.size(); i++) CHECK(members[i]->id == g.goroutines[i]);
        for (const char* column : columns) {
          auto by = parse_goroutine_sort(column);
          REQUIRE(by);
          for (bool desc : {false, true}) {
            auto rows = sorted_goroutines(s, members, *by, desc);
            REQUIRE(rows.size() == g.count);
            std::set<GoID> ids;
            for (auto* r : rows) ids.insert(r->id);
            CHECK(ids.size() == g.count);
            // The keys of a few columns, checked here: order, and ties in the group's order.
            auto key = [&](const GoroutineSummary* x) -> std::optional<double> {
              switch (*by) {
                case GoroutineSort::Id: return static_cast<double>(x->id);
                case GoroutineSort::Total: return static_cast<double>(x->stats.total);
                case GoroutineSort::Block: return static_cast<double>(x->stats.block_total());
                case GoroutineSort::Start: return x->start_time ? static_cast<double>(x->start_time) : -1.0;
                default: return std::nullopt;
              }
            };
            for (size_t i = 1; i < rows.size() && key(rows[i]); i++) {
              const double a = *key(rows[i - 1]), b = *key(rows[i]);
              CHECK((desc ? a >= b : a <= b));
              if (a == b) CHECK(place[rows[i - 1]->id] < place[rows[i]->id]);
            }
          }
        }
      }
    }
  }
  CHECK_FALSE(parse_goroutine_sort("nonsense"));
}

TEST_CASE("instances in a histogram bucket are the ones the histogram counts", "[analysis][pages]") {
  // go123-futile-wakeup: four region types named "special", begun at four places.
  for (const char* name : {"go123-annotations-stress", "go123-stress", "go122-workload", "go123-futile-wakeup"}) {
    DYNAMIC_SECTION(name) {
      const Analysed& a = analysed(name);
      const Summary& s = a.summary;
      for (const TaskTypeStats& t : task_types(s)) {
        const TimeHistogram& h = t.durations.histogram;
        size_t listed = 0;
        for (int b = 0; b < static_cast<int>(h.buckets.size()); b++) {
          // A bar is named by its lower bound; below 10 ns bounds truncate to the same integers.
          if (b >= 5) CHECK(bucket_of_min(static_cast<double>(TimeHistogram::bucket_min(b))) == b);
          auto in = tasks_in_bucket(s, t.name, b);
          CHECK(static_cast<int64_t>(in.size()) == h.buckets[b]);
          for (auto* x : in) CHECK((x->name == t.name && x->complete()));
          listed += in.size();
        }
        CHECK(listed == t.complete);
        // With no bucket: every task of the type, complete or not.
        const auto all = tasks_in_bucket(s, t.name, std::nullopt);
        CHECK(all.size() == t.count);
        for (auto* x : all) CHECK(x->name == t.name);
      }
      // Region types split a name by the frame that began it: a bucket of a name holds
      // those of all its types, a bucket of a type (name and pc) its own.
      std::map<std::pair<std::string_view, int>, int64_t> counted;
      const StoreEvents events(a.read.store);
      for (const RegionTypeStats& t : region_types(a.read.store, s)) {
        const TimeHistogram& h = t.durations.histogram;
        const RegionsAtPc at{a.read.store, events, t.pc};
        for (size_t b = 0; b < h.buckets.size(); b++) {
          counted[{t.name, static_cast<int>(b)}] += h.buckets[b];
          const auto in = regions_in_bucket(s, t.name, static_cast<int>(b), &at);
          CHECK(static_cast<int64_t>(in.size()) == h.buckets[b]);
          for (const RegionSummary* r : in) CHECK(r->name == t.name);
        }
      }
      for (auto& [key, n] : counted) CHECK(static_cast<int64_t>(regions_in_bucket(s, key.first, key.second).size()) == n);
    }
  }
}

TEST_CASE("the parts' JSON is the whole analyses' JSON, piece by piece", "[analysis][pages]") {
  for (const char* name : kTraces) {
    DYNAMIC_SECTION(name) {
      const Analysed& a = analysed(name);
      const Summary& s = a.summary;
      const auto groups = goroutine_groups(s);
      const std::string all_goroutines = json([&](JsonWriter& w) { goroutines_json(w, s, groups); });
      for (const GoroutineGroup& g : groups) {
        std::string part = json([&](JsonWriter& w) { goroutine_group_json(w, s, g); });
        part.pop_back();  // the whole analysis goes on with the group's ids
        CHECK(all_goroutines.find(part + ",\"goroutines\":[") != std::string::npos);
      }
      const std::string all_tasks = json([&](JsonWriter& w) { tasks_json(w, a.read.store, s, task_types(s)); });
      for (const TaskSummary& t : s.tasks)
        CHECK(all_tasks.find(json([&](JsonWriter& w) { task_entry_json(w, a.read.store, s, t); })) != std::string::npos);
      const std::string all_regions = json([&](JsonWriter& w) { regions_json(w, s, region_types(a.read.store, s)); });
      std::string pieces;
      for (const GoroutineSummary& g : s.goroutines)
        for (uint32_t k : g.regions) {
          if (!pieces.empty()) pieces += ',';
          pieces += json([&](JsonWriter& w) { region_entry_json(w, s, s.regions[k]); });
        }
      CHECK(all_regions.find("\"regions\":[" + pieces + "]") != std::string::npos);
    }
  }
}

TEST_CASE("task logs match their category or message without ASCII case", "[analysis][pages]") {
  const Analysed& a = analysed("go123-annotations-stress");
  const Summary& s = a.summary;
  size_t logs = 0;
  for (const TaskSummary& t : s.tasks) logs += t.logs.size();
  REQUIRE(logs > 0);
  const StoreEvents events(a.read.store);
  CHECK(logs_matching(events, s, "", logs + 1).size() == logs);
  CHECK(logs_matching(events, s, "", 3).size() == std::min<size_t>(3, logs));
  const auto [task, first] = logs_matching(events, s, "", 1).front();
  Log l = EventView(a.read.store, first).log();
  std::string word(l.message.empty() ? l.category : l.message);
  for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto found = logs_matching(events, s, word, logs + 1);
  REQUIRE_FALSE(found.empty());
  CHECK(found.front().first == task);
  CHECK(logs_matching(events, s, "\x01no such log\x02", logs + 1).empty());
}
