#include <algorithm>
#include <string>

#include "gotrace/analysis/summary_json.h"
#include "gotrace/analysis/go_duration.h"

namespace gotrace::analysis {

void report_json(JsonWriter& w, const Report& r) {
  const Summary& s = r.summary;
  w.begin_object();
  w.field("error", r.error);
  w.field("events", r.events);
  w.key("goroutines");
  if (r.goroutine_count() == 0) {
    w.null();
  } else if (r.archived) {
    w.begin_array();
    GoroutineSummary g;  // each read back in turn
    std::vector<RegionSummary> regions;
    for (size_t k = 0; k < r.archived->goroutines.size(); k++) {
      r.archived->goroutine(k, g, regions);
      goroutine_json(w, s, g, regions);
    }
    w.end_array();
  } else {
    w.begin_array();
    for (const GoroutineSummary& g : s.goroutines) goroutine_json(w, s, g);
    w.end_array();
  }
  // Keys sorted as Go's encoding/json sorts a map's (bytewise: "100ms" < "100µs").
  std::vector<std::pair<std::string, const MmuValues*>> sets;
  for (const MmuValues& v : r.mmu) sets.push_back({util_flags_name(v.flags), &v});
  std::sort(sets.begin(), sets.end(), [](auto& a, auto& b) { return a.first < b.first; });
  w.key("mmu").begin_object();
  for (auto& [name, v] : sets) {
    std::vector<std::pair<std::string, double>> values;
    for (auto& [window, mmu] : v->by_window) values.push_back({go_duration_string(window), mmu});
    std::sort(values.begin(), values.end(), [](auto& a, auto& b) { return a.first < b.first; });
    w.key(name).begin_object();
    for (auto& [label, mmu] : values) w.field(label, mmu);
    w.end_object();
  }
  w.end_object();
  w.key("tasks");
  if (r.task_count() == 0) {
    w.null();
  } else if (r.archived) {
    w.begin_array();
    TaskSummary t;
    for (size_t k = 0; k < r.archived->tasks.size(); k++) {
      r.archived->task(k, t);
      task_json(w, t);
    }
    w.end_array();
  } else {
    w.begin_array();
    for (const TaskSummary& t : s.tasks) task_json(w, t);
    w.end_array();
  }
  w.end_object();
}

}  // namespace gotrace::analysis
