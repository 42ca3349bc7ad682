// SIGPROF, which the tracer's CPU timers use (--cpu), stays the program's too: what the
// program sets for it through sigaction or signal is kept as its action, which gets
// every SIGPROF the timers did not send, while the tracer's handler stays installed
// (src/program_sigprof.h). A program that takes SIGPROF to clean up and end (coreutils'
// `sort`) is no longer ended by the tracer's ticks. Other signals go straight to libc.
#include <signal.h>

#include <cerrno>

#include "interpose.h"
#include "program_sigprof.h"

using gotrace::tracer::detail::owns_sigprof;
using gotrace::tracer::detail::program_sigprof_action;

namespace {

// signal() and its variants for SIGPROF, as glibc builds them on sigaction.
__sighandler_t program_signal(int sig, __sighandler_t handler, int flags, bool mask_itself) {
  if (handler == SIG_ERR) {
    errno = EINVAL;
    return SIG_ERR;
  }
  struct sigaction act = {}, old = {};
  act.sa_handler = handler;
  act.sa_flags = flags;
  sigemptyset(&act.sa_mask);
  if (mask_itself) sigaddset(&act.sa_mask, sig);
  program_sigprof_action(&act, &old);
  return old.sa_handler;
}

bool is_programs(int sig) { return sig == SIGPROF && owns_sigprof(); }

}  // namespace

GOTRACE_INTERPOSE int sigaction(int sig, const struct sigaction* act, struct sigaction* old) {
  if (sig == SIGPROF && program_sigprof_action(act, old)) return 0;
  return GOTRACE_REAL(sigaction)(sig, act, old);
}

// BSD semantics (glibc's signal): restarted calls, the signal masked in its handler.
GOTRACE_INTERPOSE __sighandler_t signal(int sig, __sighandler_t handler) {
  if (is_programs(sig)) return program_signal(sig, handler, SA_RESTART, true);
  return GOTRACE_REAL(signal)(sig, handler);
}

GOTRACE_INTERPOSE __sighandler_t bsd_signal(int sig, __sighandler_t handler) {
  if (is_programs(sig)) return program_signal(sig, handler, SA_RESTART, true);
  return GOTRACE_REAL(bsd_signal)(sig, handler);
}

// System V semantics: the action is reset on delivery, the signal not masked.
GOTRACE_INTERPOSE __sighandler_t sysv_signal(int sig, __sighandler_t handler) {
  if (is_programs(sig)) return program_signal(sig, handler, SA_RESETHAND | SA_NODEFER, false);
  return GOTRACE_REAL(sysv_signal)(sig, handler);
}

// (What signal() is for programs built for strict X/Open.)
GOTRACE_INTERPOSE __sighandler_t __sysv_signal(int sig, __sighandler_t handler) {
  if (is_programs(sig)) return program_signal(sig, handler, SA_RESETHAND | SA_NODEFER, false);
  return GOTRACE_REAL(__sysv_signal)(sig, handler);
}
