// The recorder's settings, from the environment the gotrace-record launcher sets (or the
// user, with LD_PRELOAD alone).
//   GOTRACE_RECORD_OUTPUT     the trace file (default: PROGRAM.trace in the working directory)
//   GOTRACE_RECORD_CPU_HZ     CPU samples per CPU-second of each thread (default 0: none)
//   GOTRACE_RECORD_FLIGHT     N > 0: flight recorder only, keeping the last N generations;
//                             SIGUSR2 writes them to OUTPUT.1, OUTPUT.2, ... (nothing at exit)
//   GOTRACE_RECORD_PERIOD_MS  generation period (default 1000)
//   GOTRACE_RECORD_STACKS     0: no stacks (default 1)
//   GOTRACE_RECORD_CHILDREN   1: programs this one executes are recorded too, each to
//                             OUTPUT.PID (default 0: they run untraced)
//   GOTRACE_RECORD_QUIET      1: no summary line on standard error at the end
//   GOTRACE_RECORD_ROOT       the process id whose trace is OUTPUT itself (set at load)
#pragma once

#include <string>

#include "gotrace/tracer/tracer.h"

namespace gotrace::record {

struct Settings {
  std::string output;
  tracer::Options options;
  int flight = 0;
  bool children = false;
  bool quiet = false;
  std::string error;  // a setting that could not be read
};

Settings settings_from_environment();

}  // namespace gotrace::record
