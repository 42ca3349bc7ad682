// What every interposed function shares: when to record (never inside the tracer, never
// on the tracer's own threads, never in a forked child), the real function behind each
// name, and the scopes that record a block or a system call around the real call.
#pragma once

#include <atomic>
#include <cerrno>

#include "gotrace/tracer/threads.h"
#include "thread_state.h"

// An interposed libc function: exported from the preload library, so it comes before
// libc's in the program's symbol lookup.
#define GOTRACE_INTERPOSE extern "C" [[gnu::visibility("default")]]

namespace gotrace::record {

// > 0 while this thread is inside the recorder or the tracer (whose own locks, waits and
// writes must go straight to libc), and for good on the tracer's and the recorder's own
// threads and on a thread that is ending.
extern constinit thread_local int t_depth;

// The recorder traces this process: set once the tracer has started, cleared when it
// stops and in a forked child.
extern std::atomic<bool> g_recording;

class Guard {
 public:
  Guard() { ++t_depth; }
  ~Guard() { --t_depth; }
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;
};

// Whether a call on this thread is to be recorded.
[[gnu::always_inline]] inline bool recording() {
  if (__builtin_expect(!g_recording.load(std::memory_order_relaxed), 0) || t_depth) return false;
  // The tracer, writing events on this thread (its write flag is odd), took a lock of its
  // own: a thread's end runs the tracer outside any interposed call.
  tracer::detail::ThreadState* m = tracer::detail::t_thread;
  return !m || (m->seqlock.load(std::memory_order_relaxed) & 1) == 0;
}

// The calling thread's goroutine blocks, with Go's reason `r`, for the scope's lifetime.
// Inside it the thread counts as within the recorder (a signal handler's calls there
// are not recorded: the goroutine is not running).
class BlockRecord {
 public:
  explicit BlockRecord(tracer::BlockReason r) {
    ++t_depth;
    token_ = tracer::detail::block_begin(r);
  }
  ~BlockRecord() {
    int saved = errno;
    if (token_.session) tracer::detail::block_end(token_);
    errno = saved;
    --t_depth;
  }
  BlockRecord(const BlockRecord&) = delete;
  BlockRecord& operator=(const BlockRecord&) = delete;

 private:
  tracer::detail::ScopeToken token_;
};

// The calling thread's goroutine is in a system call for the scope's lifetime.
class SyscallRecord {
 public:
  SyscallRecord() {
    ++t_depth;
    token_ = tracer::detail::syscall_begin();
  }
  ~SyscallRecord() {
    int saved = errno;
    if (token_.session) tracer::detail::syscall_end(token_);
    errno = saved;
    --t_depth;
  }
  SyscallRecord(const SyscallRecord&) = delete;
  SyscallRecord& operator=(const SyscallRecord&) = delete;

 private:
  tracer::detail::ScopeToken token_;
};

// The real function behind an interposed name: the next definition after the preload
// library's (libc's, or a sanitizer's in between), looked up on first use. `version`
// picks one of several versions of a symbol (the condition variable calls).
void* resolve_real(const char* name, const char* version = nullptr);

inline void* real_address(std::atomic<void*>& slot, const char* name, const char* version = nullptr) {
  void* f = slot.load(std::memory_order_relaxed);
  if (__builtin_expect(f != nullptr, 1)) return f;
  f = resolve_real(name, version);
  slot.store(f, std::memory_order_relaxed);
  return f;
}

#define GOTRACE_REAL(name, ...)                                                       \
  (reinterpret_cast<decltype(&::name)>([]() {                                         \
    static constinit std::atomic<void*> slot{nullptr};                                \
    return ::gotrace::record::real_address(slot, #name __VA_OPT__(, ) __VA_ARGS__);    \
  }()))

}  // namespace gotrace::record
