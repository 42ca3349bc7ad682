// The descriptors the tracer writes to (a trace file) or reads (the symbolizer's), kept
// from a program's close by gotrace-record: a program that closes every descriptor as it
// starts (a daemon's habit) took the trace's file, the trace was lost, and a file the
// program opened next could get its number and the trace's bytes.
//
// They are moved high, above the numbers programs pick for themselves: a shell gives a
// script any number it names (`exec 200>lock`, flock's idiom) and, finding a
// close-on-exec descriptor there, puts it back afterwards as one of its own, so that the
// script's writes went into the trace. A program's dup2 onto one still moves the
// tracer's file out of its way first, where its owner can follow.
#pragma once

#include <mutex>

namespace gotrace::tracer::detail {

// The lowest number the tracer's descriptors take: 64 below the process's limit on
// descriptors, or 4096 if that is lower (a higher number grows the kernel's table).
int high_fd_base();

// `fd` moved to a number at or above high_fd_base() (close-on-exec), or `fd` if it
// cannot be.
int move_high(int fd);

// The lock under which owners use a descriptor that may move (make_room) and the move
// is made. (One for all: the table's entries never point at an owner gone.)
[[nodiscard]] std::unique_lock<std::mutex> lock_movable();

// The tracer uses `fd` from now on (once, however often it is said) / no longer.
// `holder`: where its owner keeps it, under lock_movable(), if it can move.
void own_fd(int fd, int* holder = nullptr);
void disown_fd(int fd);
bool is_owned_fd(int fd);

// The program is about to put a file of its own at number `fd` (dup2, dup3): the
// tracer's descriptor there, if any, is copied to another number, where its owner
// follows, or given up where its owner cannot (a file the symbolizer reads for a
// moment). The copy left at `fd` is the program's call's to close. False if no number
// is free: the program's call is then to fail.
bool make_room(int fd);

// The owned descriptors within [first, last], in increasing order; how many (at most
// `max`).
int owned_fds_in(unsigned first, unsigned last, int* out, int max);

}  // namespace gotrace::tracer::detail
