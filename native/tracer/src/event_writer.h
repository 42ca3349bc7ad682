// Writing events from a traced thread (Go's traceLocker and traceEventWriter): take the
// thread's write flag, read the generation under it, append events to the thread's
// batch for that generation, release the flag. Nothing here takes a lock or touches a
// cache line another thread writes, except when a batch fills up.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "clock.h"
#include "runtime.h"
#include "string_table.h"
#include "thread_state.h"
#include "unwind.h"
#include "write_fence.h"

namespace gotrace::tracer::detail {

// A thread holding its write flag, and the generation it writes for.
struct Locker {
  ThreadState* m = nullptr;
  uint64_t gen = 0;
  explicit operator bool() const { return gen != 0; }
};

// Joins the current trace (first write of this thread in it): resets the thread's view.
void attach_thread(ThreadState* m);

// Go's traceAcquire. An empty Locker means tracing is off (or the thread is exiting).
inline Locker acquire() {
  ThreadState* m = t_thread;
  if (__builtin_expect(!m, 0)) {
    m = current_thread();
    if (!m) return {};
  }
  // The flag must be visible before the generation is read, and the advancer changes the
  // generation before it reads the flag: then either it sees us writing or we see the new
  // generation. With the asymmetric fence (write_fence.h) the advancer's membarrier
  // supplies the barrier between this store and the load below.
  if (__builtin_expect(g_asymmetric_fence.load(std::memory_order_relaxed), 1)) {
    m->seqlock.store(m->seqlock.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    m->seqlock.fetch_add(1, std::memory_order_seq_cst);
  }
  uint64_t gen = rt().gen.load(std::memory_order_seq_cst);
  if (__builtin_expect(gen == 0, 0)) {
    m->seqlock.store(m->seqlock.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    return {};
  }
  if (__builtin_expect(m->session != rt().session.load(std::memory_order_relaxed), 0)) attach_thread(m);
  return {m, gen};
}

// Go's traceRelease. Only this thread (and its own signal handler, which restores the
// value before returning) changes the flag, so a plain store suffices.
inline void release(const Locker& l) {
  l.m->seqlock.store(l.m->seqlock.load(std::memory_order_relaxed) + 1, std::memory_order_release);
}

class ScopedLocker {
 public:
  ScopedLocker() : l_(acquire()) {}
  ~ScopedLocker() {
    if (l_) release(l_);
  }
  ScopedLocker(const ScopedLocker&) = delete;
  ScopedLocker& operator=(const ScopedLocker&) = delete;
  const Locker& operator*() const { return l_; }
  const Locker* operator->() const { return &l_; }
  explicit operator bool() const { return bool(l_); }

 private:
  Locker l_;
};

// Finishes the thread's full batch and starts another; false if the generation is lossy.
bool refill(ThreadState* m, uint64_t gen);

// Appends one timed event (FORMAT.md §2.7): type, time delta, arguments. Returns false if
// it was dropped (the generation had to give up data).
template <class... Args>
inline bool emit(const Locker& l, uint8_t type, Args... args) {
  constexpr size_t kMax = 1 + kMaxVarint * (1 + sizeof...(Args));
  ThreadState* m = l.m;
  Batch* b = m->buf[l.gen & 1];
  if (__builtin_expect(!b || !b->has_room(kMax), 0)) {
    if (!refill(m, l.gen)) {
      m->dropped[l.gen & 1]++;
      return false;
    }
    b = m->buf[l.gen & 1];
  }
  // Timestamps strictly increase within a batch, as the runtime's do.
  int64_t ts = clock_now();
  if (ts <= b->last_time) ts = b->last_time + 1;
  uint8_t* p = b->data + b->pos;
  *p++ = type;
  p = put_uvarint(p, uint64_t(ts - b->last_time));
  ((p = put_uvarint(p, uint64_t(args))), ...);
  b->pos = uint32_t(p - b->data);
  b->last_time = ts;
  b->events++;
  return true;
}

// Equality of two byte ranges of length n, inline for the short names of regions and
// reasons (a call to memcmp costs more than the comparison).
inline bool same_bytes(const char* a, const char* b, size_t n) {
  auto load8 = [](const char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  auto load4 = [](const char* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  };
  if (n >= 8 && n <= 16) return load8(a) == load8(b) && load8(a + n - 8) == load8(b + n - 8);
  if (n >= 4 && n < 8) return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);
  if (n < 4) {
    for (size_t i = 0; i < n; i++)
      if (a[i] != b[i]) return false;
    return true;
  }
  return std::memcmp(a, b, n) == 0;
}

uint64_t string_id_slow(const Locker& l, std::string_view s, StringCacheEntry& e);

// The id of `s` in the current generation, through the thread's cache. The cache is keyed
// by where the caller's string is: names are mostly literals, which come back at the same
// address. The content is still compared, so a reused buffer is never taken for another.
inline uint64_t string_id(const Locker& l, std::string_view s) {
  s = clip_string(s);
  uint64_t key = uint64_t(reinterpret_cast<uintptr_t>(s.data())) ^ (uint64_t(s.size()) << 48);
  key *= 0x9e3779b97f4a7c15ull;
  StringCacheEntry& e = l.m->strings[key >> 58];
  if (__builtin_expect(
          e.gen == l.gen && e.data == s.data() && e.size == s.size() && same_bytes(e.stored->data(), s.data(), s.size()),
          1))
    return e.id;
  return string_id_slow(l, s, e);
}

// The id of a stack of PCs whose hash_pcs is `h` in the current generation, through the
// thread's cache; the 64-bit hash stands for the PCs there (the table compares them in
// full).
uint64_t stack_id_slow(const Locker& l, std::span<const uint64_t> pcs, uint64_t h, StackCacheEntry& e);
inline uint64_t stack_id_hashed(const Locker& l, std::span<const uint64_t> pcs, uint64_t h) {
  StackCacheEntry& e = l.m->stacks[h % std::size(l.m->stacks)];
  if (__builtin_expect(e.gen == l.gen && e.hash == h && e.frames == pcs.size(), 1)) return e.id;
  return stack_id_slow(l, pcs, h, e);
}

// The id of a stack of PCs in the current generation, through the thread's cache.
uint64_t stack_id(const Locker& l, std::span<const uint64_t> pcs);

// The calling code's stack, from frame `fp` (the frame of the tracer's entry point, so
// its return address is the caller's call site); 0 when stacks are off. Stops at the
// frame where the running goroutine was started, so a goroutine's stack does not show
// the scheduler below it. Inline: in the events that carry a stack it is most of the
// work, and the call's own cost was a fifth of it for short stacks.
[[gnu::always_inline]] inline uint64_t capture_stack(const Locker& l, void* fp) {
  if (!rt().options.stacks || !fp) return 0;
  ThreadState* m = l.m;
  const Binding& b = binding();
  // A scheduler's goroutine: stop where the worker started it. A plain thread's own
  // goroutine: the whole thread stack.
  uintptr_t stop = b.g && b.g != &m->own_g ? reinterpret_cast<uintptr_t>(b.stack_base) : 0;
  uint64_t pcs[64];
  PcHash hash;
  int n = unwind_frames(reinterpret_cast<uintptr_t>(fp), m->stack_lo, m->stack_hi, stop, pcs, 63, hash);
  // A Go goroutine's stack ends at its start function, and tools name goroutines by that
  // root frame: a named goroutine's stacks end at its name.
  if (GoroutineNode* g = m->view_g) {
    uint64_t start = g->start_pc.load(std::memory_order_relaxed);
    if (LabelRegistry::is_label(start)) {
      pcs[n++] = start;
      hash.add(start);
    }
  }
  if (n == 0) return 0;
  return stack_id_hashed(l, std::span<const uint64_t>(pcs, size_t(n)), hash.finish(size_t(n)));
}

}  // namespace gotrace::tracer::detail
