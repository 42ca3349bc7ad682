// JSON of summaries, regions and tasks in the shape of Go's analysis references.
#include <algorithm>
#include <string>

#include "gotrace/analysis/summary_json.h"

namespace gotrace::analysis {
namespace {

template <class NameOf>
void keyed_entries(JsonWriter& w, const char* prefix, std::span<const StatEntry> entries, NameOf name_of) {
  std::vector<std::pair<std::string_view, int64_t>> sorted;
  sorted.reserve(entries.size());
  for (const StatEntry& e : entries) sorted.push_back({name_of(e.name), e.ns});
  std::sort(sorted.begin(), sorted.end());
  std::string key;
  for (auto& [name, ns] : sorted) {
    key.assign(prefix);
    key += name;
    w.field(key, ns);
  }
}

}  // namespace

void exec_stats_json(JsonWriter& w, const Summary& s, const ExecStats& stats) {
  // Go's encoding/json sorts a map's keys: block:* < exec < range:* < sched_wait <
  // syscall < syscall_block < total.
  w.begin_object();
  keyed_entries(w, "block:", stats.block, [&](uint32_t n) { return s.block_reasons[n]; });
  w.field("exec", stats.exec);
  keyed_entries(w, "range:", stats.ranges, [&](uint32_t n) { return std::string_view(s.range_names[n]); });
  w.field("sched_wait", stats.sched_wait);
  w.field("syscall", stats.syscall);
  w.field("syscall_block", stats.syscall_block);
  w.field("total", stats.total);
  w.end_object();
}

void region_json(JsonWriter& w, const Summary& s, const RegionSummary& r) {
  w.begin_object();
  w.field("task", r.task);
  w.field("name", r.name);
  w.field("start", r.start);
  w.field("end", r.end);
  w.key("stats");
  exec_stats_json(w, s, r.stats);
  w.end_object();
}

namespace {

// A goroutine's fields before "regions", left open.
void goroutine_fields_json(JsonWriter& w, const Summary& s, const GoroutineSummary& g) {
  w.begin_object();
  w.field("id", g.id);
  w.field("name", g.name);
  w.field("pc", g.pc);
  w.field("creation", g.creation_time);
  w.field("start", g.start_time);
  w.field("end", g.end_time);
  w.key("stats");
  exec_stats_json(w, s, g.stats);
}

}  // namespace

void goroutine_row_json(JsonWriter& w, const Summary& s, const GoroutineSummary& g) {
  goroutine_fields_json(w, s, g);
  w.field("regions", static_cast<uint64_t>(g.regions.size()));
  w.end_object();
}

void goroutine_json(JsonWriter& w, const Summary& s, const GoroutineSummary& g) {
  goroutine_json(w, s, g, s.regions);
}

void goroutine_json(JsonWriter& w, const Summary& s, const GoroutineSummary& g, std::span<const RegionSummary> regions) {
  goroutine_fields_json(w, s, g);
  w.key("regions");
  if (g.regions.empty()) {
    w.null();
  } else {
    w.begin_array();
    for (uint32_t k : g.regions) region_json(w, s, regions[k]);
    w.end_array();
  }
  w.end_object();
}

void task_json(JsonWriter& w, const TaskSummary& t) {
  w.begin_object();
  w.field("id", t.id);
  w.field("name", t.name);
  w.field("parent", t.has_parent() ? t.parent : TaskID{0});
  w.field("start", t.start);
  w.field("end", t.end);
  w.field("complete", t.complete());
  w.field("logs", static_cast<uint64_t>(t.logs.size()));
  w.field("regions", static_cast<uint64_t>(t.regions.size()));
  w.key("goroutines");
  if (t.goroutines.empty()) {
    w.null();
  } else {
    w.begin_array();
    for (GoID id : t.goroutines) w.value(id);
    w.end_array();
  }
  w.end_object();
}

}  // namespace gotrace::analysis
