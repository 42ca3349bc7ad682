// Stack capture by frame pointers (Go's fpTracebackPCs): a load per frame, no unwind
// tables, safe in a signal handler. Code built without frame pointers yields short or
// partial stacks, never a crash: every frame pointer is checked against the thread's
// stack bounds before it is read.
#pragma once

#include <cstdint>

namespace gotrace::tracer::detail {

// Walks the frame chain from `fp`, writing call sites (return address - 1), callers
// last, and feeding each to `hash` (which the load chain hides). Stops at the bounds
// [lo, hi), at a frame at or above `stop` (if non-zero) and at `max` frames. Returns the
// number of PCs written.
//
// Not instrumented by the sanitizers: where code without frame pointers leaves a stale
// word in the frame pointer, the walk reads whatever stack words the chain leads to
// (within the bounds) — a local another thread may be writing at that moment (found by
// ThreadSanitizer in the tracer's stress test: the scheduler's atomic counter, on the
// stack of the thread that was sampled). A word read there is only a candidate frame,
// checked before it is followed.
template <class Hash>
[[gnu::no_sanitize("address", "thread")]] inline int unwind_frames(uintptr_t fp, uintptr_t lo, uintptr_t hi, uintptr_t stop,
                                                        uint64_t* out, int max, Hash& hash) {
  int n = 0;
  while (n < max) {
    if (fp < lo || fp > hi - 2 * sizeof(uintptr_t) || (fp & (sizeof(uintptr_t) - 1)) != 0) break;
    const uintptr_t* frame = reinterpret_cast<const uintptr_t*>(fp);
    uintptr_t next = frame[0];
    uintptr_t ret = frame[1];
    if (ret == 0) break;
    // The caller's frame belongs to the scheduler that started the running goroutine.
    if (stop != 0 && next >= stop) break;
    out[n++] = uint64_t(ret - 1);
    hash.add(uint64_t(ret - 1));
    if (next <= fp) break;  // frames grow towards higher addresses
    fp = next;
  }
  return n;
}

struct NoHash {
  void add(uint64_t) {}
};

[[gnu::no_sanitize("address", "thread")]] inline int unwind_frames(uintptr_t fp, uintptr_t lo, uintptr_t hi,
                                                                  uintptr_t stop, uint64_t* out, int max) {
  NoHash none;
  return unwind_frames(fp, lo, hi, stop, out, max, none);
}

}  // namespace gotrace::tracer::detail
