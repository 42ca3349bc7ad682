#include "gotrace/analysis/analysis_json.h"

namespace gotrace::analysis {

void goroutines_json(JsonWriter& w, const Summary& s, const std::vector<GoroutineGroup>& groups) {
  w.begin_object();
  w.key("groups").begin_array();
  for (const GoroutineGroup& g : groups) {
    w.begin_object();
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
