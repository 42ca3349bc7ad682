// The events table: every event of the store with its context and the arguments of its
// kind (Go's public event model, as `gotrace dump` prints it), one column per argument.
#include <string>

#include "analysis/sql/sql_builder.h"
#include "analysis/sql/sql_table_builders.h"
#include "analysis/transition.h"
#include "gotrace/event_view.h"
#include "gotrace/v2_spec.h"

namespace gotrace::analysis::detail {

namespace {

std::string_view state_name(ResourceKind r, uint8_t s) {
  return r == ResourceKind::Proc ? to_string(static_cast<ProcState>(s)) : to_string(static_cast<GoState>(s));
}

}  // namespace

SqlTable events_table(const SqlSource& src, size_t from, size_t to) {
  const EventStore& s = src.read.store;
  SqlTableBuilder b(*find_sql_table("events"), src.trace_id);
  b.set_origin(time_origin(s));
  b.reserve(to - from);
  const size_t c_event = b.column("event"), c_time = b.column("time"), c_kind = b.column("kind"),
               c_type = b.column("type"), c_thread = b.column("thread"), c_proc = b.column("proc"),
               c_goroutine = b.column("goroutine"), c_stack = b.column("stack_id"), c_resource = b.column("resource"),
               c_resource_id = b.column("resource_id"), c_from = b.column("from_state"), c_to = b.column("to_state"),
               c_reason = b.column("reason"), c_tstack = b.column("transition_stack_id"), c_name = b.column("name"),
               c_value = b.column("value"), c_task = b.column("task"), c_parent = b.column("parent_task"),
               c_message = b.column("message");
  // Names of types and kinds, looked up once.
  std::array<std::string, 256> type_names;
  for (int t = 0; t < 256; t++)
    type_names[t] = t == v2::EvSyncOut ? std::string("Sync") : v2::event_name(static_cast<uint8_t>(t));
  auto id_or_null = [&](size_t k, int64_t v) {
    if (v >= 0) b.big(k, v);
  };
  auto resource = [&](const ResourceID& r) {
    if (r.kind == ResourceKind::None) return;
    b.text(c_resource, to_string(r.kind));
    b.big(c_resource_id, r.id);
  };
  auto task_id = [&](size_t k, TaskID t) {
    if (t != kNoTask) b.big(k, static_cast<int64_t>(t));
  };
  s.for_each_chunk(from, to, [&](const EventStore::ChunkColumns& col, size_t first, size_t end) {
    for (size_t i = first; i < end; i++) {
      const uint8_t type = col.type(i);
      const EventKind kind = kind_of_type(type);
      const Context ctx = col.context(i);
      b.big(c_event, static_cast<int64_t>(i));
      b.time(c_time, col.time(i));
      b.text(c_kind, to_string(kind));
      b.text(c_type, type_names[type]);
      id_or_null(c_thread, ctx.m);
      id_or_null(c_proc, ctx.p);
      id_or_null(c_goroutine, ctx.g);
      if (const StackID st = col.stack(i); st != 0) b.big(c_stack, st);
      switch (kind) {
        case EventKind::StateTransition: {
          const StateTransition st = read_transition(s, col, i, type);
          resource(st.resource);
          b.text(c_from, state_name(st.resource.kind, st.old_state));
          b.text(c_to, state_name(st.resource.kind, st.new_state));
          if (!st.reason.empty()) b.text(c_reason, st.reason);
          if (st.has_stack) b.big(c_tstack, st.stack);
          break;
        }
        case EventKind::Metric: {
          const Metric m = EventView(s, i).metric();
          b.text(c_name, m.name);
          b.big(c_value, static_cast<int64_t>(m.value));
          break;
        }
        case EventKind::Label: {
          const Label l = EventView(s, i).label();
          b.text(c_name, l.label);
          resource(l.resource);
          break;
        }
        case EventKind::RangeBegin:
        case EventKind::RangeActive:
        case EventKind::RangeEnd: {
          const Range r = EventView(s, i).range();
          b.text(c_name, r.name);
          resource(r.scope);
          break;
        }
        case EventKind::TaskBegin:
        case EventKind::TaskEnd: {
          const Task t = EventView(s, i).task();
          task_id(c_task, t.id);
          task_id(c_parent, t.parent);
          b.text(c_name, t.type);
          break;
        }
        case EventKind::RegionBegin:
        case EventKind::RegionEnd: {
          const Region r = EventView(s, i).region();
          task_id(c_task, r.task);
          b.text(c_name, r.type);
          break;
        }
        case EventKind::Log: {
          const Log l = EventView(s, i).log();
          task_id(c_task, l.task);
          b.text(c_name, l.category);
          b.text(c_message, l.message);
          break;
        }
        case EventKind::Experimental: {
          const Experimental x = EventView(s, i).experimental();
          b.text(c_name, x.name);
          std::string args;
          for (size_t k = 0; k < x.args.size(); k++) {
            if (k) args += ' ';
            if (k < x.arg_names.size()) args.append(x.arg_names[k]).append("=");
            args += std::to_string(x.args[k]);
          }
          b.text(c_message, args);
          break;
        }
        default:
          break;
      }
      b.end_row();
    }
  });
  return b.take();
}

}  // namespace gotrace::analysis::detail
