// A program's close of the tracer's own descriptors (src/owned_fds.h) is answered
// without closing them while the process records: close, close_range and closefrom
// close everything else asked. A program's dup2 or dup3 onto one gets the number, the
// tracer's file moved out of its way first. The files the tracer opens for itself (the symbolizer's
// reading of the program's binaries) are its own too, moved high while open: the
// symbolizer closing a number the program had closed and taken again for a file of its
// own ended that file (EBADF in the program).
#include <fcntl.h>
#include <unistd.h>

#include <cstdarg>

#include "interpose.h"
#include "owned_fds.h"
#include "recorder.h"

using namespace gotrace::record;
using gotrace::tracer::detail::disown_fd;
using gotrace::tracer::detail::is_owned_fd;
using gotrace::tracer::detail::make_room;
using gotrace::tracer::detail::move_high;
using gotrace::tracer::detail::own_fd;
using gotrace::tracer::detail::owned_fds_in;

namespace {

// The program's call, not the tracer's own, in the recording process.
bool program_call() { return t_depth == 0 && g_recording.load(std::memory_order_relaxed); }

// close_range over [first, last] less the tracer's descriptors.
int close_range_around(unsigned first, unsigned last, int flags) {
  auto real = GOTRACE_REAL(close_range);
  int owned[16];
  const int n = owned_fds_in(first, last, owned, 16);
  unsigned from = first;
  for (int i = 0; i < n; i++) {
    const unsigned fd = unsigned(owned[i]);
    if (fd > from && real(from, fd - 1, flags) != 0) return -1;
    from = fd + 1;
  }
  return from <= last && from != 0 ? real(from, last, flags) : 0;
}

// A program's dup2 or dup3 (`call`) onto `to`, the tracer's descriptor there moved first.
template <class Call>
int dup_onto(int from, int to, Call call) {
  if (from == to || !program_call() || !is_owned_fd(to) || !in_recording_process()) return call();
  if (!make_room(to)) {
    errno = EMFILE;
    return -1;
  }
  const int r = call();
  if (r < 0) {  // (the tracer's copy left at `to` is nobody's)
    const int e = errno;
    GOTRACE_REAL(close)(to);
    errno = e;
  }
  return r;
}

}  // namespace

GOTRACE_INTERPOSE int open(const char* path, int flags, ...) {
  mode_t mode = 0;
  if (__OPEN_NEEDS_MODE(flags)) {  // (O_CREAT, or the whole of O_TMPFILE: not any O_DIRECTORY)
    va_list ap;
    va_start(ap, flags);
    mode = va_arg(ap, mode_t);
    va_end(ap);
  }
  int fd = GOTRACE_REAL(open)(path, flags, mode);
  if (t_depth == 0 || fd < 0) return fd;
  fd = move_high(fd);
  own_fd(fd);
  return fd;
}

GOTRACE_INTERPOSE int close(int fd) {
  if (t_depth > 0) disown_fd(fd);
  else if (program_call() && is_owned_fd(fd)) return 0;  // (kept: the program sees it closed)
  return GOTRACE_REAL(close)(fd);
}

GOTRACE_INTERPOSE int close_range(unsigned first, unsigned last, int flags) {
  // (Close-on-exec, as CLOSE_RANGE_CLOEXEC asks, the tracer's descriptors already are.)
  if (!program_call() || (flags & CLOSE_RANGE_CLOEXEC) || first > last) return GOTRACE_REAL(close_range)(first, last, flags);
  return close_range_around(first, last, flags);
}

GOTRACE_INTERPOSE void closefrom(int low) {
  if (!program_call() || low < 0) return GOTRACE_REAL(closefrom)(low);
  // (As glibc's: close_range where the kernel has it, one by one where it does not.)
  if (close_range_around(unsigned(low), ~0U, 0) == 0) return;
  for (int fd = low, max = int(sysconf(_SC_OPEN_MAX)); fd < max; fd++) close(fd);
}

GOTRACE_INTERPOSE int dup2(int from, int to) {
  return dup_onto(from, to, [&] { return GOTRACE_REAL(dup2)(from, to); });
}

GOTRACE_INTERPOSE int dup3(int from, int to, int flags) {
  return dup_onto(from, to, [&] { return GOTRACE_REAL(dup3)(from, to, flags); });
}
