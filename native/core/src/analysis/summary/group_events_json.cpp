#include "gotrace/analysis/group_events.h"

namespace gotrace::analysis {

void group_events_json(JsonWriter& w, const GroupEventCounts& counts) {
  w.begin_object();
  w.key("groups").begin_array();
  for (const GroupEvents& g : counts.groups) {
    w.begin_object();
    w.field("name", g.name);
    w.field("goroutines", static_cast<uint64_t>(g.goroutines));
    w.field("events", g.events);
    w.key("by_kind").begin_object();
    for (size_t k = 0; k < kEventKinds; k++)
      if (g.by_kind[k]) w.field(to_string(static_cast<EventKind>(k)), g.by_kind[k]);
    w.end_object();
    w.end_object();
  }
  w.end_array();
  w.field("without_goroutine", counts.without_goroutine);
  w.end_object();
}

}  // namespace gotrace::analysis
