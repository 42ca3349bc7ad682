// Ticks to nanoseconds, and the fake Ps of timer unblocks and syscall exits (the last
// step of Go's old parseEvents, FORMAT.md §3.4 and §3.7 "Times").
#pragma once

#include <span>

#include "v1_trace.h"

namespace gotrace::v1 {

// Rewrites an event's time as nanoseconds since the first event of the ordered stream,
// and moves GoUnblocks by a timer goroutine to TimerP and every GoSysExit to SyscallP.
class TimeConverter {
 public:
  // `first_ts`: the tick time of the stream's first event.
  TimeConverter(const Trace& t, int64_t first_ts);
  void apply(Event& ev) const;

 private:
  const Trace& t_;
  int64_t min_ts_ = 0;
  double ns_per_tick_ = 0;
  bool have_timers_ = false;
};

}  // namespace gotrace::v1
