// Ticks to nanoseconds, and the fake Ps of timer unblocks and syscall exits (the last
// step of Go's old parseEvents, FORMAT.md §3.4 and §3.7 "Times").
#pragma once

#include <span>

#include "go_numbers.h"

#include "trace.h"

namespace gotrace::v1 {

// Rewrites an event's time as nanoseconds since the first event of the ordered stream,
// and moves GoUnblocks by a timer goroutine to TimerP and every GoSysExit to SyscallP.
class TimeConverter {
 public:
  // `first_ts`: the tick time of the stream's first event.
  TimeConverter(const Trace& t, int64_t first_ts);
  void apply(Event& ev) const {
    ev.ts = go_float_to_int64(static_cast<double>(wrap_sub(ev.ts, min_ts_)) * ns_per_tick_);
    if (ev.type == EvGoUnblock && have_timers_ && t_.timer_goroutines.contains(ev.g)) ev.p = kTimerP;
    if (ev.type == EvGoSysExit) ev.p = kSyscallP;
  }

 private:
  const Trace& t_;
  int64_t min_ts_ = 0;
  double ns_per_tick_ = 0;
  bool have_timers_ = false;
};

}  // namespace gotrace::v1
