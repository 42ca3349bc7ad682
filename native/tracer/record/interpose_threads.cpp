// Threads: each is one goroutine (the tracer's plain threads, threads.h). The recorder
// wraps each new thread's start routine so that its end, and every thread the tracer
// and the recorder start for themselves, stay out of the trace; a join that waits is a
// block ("sync", as Go's WaitGroup.Wait); the thread's name is its goroutine's.
#include <pthread.h>
#include <unistd.h>

#include <cstdlib>

#include "event_writer.h"
#include "interpose.h"
#include "recorder.h"

namespace gotrace::record {

namespace {

struct ThreadStart {
  void* (*routine)(void*);
  void* arg;
  bool internal;  // started by the tracer or the recorder
};

void* run_thread(void* p) {
  ThreadStart start = *static_cast<ThreadStart*>(p);
  std::free(p);
  if (start.internal) {
    t_depth = 1;
    return start.routine(start.arg);
  }
  // The thread's thread-local destructors (the tracer's exit hook among them) run after
  // this returns, or while a cancellation unwinds through it.
  struct End {
    ~End() { thread_ending(); }
  } end;
  // With CPU samples on, the thread's CPU timer starts with it: it joins the trace now,
  // and its goroutine appears at its first recorded call (named as it is then).
  if (gotrace::tracer::detail::enabled() && gotrace::tracer::detail::rt().cpu.hz() > 0) {
    Guard g;
    gotrace::tracer::detail::ScopedLocker join;
  }
  return start.routine(start.arg);
}

}  // namespace

}  // namespace gotrace::record

using namespace gotrace::record;

GOTRACE_INTERPOSE int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*routine)(void*),
                                     void* arg) {
  auto call = GOTRACE_REAL(pthread_create);
  bool internal = t_depth > 0;
  if (!internal && !g_recording.load(std::memory_order_relaxed)) return call(thread, attr, routine, arg);
  auto* start = static_cast<ThreadStart*>(std::malloc(sizeof(ThreadStart)));
  if (!start) return call(thread, attr, routine, arg);
  *start = {routine, arg, internal};
  int r = call(thread, attr, run_thread, start);
  if (r != 0) std::free(start);
  return r;
}

GOTRACE_INTERPOSE void pthread_exit(void* value) {
  thread_ending();
  GOTRACE_REAL(pthread_exit)(value);
  __builtin_unreachable();
}

GOTRACE_INTERPOSE int pthread_join(pthread_t thread, void** value) {
  auto call = GOTRACE_REAL(pthread_join);
  if (!recording()) return call(thread, value);
  // Only a join that waits is a block.
  if (pthread_tryjoin_np(thread, value) == 0) return 0;
  BlockRecord b(gotrace::tracer::BlockReason::Sync);
  return call(thread, value);
}

GOTRACE_INTERPOSE int pthread_setname_np(pthread_t thread, const char* name) {
  int r = GOTRACE_REAL(pthread_setname_np)(thread, name);
  // The goroutine takes the name if it has not appeared in the trace yet.
  if (r == 0 && recording() && pthread_equal(thread, pthread_self())) {
    Guard g;
    gotrace::tracer::set_thread_name(name);
  }
  return r;
}

// The process ends without exit handlers: the trace is written first.
GOTRACE_INTERPOSE void _exit(int status) {
  finish();
  GOTRACE_REAL(_exit)(status);
  __builtin_unreachable();
}

GOTRACE_INTERPOSE void _Exit(int status) {
  finish();
  GOTRACE_REAL(_Exit)(status);
  __builtin_unreachable();
}

// exit() from any thread runs that thread's thread-local destructors, outside the trace.
GOTRACE_INTERPOSE void exit(int status) {
  thread_ending();
  GOTRACE_REAL(exit)(status);
  __builtin_unreachable();
}
