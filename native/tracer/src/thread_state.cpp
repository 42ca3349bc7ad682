#include "thread_state.h"

#include <pthread.h>
#include <unistd.h>

#include "context.h"
#include "runtime.h"
#include "thread_exit.h"

namespace gotrace::tracer::detail {

constinit thread_local ThreadState* t_thread = nullptr;

namespace {

constinit thread_local bool t_exiting = false;

// Its destructor runs when the thread exits; constructed when the thread registers.
struct ExitHook {
  bool armed = false;
  ~ExitHook() {
    if (armed) thread_exit();
  }
};
thread_local ExitHook t_exit_hook;

void stack_bounds(ThreadState* m) {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* addr = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
    m->stack_lo = reinterpret_cast<uintptr_t>(addr);
    m->stack_hi = m->stack_lo + size;
  }
  pthread_attr_destroy(&attr);
}

}  // namespace

void ThreadRegistry::add(ThreadState* m) {
  std::lock_guard lock(mu_);
  m->next = head_;
  head_ = m;
}

void ThreadRegistry::remove(ThreadState* m) {
  for (ThreadState** p = &head_; *p; p = &(*p)->next) {
    if (*p == m) {
      *p = m->next;
      return;
    }
  }
}

ThreadState* current_thread() {
  if (ThreadState* m = t_thread) return m;
  if (t_exiting) return nullptr;
  init_runtime();  // (set_thread_name may come before any trace)
  auto* m = new ThreadState;
  m->id = uint64_t(gettid());
  stack_bounds(m);
  char name[16] = {};
  pthread_getname_np(pthread_self(), name, sizeof name);
  m->name = name[0] ? name : "thread";
  m->own_g.set_name(m->name.c_str());
  t_exit_hook.armed = true;
  rt().threads.add(m);
  t_thread = m;
  return m;
}

void thread_exit() {
  ThreadState* m = t_thread;
  if (!m) return;
  {
    ScopedLocker l;
    if (l) end_plain_thread(*l);
  }
  t_exiting = true;
  {
    // Under the registry lock the advancer is not looking at this thread: its CPU samples
    // and what is left of its batches join their generations here (or are dropped, if
    // the generation was given up).
    std::lock_guard lock(rt().threads.mutex());
    rt().cpu.release(m);
    for (Batch*& b : m->buf) {
      if (!b) continue;
      if (b->empty()) rt().pool.put(b);
      else rt().full[b->gen & 1].push(b);
      b = nullptr;
    }
    for (int i = 0; i < 2; i++) rt().exited_dropped[i].fetch_add(m->dropped[i], std::memory_order_relaxed);
    rt().threads.remove(m);
  }
  t_thread = nullptr;
  delete m;
}

}  // namespace gotrace::tracer::detail
