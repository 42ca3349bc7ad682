#include "clock.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>

#ifdef GOTRACE_TRACER_HAVE_TSC
#include <cpuid.h>
#endif

namespace gotrace::tracer::detail {

bool g_clock_tsc = false;
int g_tsc_shift = 6;

namespace {

uint64_t g_frequency = 1000000000u >> kOsClockShift;  // CLOCK_MONOTONIC: 15625000, Go's value
std::once_flag g_once;

#ifdef GOTRACE_TRACER_HAVE_TSC
// The TSC is usable as a clock only if it ticks at a constant rate through frequency and
// power-state changes (CPUID "invariant TSC"), and the kernel has not found it unstable.
bool tsc_is_invariant() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u) return false;
  __get_cpuid(0x80000007u, &a, &b, &c, &d);
  if (!(d & (1u << 8))) return false;
  std::ifstream f("/sys/devices/system/clocksource/clocksource0/available_clocksource");
  std::string line;
  if (f && std::getline(f, line)) return line.find("tsc") != std::string::npos;
  return true;
}

// One (ns, tsc) pair, taking the tightest of a few brackets of the OS clock read.
void sample(uint64_t& ns, uint64_t& tsc) {
  uint64_t best = ~uint64_t(0);
  for (int i = 0; i < 7; i++) {
    uint64_t t0 = __rdtsc();
    uint64_t n = os_nanotime();
    uint64_t t1 = __rdtsc();
    if (t1 - t0 < best) {
      best = t1 - t0;
      ns = n;
      tsc = t0 + (t1 - t0) / 2;
    }
  }
}

// Measures the TSC's rate against CLOCK_MONOTONIC and picks the shift; returns the trace
// clock's rate.
uint64_t calibrate_tsc() {
  uint64_t ns0 = 0, tsc0 = 0, ns1 = 0, tsc1 = 0;
  sample(ns0, tsc0);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  sample(ns1, tsc1);
  long double hz = (long double)(tsc1 - tsc0) * 1e9L / (long double)(ns1 - ns0);
  g_tsc_shift = std::clamp(int(std::lround(std::log2(double(hz) * 64e-9))), 0, 16);
  return uint64_t(hz / (1 << g_tsc_shift) + 0.5L);
}
#endif

void init_once() {
#ifdef GOTRACE_TRACER_HAVE_TSC
  const char* want = std::getenv("GOTRACE_TRACER_CLOCK");
  bool os_forced = want && std::strcmp(want, "os") == 0;
  if (!os_forced && tsc_is_invariant()) {
    g_frequency = calibrate_tsc();
    g_clock_tsc = g_frequency > 0;
  }
#endif
}

}  // namespace

void clock_init() { std::call_once(g_once, init_once); }
uint64_t clock_frequency() { return g_frequency; }
const char* clock_source() { return g_clock_tsc ? "tsc" : "clock_gettime"; }

}  // namespace gotrace::tracer::detail
