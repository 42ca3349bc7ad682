#include "gotrace/analysis/summary_json.h"

namespace gotrace::analysis {

void region_types_json(JsonWriter& w, const std::vector<RegionTypeStats>& types) {
  w.begin_array();
  for (const RegionTypeStats& t : types) {
    w.begin_object();
    w.field("name", t.name);
    w.field("pc", t.pc);
    w.field("func", t.func);
    w.field("file", t.file);
    w.field("line", t.line);
    w.field("count", static_cast<uint64_t>(t.count));
    w.key("durations");
    duration_distribution_json(w, t.durations);
    w.end_object();
  }
  w.end_array();
}

std::string region_types_document(const std::vector<RegionTypeStats>& types, bool pretty) {
  return json_of(pretty, [&](JsonWriter& w) {
    w.begin_object();
    w.key("types");
    region_types_json(w, types);
    w.end_object();
  });
}

void regions_json(JsonWriter& w, const Summary& s, const std::vector<RegionTypeStats>& types) {
  w.begin_object();
  w.key("types");
  region_types_json(w, types);
  w.key("regions").begin_array();
  for (const GoroutineSummary& g : s.goroutines) {
    for (uint32_t k : g.regions) {
      const RegionSummary& r = s.regions[k];
      w.begin_object();
      w.field("goroutine", r.goroutine);
      w.field("task", r.task);
      w.field("name", r.name);
      w.key("start");
      if (r.has_start()) {
        w.value(r.start);
      } else {
        w.null();
      }
      w.key("end");
      if (r.has_end()) {
        w.value(r.end);
      } else {
        w.null();
      }
      w.field("duration", region_interval(s, r).duration());
      w.key("stats");
      exec_stats_json(w, s, r.stats);
      w.end_object();
    }
  }
  w.end_array();
  w.end_object();
}

}  // namespace gotrace::analysis
