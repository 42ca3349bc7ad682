// A job: a C++20 coroutine the scheduler runs to completion, suspending it whenever it
// waits (channel, mutex, timer) or yields. In the trace, each job is a goroutine.
#pragma once

#include <coroutine>
#include <exception>
#include <utility>

#include "gotrace/tracer/scheduler.h"

namespace sched {

class Scheduler;

class Job {
 public:
  struct promise_type {
    gotrace::tracer::Goroutine goroutine;  // the job's identity in the trace
    Scheduler* scheduler = nullptr;

    Job get_return_object() { return Job(std::coroutine_handle<promise_type>::from_promise(*this)); }
    // A job starts only when the scheduler runs it.
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct FinalAwaiter {
      bool await_ready() noexcept { return false; }
      void await_suspend(std::coroutine_handle<promise_type> h) noexcept;  // scheduler.h
      void await_resume() noexcept {}
    };
    FinalAwaiter final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
  using Handle = std::coroutine_handle<promise_type>;

  Job(Job&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  Job& operator=(Job&&) = delete;
  ~Job() {
    if (h_) h_.destroy();  // never handed to a scheduler
  }
  Handle release() { return std::exchange(h_, {}); }

 private:
  explicit Job(Handle h) : h_(h) {}
  Handle h_;
};

// The goroutine of a suspended job's handle.
inline gotrace::tracer::Goroutine& goroutine_of(std::coroutine_handle<> h) {
  return Job::Handle::from_address(h.address()).promise().goroutine;
}

}  // namespace sched
