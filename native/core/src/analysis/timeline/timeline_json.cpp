#include "gotrace/analysis/timeline_json.h"

namespace gotrace::analysis {
namespace {

template <class T>
void array(JsonWriter& w, std::string_view key, const std::vector<T>& values) {
  w.key(key).begin_array();
  for (const T& v : values) {
    if constexpr (std::is_signed_v<T>) w.value(static_cast<int64_t>(v));
    else w.value(static_cast<uint64_t>(v));
  }
  w.end_array();
}

template <class T, class F>
void mapped(JsonWriter& w, std::string_view key, const std::vector<T>& values, F&& f) {
  w.key(key).begin_array();
  for (const T& v : values) w.value(f(v));
  w.end_array();
}

}  // namespace

void slices_json(JsonWriter& w, const EventStore& store, TrackKind kind, const SliceRects& r) {
  w.begin_object();
  array(w, "start", r.start);
  array(w, "end", r.end);
  mapped(w, "state", r.state, [](SliceState s) { return to_string(s); });
  array(w, "count", r.count);
  array(w, "detail", r.detail);
  if (kind == TrackKind::Goroutine || kind == TrackKind::STW)
    mapped(w, "detail_text", r.detail, [&](int64_t id) { return store.strings.get(static_cast<StringID>(id)); });
  w.key("time_in").begin_object();
  for (size_t s = 0; s < kSliceStates; s++) array(w, to_string(static_cast<SliceState>(s)), r.time_in[s]);
  w.end_object();
  w.end_object();
}

void spans_json(JsonWriter& w, const EventStore& store, const SpanRects& r) {
  w.begin_object();
  array(w, "start", r.start);
  array(w, "end", r.end);
  array(w, "row", r.row);
  array(w, "count", r.count);
  array(w, "task", r.task);
  mapped(w, "name", r.name, [&](StringID id) { return store.strings.get(id); });
  w.end_object();
}

void instants_json(JsonWriter& w, const InstantMarks& r) {
  w.begin_object();
  array(w, "time", r.time);
  array(w, "resource", r.resource);
  array(w, "count", r.count);
  array(w, "event", r.event);
  w.end_object();
}

void wake_edges_json(JsonWriter& w, const EventStore& store, const WakeEdges& r) {
  w.begin_object();
  w.field("sampled", r.sampled);
  array(w, "from_time", r.from_time);
  array(w, "to_time", r.to_time);
  mapped(w, "kind", r.kind, [](WakeKind k) { return to_string(k); });
  array(w, "goroutine", r.goroutine);
  array(w, "from_goroutine", r.from_goroutine);
  array(w, "from_proc", r.from_proc);
  array(w, "from_thread", r.from_thread);
  array(w, "to_proc", r.to_proc);
  array(w, "to_thread", r.to_thread);
  mapped(w, "reason", r.reason, [&](StringID id) { return store.strings.get(id); });
  w.end_object();
}

void series_json(JsonWriter& w, const SeriesPoints& r) {
  w.begin_object();
  w.field("exact", r.exact);
  array(w, "time", r.time);
  array(w, "value", r.value);
  array(w, "min", r.min);
  array(w, "max", r.max);
  w.end_object();
}

void wake_counts_json(JsonWriter& w, const WakeCounts& c, bool sampled) {
  auto list = [&](const char* key, const std::vector<WakeCount>& l) {
    w.key(key).begin_array();
    for (const WakeCount& e : l) {
      w.begin_object();
      w.field("goroutine", e.goroutine);
      w.field("count", static_cast<int64_t>(e.count));
      w.field("first", e.first);
      w.end_object();
    }
    w.end_array();
  };
  w.begin_object();
  list("wokenBy", c.woken_by);
  list("woke", c.woke);
  w.field("sampled", sampled);
  w.end_object();
}

}  // namespace gotrace::analysis
