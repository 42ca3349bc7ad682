// A mutex for jobs: a contended lock suspends the job (traced as a block with reason
// "sync") instead of its worker thread; unlock hands the lock straight to the first
// waiter and unblocks it.
#pragma once

#include <coroutine>
#include <deque>
#include <mutex>

#include "scheduler.h"

namespace sched {

class Mutex {
 public:
  struct Lock {
    Mutex& m;
    bool await_ready() noexcept { return false; }
    bool await_suspend(std::coroutine_handle<> self) {
      std::lock_guard lock(m.mu_);
      if (!m.locked_) {
        m.locked_ = true;
        return false;
      }
      trace::go_block(trace::BlockReason::Sync);
      m.waiters_.push_back(self);
      return true;
    }
    void await_resume() noexcept {}
  };

  Lock lock() { return Lock{*this}; }

  void unlock() {
    std::coroutine_handle<> next;
    {
      std::lock_guard lock(mu_);
      if (waiters_.empty()) {
        locked_ = false;
        return;
      }
      next = waiters_.front();  // the lock passes to it still held
      waiters_.pop_front();
    }
    trace::go_unblock(goroutine_of(next));
    Scheduler::current()->ready(next);
  }

 private:
  std::mutex mu_;
  bool locked_ = false;
  std::deque<std::coroutine_handle<>> waiters_;
};

}  // namespace sched
