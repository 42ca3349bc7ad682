// The goroutine tables: the summary of each goroutine (goroutines), its block time by
// reason (goroutine_blocks), and the intervals its figures are summed from
// (g_transitions), all from summarize_intervals.
#include <algorithm>
#include <array>

#include "analysis/sql/sql_builder.h"
#include "analysis/sql/sql_columns.h"
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

// Written column by column (11 M rows on the 94 MB trace): the states, figures and
// reasons are small enums, coded once each.
SqlTable g_transitions_table(const SqlSource& src, size_t from, size_t to) {
  return g_transitions_rows(src.read.store, src.trace_id, src.summary.block_reasons,
                            std::span(src.intervals).subspan(from, to - from));
}

SqlTable g_transitions_rows(const EventStore& s, int64_t trace_id, std::span<const std::string_view> block_reasons,
                            std::span<const GoInterval> intervals) {
  const size_t n = intervals.size();
  SqlTable t = sized_table("g_transitions", trace_id, n);
  auto col = [&](std::string_view name) -> SqlColumn& { return column_of(t, name); };
  IntColumn goroutine(col("goroutine"), n, false), start(col("start"), n, false), end(col("end"), n, false),
      duration(col("duration"), n, false), stack(col("stack_id"), n, true), start_event(col("start_event"), n, true),
      end_event(col("end_event"), n, true);
  TextColumn from_state(col("from_state"), n), state(col("state"), n), to_state(col("to_state"), n),
      reason(col("reason"), n), counted(col("counted_as"), n);
  constexpr size_t kStates = static_cast<size_t>(GoState::Syscall) + 1;
  std::array<int32_t, kStates> from_code, state_code, to_code;
  std::array<int32_t, 5> figure_code;
  for (auto* a : {&from_code, &state_code, &to_code}) a->fill(-1);
  figure_code.fill(-1);
  std::vector<int32_t> reason_code(block_reasons.size(), -1);
  auto coded = [](TextColumn& c, int32_t& code, std::string_view text) {
    if (code < 0) code = c.text(text);
    return code;
  };
  auto state_index = [](GoState g) { return std::min(static_cast<size_t>(g), kStates - 1); };
  const Time origin = time_origin(s);
  for (size_t row = 0; row < n; row++) {
    const GoInterval& iv = intervals[row];
    goroutine.set(row, iv.goroutine);
    state.set(row, coded(state, state_code[state_index(iv.state)], to_string(iv.state)));
    if (iv.start_event != kNoEvent) {
      const auto i = static_cast<size_t>(iv.start_event);
      const StateTransition st = read_transition(s, i, s.type(i));
      const GoState g = st.go_from();
      from_state.set(row, coded(from_state, from_code[state_index(g)], to_string(g)));
      // The stack it entered the state with (where it blocked, what created it...).
      if (st.has_stack && st.stack != 0) stack.set(row, st.stack);
      start_event.set(row, static_cast<int64_t>(i));
    }
    if (iv.end_event != kNoEvent) {
      const auto i = static_cast<size_t>(iv.end_event);
      const GoState g = read_transition(s, i, s.type(i)).go_to();
      to_state.set(row, coded(to_state, to_code[state_index(g)], to_string(g)));
      end_event.set(row, static_cast<int64_t>(i));
    }
    if (iv.figure == GoFigure::Block)
      reason.set(row, coded(reason, reason_code[iv.reason], block_reasons[iv.reason]));
    start.set(row, wrap_sub(iv.start, origin));
    end.set(row, wrap_sub(iv.end, origin));
    duration.set(row, wrap_sub(iv.end, iv.start));
    counted.set(row, coded(counted, figure_code[static_cast<size_t>(iv.figure) % 5], figure_name(iv.figure)));
  }
  drop_empty_null_masks(t);
  return t;
}

}  // namespace gotrace::analysis::detail
