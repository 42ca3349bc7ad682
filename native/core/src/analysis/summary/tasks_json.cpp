#include "gotrace/analysis/summary_json.h"
#include "gotrace/analysis/summary_pages.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis {

void task_types_json(JsonWriter& w, const std::vector<TaskTypeStats>& types) {
  w.begin_array();
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
}

std::string task_types_document(const std::vector<TaskTypeStats>& types, bool pretty) {
  return json_of(pretty, [&](JsonWriter& w) {
    w.begin_object();
    w.key("types");
    task_types_json(w, types);
    w.end_object();
  });
}

void tasks_json(JsonWriter& w, const EventStore& store, const Summary& s, const std::vector<TaskTypeStats>& types) {
  tasks_json(w, StoreEvents(store), s, types);
}

void tasks_json(JsonWriter& w, const SummaryEvents& events, const Summary& s, const std::vector<TaskTypeStats>& types) {
  w.begin_object();
  w.key("types");
  task_types_json(w, types);
  w.key("tasks").begin_array();
  for (const TaskSummary& t : s.tasks) task_entry_json(w, events, s, t);  // the same entry as a task's page
  w.end_array();
  w.end_object();
}

}  // namespace gotrace::analysis
