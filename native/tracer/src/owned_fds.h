// The descriptors the tracer writes to (a trace file) or reads (the symbolizer's), kept
// from a program's close by gotrace-record: a program that closes every descriptor as it
// starts (a daemon's habit) took the trace's file, the trace was lost, and a file the
// program opened next could get its number and the trace's bytes. They are moved high,
// out of the way of the numbers a program is given.
#pragma once

namespace gotrace::tracer::detail {

// `fd` moved to a number at or above kHighFd (close-on-exec), or `fd` if it cannot be.
int move_high(int fd);
inline constexpr int kHighFd = 200;

// The tracer writes to `fd` from now on (once, however often it is said) / no longer.
void own_fd(int fd);
void disown_fd(int fd);
bool is_owned_fd(int fd);

// The owned descriptors within [first, last], in increasing order; how many (at most
// `max`).
int owned_fds_in(unsigned first, unsigned last, int* out, int max);

}  // namespace gotrace::tracer::detail
