#include "time.h"

#include "go_numbers.h"

namespace gotrace::v1 {

TimeConverter::TimeConverter(const Trace& t, int64_t first_ts)
    : t_(t), min_ts_(first_ts), have_timers_(!t.timer_goroutines.empty()) {
  // Go divides first, in float64: (ticks * 1e9) / freq differs in the last digit.
  ns_per_tick_ = 1e9 / static_cast<double>(static_cast<int64_t>(t.ticks_per_sec));
}

}  // namespace gotrace::v1
