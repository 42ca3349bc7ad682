#include <algorithm>
#include <set>
#include <string>

#include "gotrace/analysis/critical_path_json.h"
#include "gotrace/analysis/histogram.h"

namespace gotrace::analysis {

namespace {

void totals_json(JsonWriter& w, const std::vector<PathTotal>& totals, int64_t whole, bool goroutines, size_t limit) {
  w.begin_array();
  for (size_t k = 0; k < totals.size() && k < limit; k++) {
    const PathTotal& t = totals[k];
    w.begin_object();
    w.field("key", std::string_view(t.key));
    if (goroutines) w.field("goroutine", static_cast<int64_t>(t.goroutine));
    w.field("ns", t.ns);
    w.field("share", whole > 0 ? static_cast<double>(t.ns) / static_cast<double>(whole) : 0.0);
    w.end_object();
  }
  w.end_array();
}

}  // namespace

void critical_path_json(JsonWriter& w, const EventStore& store, const Summary& s, const CriticalPath& path) {
  const int64_t whole = path.to - path.from;
  w.begin_object();
  w.field("goroutine", static_cast<int64_t>(path.goroutine));
  w.field("from", static_cast<int64_t>(path.from));
  w.field("to", static_cast<int64_t>(path.to));
  w.field("duration", whole);
  w.field("handoffs", static_cast<uint64_t>(path.handoffs));
  std::set<StackID> stacks;
  w.key("segments").begin_array();
  for (const PathSegment& seg : path.segments) {
    w.begin_object();
    w.field("goroutine", static_cast<int64_t>(seg.goroutine));
    w.field("state", path_state_name(seg.state));
    w.key("reason");
    if (seg.reason.empty()) w.null(); else w.value(seg.reason);
    w.field("start", static_cast<int64_t>(seg.start));
    w.field("end", static_cast<int64_t>(seg.end));
    w.field("stack", static_cast<uint64_t>(seg.stack));
    w.field("function", path_function(store, seg.stack));
    w.end_object();
    if (seg.stack) stacks.insert(seg.stack);
  }
  w.end_array();
  const PathTotals totals = path_totals(store, s, path);
  w.key("by_category");
  totals_json(w, totals.by_category, whole, false, totals.by_category.size());
  w.key("by_goroutine");
  totals_json(w, totals.by_goroutine, whole, true, totals.by_goroutine.size());
  w.key("by_function");
  totals_json(w, totals.by_function, whole, false, totals.by_function.size());
  w.key("stacks").begin_object();
  for (StackID id : stacks) {
    w.key(std::to_string(id)).begin_array();
    for (FrameID f : store.stacks.frames(id)) {
      const Frame& frame = store.stacks.frame(f);
      w.begin_object();
      w.field("func", store.strings.get(frame.func));
      w.field("file", store.strings.get(frame.file));
      w.field("line", frame.line);
      w.end_object();
    }
    w.end_array();
  }
  w.end_object();
  w.end_object();
}

void path_aggregate_json(JsonWriter& w, const PathAggregate& a) {
  w.begin_object();
  w.field("kind", std::string_view(a.kind));
  w.field("name", std::string_view(a.name));
  if (a.pc) w.field("pc", *a.pc);
  w.field("instances", static_cast<uint64_t>(a.instances));
  const DurationQuantiles q = duration_quantiles(a.durations);
  w.key("durations").begin_object();
  w.field("min", q.min);
  w.field("p50", q.p50);
  w.field("p90", q.p90);
  w.field("p99", q.p99);
  w.field("max", q.max);
  w.field("total", a.total_ns);
  w.end_object();
  w.key("by_category");
  totals_json(w, a.by_category, a.total_ns, false, a.by_category.size());
  w.key("by_function");
  totals_json(w, a.by_function, a.total_ns, false, 50);
  w.end_object();
}

}  // namespace gotrace::analysis
