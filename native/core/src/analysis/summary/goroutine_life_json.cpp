#include "gotrace/analysis/goroutine_life.h"
#include "gotrace/analysis/summary_json.h"

namespace gotrace::analysis {

void goroutine_life_json(JsonWriter& w, const GoroutineLife& life) {
  const GoroutineSummary* g = life.goroutine();
  if (!g) {
    w.null();
    return;
  }
  w.begin_object();
  w.key("goroutine");
  goroutine_json(w, life.summary, *g);
  w.field("group", g->name);
  w.key("generations");
  w.begin_array();
  w.value(static_cast<uint64_t>(life.generations.first));
  w.value(static_cast<uint64_t>(life.generations.last));
  w.end_array();
  w.end_object();
}

}  // namespace gotrace::analysis
