// The goroutine tables: the summary of each goroutine (goroutines), its block time by
// reason (goroutine_blocks), and the intervals its figures are summed from
// (g_transitions), all from summarize_intervals.
#include "analysis/sql/sql_builder.h"
#include "analysis/sql/sql_table_builders.h"
#include "analysis/transition.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis::detail {

SqlTable goroutines_table(const SqlSource& src) {
  const Summary& sum = src.summary;
  SqlTableBuilder b(*find_sql_table("goroutines"), src.trace_id);
  b.set_origin(time_origin(src.read.store));
  b.reserve(sum.goroutines.size());
  const size_t c_id = b.column("goroutine"), c_name = b.column("name"), c_pc = b.column("pc"),
               c_system = b.column("system"), c_creation = b.column("creation"), c_start = b.column("start"),
               c_end = b.column("end"), c_total = b.column("total"), c_exec = b.column("exec"),
               c_sched = b.column("sched_wait"), c_syscall = b.column("syscall"),
               c_syscall_block = b.column("syscall_block"), c_block = b.column("block"),
               c_unknown = b.column("unknown"), c_regions = b.column("regions");
  for (const GoroutineSummary& g : sum.goroutines) {
    b.big(c_id, g.id);
    b.text(c_name, g.name);
    b.big(c_pc, static_cast<int64_t>(g.pc));
    b.boolean(c_system, is_system_goroutine(g.name));
    b.time(c_creation, g.creation_time);
    // The summary's 0: never ran, did not end.
    if (g.start_time != 0) b.time(c_start, g.start_time);
    if (g.end_time != 0) b.time(c_end, g.end_time);
    b.big(c_total, g.stats.total);
    b.big(c_exec, g.stats.exec);
    b.big(c_sched, g.stats.sched_wait);
    b.big(c_syscall, g.stats.syscall);
    b.big(c_syscall_block, g.stats.syscall_block);
    b.big(c_block, g.stats.block_total());
    b.big(c_unknown, g.stats.unknown());
    b.integer(c_regions, static_cast<int32_t>(g.regions.size()));
    b.end_row();
  }
  return b.take();
}

SqlTable goroutine_blocks_table(const SqlSource& src) {
  const Summary& sum = src.summary;
  SqlTableBuilder b(*find_sql_table("goroutine_blocks"), src.trace_id);
  const size_t c_id = b.column("goroutine"), c_reason = b.column("reason"), c_duration = b.column("duration");
  for (const GoroutineSummary& g : sum.goroutines) {
    for (const StatEntry& e : g.stats.block) {
      b.big(c_id, g.id);
      b.text(c_reason, sum.block_reasons[e.name]);
      b.big(c_duration, e.ns);
      b.end_row();
    }
  }
  return b.take();
}

namespace {

std::string_view figure_name(GoFigure f) {
  switch (f) {
    case GoFigure::Exec: return "exec";
    case GoFigure::SchedWait: return "sched_wait";
    case GoFigure::Syscall: return "syscall";
    case GoFigure::SyscallBlock: return "syscall_block";
    case GoFigure::Block: return "block";
  }
  return "";
}

}  // namespace

SqlTable g_transitions_table(const SqlSource& src, size_t from, size_t to) {
  const EventStore& s = src.read.store;
  SqlTableBuilder b(*find_sql_table("g_transitions"), src.trace_id);
  b.set_origin(time_origin(s));
  b.reserve(to - from);
  const size_t c_id = b.column("goroutine"), c_from = b.column("from_state"), c_state = b.column("state"),
               c_to = b.column("to_state"), c_reason = b.column("reason"), c_start = b.column("start"),
               c_end = b.column("end"), c_duration = b.column("duration"), c_stack = b.column("stack_id"),
               c_start_event = b.column("start_event"), c_end_event = b.column("end_event"),
               c_counted = b.column("counted_as");
  auto transition = [&](uint64_t i) { return read_transition(s, static_cast<size_t>(i), s.type(static_cast<size_t>(i))); };
  for (size_t k = from; k < to; k++) {
    const GoInterval& iv = src.intervals[k];
    b.big(c_id, iv.goroutine);
    b.text(c_state, to_string(iv.state));
    if (iv.start_event != kNoEvent) {
      const StateTransition st = transition(iv.start_event);
      b.text(c_from, to_string(st.go_from()));
      // The stack it entered the state with (where it blocked, what created it...).
      if (st.has_stack && st.stack != 0) b.big(c_stack, st.stack);
      b.big(c_start_event, static_cast<int64_t>(iv.start_event));
    }
    if (iv.end_event != kNoEvent) {
      b.text(c_to, to_string(transition(iv.end_event).go_to()));
      b.big(c_end_event, static_cast<int64_t>(iv.end_event));
    }
    if (iv.figure == GoFigure::Block) b.text(c_reason, src.summary.block_reasons[iv.reason]);
    b.time(c_start, iv.start);
    b.time(c_end, iv.end);
    b.big(c_duration, wrap_sub(iv.end, iv.start));
    b.text(c_counted, figure_name(iv.figure));
    b.end_row();
  }
  return b.take();
}

}  // namespace gotrace::analysis::detail
