#include "gotrace/analysis/summary_json.h"
#include "gotrace/analysis/summary_pages.h"

namespace gotrace::analysis {

// A group's "name", "count", the sums of its goroutines' times and "stats".
static void group_fields_json(JsonWriter& w, const Summary& s, const GoroutineGroup& g) {
  w.field("name", g.name);
  w.field("count", static_cast<uint64_t>(g.count));
  w.field("exec", g.totals.exec);
  w.field("sched_wait", g.totals.sched_wait);
  w.field("syscall", g.totals.syscall);
  w.field("syscall_block", g.totals.syscall_block);
  w.field("block", g.totals.block_total());
  w.field("unknown", g.totals.unknown());
  w.field("total", g.totals.total);
  w.key("stats");
  exec_stats_json(w, s, g.totals);
}

void goroutine_group_json(JsonWriter& w, const Summary& s, const GoroutineGroup& g) {
  w.begin_object();
  group_fields_json(w, s, g);
  w.end_object();
}

void goroutines_json(JsonWriter& w, const Summary& s, const std::vector<GoroutineGroup>& groups) {
  w.begin_object();
  w.key("groups").begin_array();
  for (const GoroutineGroup& g : groups) {
    w.begin_object();
    group_fields_json(w, s, g);
    w.key("goroutines").begin_array();
    for (GoID id : g.goroutines) w.value(id);
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("goroutines").begin_array();
  for (const GoroutineSummary& g : s.goroutines) goroutine_json(w, s, g);
  w.end_array();
  w.end_object();
}

}  // namespace gotrace::analysis
