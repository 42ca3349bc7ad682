// Loops over every event of a trace, in slices, each slice a call of its own.
//
// WebAssembly engines move a function from baseline to optimized code only between two
// calls to it (there is no on-stack replacement), so a loop over every event that is
// entered once runs in baseline code to its end: on a large trace, seconds. Running the
// loop one slice per call lets the engine switch after the first few slices.
#pragma once

#include <algorithm>
#include <cstddef>

namespace gotrace {

inline constexpr size_t kEventSlice = size_t{1} << 16;
// The slice of a loop over records (goroutines, tasks), each more work than an event.
inline constexpr size_t kRecordSlice = size_t{1} << 12;

// Calls f(args...) as a function of its own. Compilers honour noinline, but
// WebAssembly's whole-program optimizer (binaryen) inlines any function called from a
// single place; a call through a pointer it must load at run time stays a call.
template <class F, class... A>
void call_out_of_line(F& f, A... args) {
  static void (*volatile const call)(F&, A...) = [](F& g, A... a) { g(a...); };
  call(f, args...);
}

// Calls f(from, to) for consecutive slices [from, to) of [0, n), `slice` long (for
// loops over blocks of events rather than events, fewer).
template <class F>
void for_each_event_slice(size_t n, F&& f, size_t slice = kEventSlice) {
  for (size_t i = 0; i < n; i += slice) call_out_of_line(f, i, std::min(n, i + slice));
}

// The same over [begin, end) (a loop done a piece at a time).
template <class F>
void for_each_event_slice_between(size_t begin, size_t end, F&& f) {
  for (size_t i = begin; i < end; i += kEventSlice) call_out_of_line(f, i, std::min(end, i + kEventSlice));
}

}  // namespace gotrace
