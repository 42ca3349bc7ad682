// The tables of single events: metrics (heap, heap goal, GOMAXPROCS), CPU samples and
// goroutine labels.
#include "analysis/sql/sql_builder.h"
#include "analysis/sql/sql_table_builders.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis::detail {

SqlTable metrics_table(const SqlSource& src) {
  const EventStore& s = src.read.store;
  SqlTableBuilder b(*find_sql_table("metrics"), src.trace_id);
  b.set_origin(time_origin(s));
  const size_t c_event = b.column("event"), c_time = b.column("time"), c_name = b.column("name"),
               c_value = b.column("value");
  for_each_of_kind(s, EventKind::Metric, [&](size_t i) {
    const EventView e(s, i);
    const Metric m = e.metric();
    b.big(c_event, static_cast<int64_t>(i));
    b.time(c_time, e.time());
    b.text(c_name, m.name);
    b.big(c_value, static_cast<int64_t>(m.value));
    b.end_row();
  });
  return b.take();
}

SqlTable cpu_samples_table(const SqlSource& src) {
  const EventStore& s = src.read.store;
  SqlTableBuilder b(*find_sql_table("cpu_samples"), src.trace_id);
  b.set_origin(time_origin(s));
  const size_t c_event = b.column("event"), c_time = b.column("time"), c_thread = b.column("thread"),
               c_proc = b.column("proc"), c_goroutine = b.column("goroutine"), c_stack = b.column("stack_id");
  for_each_of_kind(s, EventKind::StackSample, [&](size_t i) {
    const EventView e(s, i);
    b.big(c_event, static_cast<int64_t>(i));
    b.time(c_time, e.time());
    if (e.thread() >= 0) b.big(c_thread, e.thread());
    if (e.proc() >= 0) b.big(c_proc, e.proc());
    if (e.goroutine() >= 0) b.big(c_goroutine, e.goroutine());
    if (e.stack() != 0) b.big(c_stack, e.stack());
    b.end_row();
  });
  return b.take();
}

SqlTable labels_table(const SqlSource& src) {
  const EventStore& s = src.read.store;
  SqlTableBuilder b(*find_sql_table("labels"), src.trace_id);
  b.set_origin(time_origin(s));
  const size_t c_event = b.column("event"), c_time = b.column("time"), c_goroutine = b.column("goroutine"),
               c_resource = b.column("resource"), c_resource_id = b.column("resource_id"), c_label = b.column("label");
  for_each_of_kind(s, EventKind::Label, [&](size_t i) {
    const EventView e(s, i);
    const Label l = e.label();
    b.big(c_event, static_cast<int64_t>(i));
    b.time(c_time, e.time());
    if (e.goroutine() >= 0) b.big(c_goroutine, e.goroutine());
    b.text(c_resource, to_string(l.resource.kind));
    b.big(c_resource_id, l.resource.id);
    b.text(c_label, l.label);
    b.end_row();
  });
  return b.take();
}

}  // namespace gotrace::analysis::detail
