// The events table: every event of the store with its context and the arguments of its
// kind (Go's public event model, as `gotrace dump` prints it), one column per argument.
// The largest table by far (a 94 MB trace has 17M events), so it is written column by
// column into arrays sized once, with strings coded through small tables rather than
// hashed: a few times faster than a row at a time.
#include <array>
#include <string>

#include "analysis/sql/range_name_ids.h"
#include "analysis/sql/sql_builder.h"
#include "analysis/sql/sql_columns.h"
#include "analysis/sql/sql_table_builders.h"
#include "analysis/transition.h"
#include "gotrace/event_view.h"
#include "gotrace/v2_spec.h"

namespace gotrace::analysis::detail {

SqlTable events_table(const SqlSource& src, size_t from, size_t to) {
  const EventStore& s = src.read.store;
  const size_t n = to - from;
  SqlTable t = sized_table("events", src.trace_id, n);
  auto col = [&](std::string_view name) -> SqlColumn& { return column_of(t, name); };
  IntColumn event(col("event"), n, false), time(col("time"), n, false), thread(col("thread"), n, true),
      proc(col("proc"), n, true), goroutine(col("goroutine"), n, true), stack(col("stack_id"), n, true),
      resource_id(col("resource_id"), n, true), tstack(col("transition_stack_id"), n, true),
      value(col("value"), n, true), task(col("task"), n, true), parent(col("parent_task"), n, true);
  TextColumn kind(col("kind"), n), type_name(col("type"), n), resource(col("resource"), n),
      from_state(col("from_state"), n), to_state(col("to_state"), n), reason(col("reason"), n), name(col("name"), n),
      message(col("message"), n);
  col("kind").nulls.clear();  // every event has a kind and a type
  col("type").nulls.clear();

  // Codes of the small vocabularies, made on first use.
  std::array<int32_t, 256> kind_code, type_code;
  kind_code.fill(-1);
  type_code.fill(-1);
  std::array<int32_t, 4> resource_code;
  resource_code.fill(-1);
  std::array<std::array<int32_t, 8>, 4> from_code{}, to_code{};
  for (auto* a : {&from_code, &to_code})
    for (auto& r : *a) r.fill(-1);
  auto state_name = [](ResourceKind r, uint8_t st) {
    return r == ResourceKind::Proc ? to_string(static_cast<ProcState>(st)) : to_string(static_cast<GoState>(st));
  };
  auto set_resource = [&](size_t row, const ResourceID& r) {
    if (r.kind == ResourceKind::None) return;
    const auto k = static_cast<size_t>(r.kind) & 3;
    if (resource_code[k] < 0) resource_code[k] = resource.text(to_string(r.kind));
    resource.set(row, resource_code[k]);
    resource_id.set(row, r.id);
  };
  auto task_id = [](IntColumn& c, size_t row, TaskID id) {
    if (id != kNoTask) c.set(row, static_cast<int64_t>(id));
  };
  RangeNameIds range_names(s);
  std::vector<int32_t> range_code;  // the name column's code of each range name
  const Time origin = time_origin(s);
  s.for_each_chunk(from, to, [&](const EventStore::ChunkColumns& cc, size_t first, size_t end) {
    for (size_t i = first; i < end; i++) {
      const size_t row = i - from;
      const uint8_t type = cc.type(i);
      const EventKind k = kind_of_type(type);
      if (type_code[type] < 0) {
        type_code[type] = type_name.text(type == v2::EvSyncOut ? std::string("Sync") : v2::event_name(type));
        if (kind_code[static_cast<size_t>(k)] < 0) kind_code[static_cast<size_t>(k)] = kind.text(to_string(k));
      }
      type_name.set(row, type_code[type]);
      kind.set(row, kind_code[static_cast<size_t>(k)]);
      event.set(row, static_cast<int64_t>(i));
      time.set(row, wrap_sub(cc.time(i), origin));
      const Context ctx = cc.context(i);
      thread.id(row, ctx.m);
      proc.id(row, ctx.p);
      goroutine.id(row, ctx.g);
      if (const StackID st = cc.stack(i); st != 0) stack.set(row, st);
      switch (k) {
        case EventKind::StateTransition: {
          const StateTransition st = read_transition(s, cc, i, type);
          set_resource(row, st.resource);
          const auto r = static_cast<size_t>(st.resource.kind) & 3;
          int32_t& fc = from_code[r][st.old_state & 7];
          if (fc < 0) fc = from_state.text(state_name(st.resource.kind, st.old_state));
          from_state.set(row, fc);
          int32_t& tc = to_code[r][st.new_state & 7];
          if (tc < 0) tc = to_state.text(state_name(st.resource.kind, st.new_state));
          to_state.set(row, tc);
          if (!st.reason.empty()) reason.set(row, reason.stable(st.reason));
          if (st.has_stack) tstack.set(row, st.stack);
          break;
        }
        case EventKind::Metric: {
          const Metric m = EventView(s, i).metric();
          name.set(row, name.stable(m.name));
          value.set(row, static_cast<int64_t>(m.value));
          break;
        }
        case EventKind::Label: {
          const Label l = EventView(s, i).label();
          name.set(row, name.stable(l.label));
          set_resource(row, l.resource);
          break;
        }
        case EventKind::RangeBegin:
        case EventKind::RangeActive:
        case EventKind::RangeEnd: {
          const int32_t id = range_names.id(i);
          if (static_cast<size_t>(id) >= range_code.size()) range_code.resize(static_cast<size_t>(id) + 1, -1);
          if (range_code[static_cast<size_t>(id)] < 0) range_code[static_cast<size_t>(id)] = name.text(range_names.name(id));
          name.set(row, range_code[static_cast<size_t>(id)]);
          set_resource(row, EventView(s, i).range_scope());
          break;
        }
        case EventKind::TaskBegin:
        case EventKind::TaskEnd: {
          const Task tk = EventView(s, i).task();
          task_id(task, row, tk.id);
          task_id(parent, row, tk.parent);
          name.set(row, name.stable(tk.type));
          break;
        }
        case EventKind::RegionBegin:
        case EventKind::RegionEnd: {
          const Region r = EventView(s, i).region();
          task_id(task, row, r.task);
          name.set(row, name.stable(r.type));
          break;
        }
        case EventKind::Log: {
          const Log l = EventView(s, i).log();
          task_id(task, row, l.task);
          name.set(row, name.stable(l.category));
          message.set(row, message.stable(l.message));
          break;
        }
        case EventKind::Experimental: {
          const Experimental x = EventView(s, i).experimental();
          name.set(row, name.stable(x.name));
          std::string args;
          for (size_t a = 0; a < x.args.size(); a++) {
            if (a) args += ' ';
            if (a < x.arg_names.size()) args.append(x.arg_names[a]).append("=");
            args += std::to_string(x.args[a]);
          }
          message.set(row, message.text(args));
          break;
        }
        default:
          break;
      }
    }
  });
  drop_empty_null_masks(t);
  return t;
}

}  // namespace gotrace::analysis::detail
