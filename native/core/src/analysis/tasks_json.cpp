#include "gotrace/analysis/analysis_json.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis {
namespace {

void time_or_null(JsonWriter& w, const char* key, bool present, Time t) {
  w.key(key);
  if (present) {
    w.value(t);
  } else {
    w.null();
  }
}

}  // namespace

void tasks_json(JsonWriter& w, const EventStore& store, const Summary& s, const std::vector<TaskTypeStats>& types) {
  w.begin_object();
  w.key("types").begin_array();
  for (const TaskTypeStats& t : types) {
    w.begin_object();
    w.field("name", t.name);
    w.field("count", static_cast<uint64_t>(t.count));
    w.field("complete", static_cast<uint64_t>(t.complete));
    w.key("durations");
    duration_distribution_json(w, t.durations);
    w.end_object();
  }
  w.end_array();
  w.key("tasks").begin_array();
  for (const TaskSummary& t : s.tasks) {
    w.begin_object();
    w.field("id", t.id);
    w.field("name", t.name);
    w.key("parent");
    if (t.has_parent()) {
      w.value(t.parent);
    } else {
      w.null();
    }
    w.key("children").begin_array();
    for (TaskID c : t.children) w.value(c);
    w.end_array();
    time_or_null(w, "start", t.start_event != kNoEvent, t.start);
    time_or_null(w, "end", t.end_event != kNoEvent, t.end);
    w.field("complete", t.complete());
    w.key("duration");
    if (t.complete()) {
      w.value(t.end - t.start);
    } else {
      w.null();
    }
    w.key("goroutines").begin_array();
    for (GoID g : t.goroutines) w.value(g);
    w.end_array();
    w.key("logs").begin_array();
    for (uint64_t i : t.logs) {
      EventView ev(store, i);
      Log l = ev.log();
      w.begin_object();
      w.field("time", ev.time());
      w.field("goroutine", ev.goroutine());
      w.field("category", l.category);
      w.field("message", l.message);
      w.end_object();
    }
    w.end_array();
    w.key("regions").begin_array();
    for (uint32_t k : t.regions) {
      const RegionSummary& r = s.regions[k];
      w.begin_object();
      w.field("goroutine", r.goroutine);
      w.field("name", r.name);
      time_or_null(w, "start", r.has_start(), r.start);
      time_or_null(w, "end", r.has_end(), r.end);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace gotrace::analysis
