// The trace clock: cheap, monotonic, coarse. The TSC where it is invariant (one
// instruction, no system call), else CLOCK_MONOTONIC; either way in units of about 64 ns,
// as Go's, so the delta between two events usually fits in one or two varint bytes.
#pragma once

#include <cstdint>
#include <ctime>

#if defined(__x86_64__)
#include <x86intrin.h>
#define GOTRACE_TRACER_HAVE_TSC 1
#endif

namespace gotrace::tracer::detail {

// The OS clock's unit is 64 ns (Go's); the TSC's is the power of two of ticks closest
// to that. Both are chosen once per process by clock_init(), before the first trace.
inline constexpr int kOsClockShift = 6;
extern bool g_clock_tsc;
extern int g_tsc_shift;

inline uint64_t os_nanotime() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

inline int64_t clock_now() {
#ifdef GOTRACE_TRACER_HAVE_TSC
  if (__builtin_expect(g_clock_tsc, 1)) return int64_t(__rdtsc() >> g_tsc_shift);
#endif
  return int64_t(os_nanotime() >> kOsClockShift);
}

// Picks the clock and measures its rate. The first call may block ~10 ms (TSC
// calibration against CLOCK_MONOTONIC); later calls return at once.
void clock_init();
uint64_t clock_frequency();  // trace clock ticks per second
const char* clock_source();  // "tsc" or "clock_gettime"

}  // namespace gotrace::tracer::detail
