// The tables of single events: metrics (heap, heap goal, GOMAXPROCS), CPU samples and
// goroutine labels. A row per event of the kind (SqlKindEvents), written column by
// column: a trace has millions of metrics.
#include "analysis/sql/sql_builder.h"
#include "analysis/sql/sql_columns.h"
#include "analysis/sql/sql_table_builders.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis::detail {

SqlTable single_events_table(const SqlSource& src, std::string_view name, const std::vector<size_t>& events) {
  const EventStore& s = src.read.store;
  const size_t n = events.size();
  SqlTable t = sized_table(name, src.trace_id, n);
  IntColumn event(column_of(t, "event"), n, false), time(column_of(t, "time"), n, false);
  const Time origin = time_origin(s);
  for (size_t row = 0; row < n; row++) {
    event.set(row, static_cast<int64_t>(events[row]));
    time.set(row, wrap_sub(s.time(events[row]), origin));
  }
  return t;
}

SqlTable metrics_table(const SqlSource& src) {
  const EventStore& s = src.read.store;
  const std::vector<size_t>& events = kind_events(src).metrics;
  const size_t n = events.size();
  SqlTable t = single_events_table(src, "metrics", events);
  TextColumn name(column_of(t, "name"), n);
  IntColumn value(column_of(t, "value"), n, false);
  for (size_t row = 0; row < n; row++) {
    const Metric m = EventView(s, events[row]).metric();
    name.set(row, name.stable(m.name));
    value.set(row, static_cast<int64_t>(m.value));
  }
  drop_empty_null_masks(t);
  return t;
}

SqlTable cpu_samples_table(const SqlSource& src) {
  const EventStore& s = src.read.store;
  const std::vector<size_t>& events = kind_events(src).samples;
  const size_t n = events.size();
  SqlTable t = single_events_table(src, "cpu_samples", events);
  IntColumn thread(column_of(t, "thread"), n, true), proc(column_of(t, "proc"), n, true),
      goroutine(column_of(t, "goroutine"), n, true), stack(column_of(t, "stack_id"), n, true);
  for (size_t row = 0; row < n; row++) {
    const EventView e(s, events[row]);
    const Context ctx = s.context(events[row]);
    thread.id(row, ctx.m);
    proc.id(row, ctx.p);
    goroutine.id(row, ctx.g);
    if (e.stack() != 0) stack.set(row, e.stack());
  }
  drop_empty_null_masks(t);
  return t;
}

SqlTable labels_table(const SqlSource& src) {
  const EventStore& s = src.read.store;
  const std::vector<size_t>& events = kind_events(src).labels;
  const size_t n = events.size();
  SqlTable t = single_events_table(src, "labels", events);
  IntColumn goroutine(column_of(t, "goroutine"), n, true), resource_id(column_of(t, "resource_id"), n, false);
  TextColumn resource(column_of(t, "resource"), n), label(column_of(t, "label"), n);
  for (size_t row = 0; row < n; row++) {
    const EventView e(s, events[row]);
    const Label l = e.label();
    goroutine.id(row, e.goroutine());
    resource.set(row, resource.stable(to_string(l.resource.kind)));
    resource_id.set(row, l.resource.id);
    label.set(row, label.stable(l.label));
  }
  drop_empty_null_masks(t);
  return t;
}

}  // namespace gotrace::analysis::detail
