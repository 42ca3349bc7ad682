// The p_transitions table: each proc's states as intervals, from one transition to the
// next (the last ends with the trace), from the procs' transitions (SqlKindEvents).
#include "analysis/sql/sql_builder.h"
#include "analysis/sql/sql_table_builders.h"
#include "analysis/transition.h"
#include <algorithm>
#include <unordered_map>

namespace gotrace::analysis::detail {

SqlTable p_transitions_table(const SqlSource& src) {
  const EventStore& s = src.read.store;
  SqlTableBuilder b(*find_sql_table("p_transitions"), src.trace_id);
  b.set_origin(time_origin(s));
  const size_t c_proc = b.column("proc"), c_state = b.column("state"), c_start = b.column("start"),
               c_end = b.column("end"), c_duration = b.column("duration"), c_thread = b.column("thread"),
               c_start_event = b.column("start_event"), c_end_event = b.column("end_event");
  struct Open {
    ProcID proc;
    ProcState state;
    Time start;
    ThreadID thread;
    uint64_t event;
    bool open = false;
  };
  std::unordered_map<ProcID, Open> open;  // by proc id
  auto close = [&](Open& o, Time t, uint64_t end_event) {
    if (!o.open) return;
    b.big(c_proc, o.proc);
    b.text(c_state, to_string(o.state));
    b.time(c_start, o.start);
    b.time(c_end, t);
    b.big(c_duration, wrap_sub(t, o.start));
    if (o.thread >= 0) b.big(c_thread, o.thread);
    b.big(c_start_event, static_cast<int64_t>(o.event));
    if (end_event != kNoEvent) b.big(c_end_event, static_cast<int64_t>(end_event));
    b.end_row();
    o.open = false;
  };
  for (size_t i : kind_events(src).procs) {
    const Time t = s.time(i);
    const StateTransition st = read_transition(s, i, s.type(i));
    if (st.old_state == st.new_state) continue;
    Open& o = open[st.resource.id];
    close(o, t, i);
    if (st.proc_to() == ProcState::NotExist) continue;
    o = Open{st.resource.id, st.proc_to(), t, s.context(i).m, i, true};
  }
  // Those still open end with the trace.
  const Time last = s.size() ? s.time(s.size() - 1) : 0;
  std::vector<ProcID> procs;
  for (auto& [p, o] : open) procs.push_back(p);
  std::sort(procs.begin(), procs.end());
  for (ProcID p : procs) close(open[p], last, kNoEvent);
  return b.take();
}

}  // namespace gotrace::analysis::detail
