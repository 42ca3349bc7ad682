// Sleeps: a block with Go's reason for time.Sleep ("sleep"). A zero sleep is a yield,
// not recorded.
#include <time.h>
#include <unistd.h>

#include "interpose.h"

using namespace gotrace::record;
using gotrace::tracer::BlockReason;

namespace {
bool zero(const struct timespec* t) { return t && t->tv_sec == 0 && t->tv_nsec == 0; }
}  // namespace

GOTRACE_INTERPOSE int nanosleep(const struct timespec* duration, struct timespec* left) {
  auto call = GOTRACE_REAL(nanosleep);
  if (!recording() || zero(duration)) return call(duration, left);
  BlockRecord b(BlockReason::Sleep);
  return call(duration, left);
}

GOTRACE_INTERPOSE int clock_nanosleep(clockid_t clock, int flags, const struct timespec* t, struct timespec* left) {
  auto call = GOTRACE_REAL(clock_nanosleep);
  if (!recording() || (flags == 0 && zero(t))) return call(clock, flags, t, left);
  BlockRecord b(BlockReason::Sleep);
  return call(clock, flags, t, left);
}

GOTRACE_INTERPOSE int usleep(useconds_t usec) {
  auto call = GOTRACE_REAL(usleep);
  if (!recording() || usec == 0) return call(usec);
  BlockRecord b(BlockReason::Sleep);
  return call(usec);
}

GOTRACE_INTERPOSE unsigned int sleep(unsigned int seconds) {
  auto call = GOTRACE_REAL(sleep);
  if (!recording() || seconds == 0) return call(seconds);
  BlockRecord b(BlockReason::Sleep);
  return call(seconds);
}
