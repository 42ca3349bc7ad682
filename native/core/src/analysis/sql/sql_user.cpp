// The user annotation tables: tasks and regions as the summary has them (`gotrace tasks
// --json`, `gotrace regions --json`), and every log.
#include "analysis/sql/sql_builder.h"
#include "analysis/sql/sql_columns.h"
#include "analysis/sql/sql_table_builders.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis::detail {

SqlTable tasks_table(const SqlSource& src) {
  SqlTableBuilder b(*find_sql_table("tasks"), src.trace_id);
  b.set_origin(time_origin(src.read.store));
  const size_t c_task = b.column("task"), c_name = b.column("name"), c_parent = b.column("parent"),
               c_start = b.column("start"), c_end = b.column("end"), c_duration = b.column("duration"),
               c_complete = b.column("complete"), c_goroutines = b.column("goroutines"),
               c_regions = b.column("regions"), c_logs = b.column("logs");
  for (const TaskSummary& t : src.summary.tasks) {
    b.big(c_task, static_cast<int64_t>(t.id));
    b.text(c_name, t.name);
    if (t.has_parent()) b.big(c_parent, static_cast<int64_t>(t.parent));
    if (t.start_event != kNoEvent) b.time(c_start, t.start);
    if (t.end_event != kNoEvent) b.time(c_end, t.end);
    if (t.complete()) b.big(c_duration, wrap_sub(t.end, t.start));
    b.boolean(c_complete, t.complete());
    b.integer(c_goroutines, static_cast<int32_t>(t.goroutines.size()));
    b.integer(c_regions, static_cast<int32_t>(t.regions.size()));
    b.integer(c_logs, static_cast<int32_t>(t.logs.size()));
    b.end_row();
  }
  return b.take();
}

SqlTable regions_table(const SqlSource& src) {
  const Summary& sum = src.summary;
  SqlTableBuilder b(*find_sql_table("regions"), src.trace_id);
  b.set_origin(time_origin(src.read.store));
  const size_t c_region = b.column("region"), c_goroutine = b.column("goroutine"), c_task = b.column("task"),
               c_name = b.column("name"), c_start = b.column("start"), c_end = b.column("end"),
               c_duration = b.column("duration"), c_exec = b.column("exec"), c_sched = b.column("sched_wait"),
               c_syscall = b.column("syscall"), c_syscall_block = b.column("syscall_block"),
               c_block = b.column("block"), c_unknown = b.column("unknown");
  // In the order `gotrace regions --json` lists them: by goroutine, then start.
  for (const GoroutineSummary& g : sum.goroutines) {
    for (uint32_t k : g.regions) {
      const RegionSummary& r = sum.regions[k];
      b.big(c_region, k);
      b.big(c_goroutine, r.goroutine);
      b.big(c_task, static_cast<int64_t>(r.task));
      b.text(c_name, r.name);
      if (r.has_start()) b.time(c_start, r.start);
      if (r.has_end()) b.time(c_end, r.end);
      b.big(c_duration, region_interval(sum, r).duration());
      b.big(c_exec, r.stats.exec);
      b.big(c_sched, r.stats.sched_wait);
      b.big(c_syscall, r.stats.syscall);
      b.big(c_syscall_block, r.stats.syscall_block);
      b.big(c_block, r.stats.block_total());
      b.big(c_unknown, r.stats.unknown());
      b.end_row();
    }
  }
  return b.take();
}

SqlTable logs_table(const SqlSource& src) {
  const EventStore& s = src.read.store;
  const std::vector<size_t>& events = kind_events(src).logs;
  const size_t n = events.size();
  SqlTable t = single_events_table(src, "logs", events);
  IntColumn goroutine(column_of(t, "goroutine"), n, true), task(column_of(t, "task"), n, true),
      stack(column_of(t, "stack_id"), n, true);
  TextColumn category(column_of(t, "category"), n), message(column_of(t, "message"), n);
  for (size_t row = 0; row < n; row++) {
    const EventView e(s, events[row]);
    const Log l = e.log();
    goroutine.id(row, e.goroutine());
    if (l.task != kNoTask) task.set(row, static_cast<int64_t>(l.task));
    category.set(row, category.interned(l.category_id, l.category));
    message.set(row, message.interned(l.message_id, l.message));
    if (e.stack() != 0) stack.set(row, e.stack());
  }
  drop_empty_null_masks(t);
  return t;
}

}  // namespace gotrace::analysis::detail
