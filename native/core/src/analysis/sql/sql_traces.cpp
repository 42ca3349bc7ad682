// The traces table: one row per trace, its format, size, counts and clock.
#include <stdexcept>

#include "analysis/sql/sql_builder.h"
#include "gotrace/go_int.h"
#include "analysis/sql/sql_table_builders.h"

namespace gotrace::analysis::detail {

SqlTable traces_table(const SqlSource& src) {
  if (!src.stats) throw std::logic_error("the traces table needs the trace's stats");
  const TraceStats& st = *src.stats;
  SqlTableBuilder b(*find_sql_table("traces"), src.trace_id);
  auto u = [](uint64_t v) { return static_cast<int64_t>(v); };
  if (!src.path.empty()) b.text(b.column("path"), src.path);
  b.text(b.column("go_version"), "1." + std::to_string(st.go_minor));
  b.text(b.column("format"), st.legacy ? "v1" : "v2");
  b.big(b.column("bytes"), u(st.bytes));
  b.big(b.column("generations"), u(st.generations));
  b.big(b.column("events"), u(st.events));
  b.big(b.column("goroutines"), u(st.goroutines));
  b.big(b.column("procs"), u(st.procs));
  b.big(b.column("threads"), u(st.threads));
  b.big(b.column("gcs"), u(st.gcs));
  b.big(b.column("stacks"), u(st.stacks));
  b.big(b.column("strings"), u(st.strings));
  b.big(b.column("time_origin"), time_origin(src.read.store));
  b.big(b.column("duration"), wrap_sub(st.end, st.start));  // int64 arithmetic as Go's
  // Wall clock as ns since the Unix epoch (Go 1.25+ traces have clock snapshots); NULL
  // where a (hostile) snapshot puts it beyond what int64 nanoseconds hold.
  auto wall = [](const WallTime& w, int64_t& ns) {
    return !__builtin_mul_overflow(w.sec, int64_t{1000000000}, &ns) && !__builtin_add_overflow(ns, w.nsec, &ns);
  };
  int64_t ns = 0;
  if (st.wall_start && wall(*st.wall_start, ns)) b.big(b.column("wall_start"), ns);
  if (st.wall_end && wall(*st.wall_end, ns)) b.big(b.column("wall_end"), ns);
  if (st.error) b.text(b.column("error"), *st.error);
  b.end_row();
  return b.take();
}

}  // namespace gotrace::analysis::detail
