// SIGPROF shared with the program. The tracer's CPU timers send it tagged; every other
// SIGPROF (the program's own profiler, a `kill -PROF`) goes to the action the program
// set, as if the tracer were not there. The program's action is kept here once the
// tracer's handler is installed: gotrace-record's `sigaction` and `signal` keep it here
// (a program linking the tracer keeps the action it had set before tracing began).
#pragma once

#include <signal.h>

namespace gotrace::tracer::detail {

// The value the tracer's timers carry in si_value: theirs, not the program's.
void* sigprof_timer_tag();

// Installs `handler` for SIGPROF (once), adopting the action it replaces as the program's.
void own_sigprof(void (*handler)(int, siginfo_t*, void*));

// Whether a SIGPROF came from the tracer's timers.
inline bool from_tracer_timer(const siginfo_t* info) {
  return info && info->si_code == SI_TIMER && info->si_value.sival_ptr == sigprof_timer_tag();
}

// Whether the tracer's handler has SIGPROF (the program's action is then kept here).
bool owns_sigprof();

// sigaction(SIGPROF, act, old) as the program sees it: false, with nothing done, unless
// the tracer has SIGPROF. Async-signal-safe.
bool program_sigprof_action(const struct sigaction* act, struct sigaction* old);

// Delivers a SIGPROF that is not the tracer's to the program's action (from the tracer's
// handler, on the thread it hit). The default action ends the process: through the hook
// if one is set (gotrace-record writes the trace first), or at once.
void deliver_to_program(int sig, siginfo_t* info, void* context);

// `hook` (async-signal-safe) replaces the immediate default action of deliver_to_program.
void set_sigprof_default_hook(void (*hook)());

// Restores SIGPROF's default action in the kernel, for a process about to take it.
void sigprof_default_now();

}  // namespace gotrace::tracer::detail
