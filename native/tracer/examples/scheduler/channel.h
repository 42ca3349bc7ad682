// A channel between jobs, with Go's semantics: a buffer of `capacity` values (0: every
// send waits for a receiver), send and receive suspend the job while they cannot proceed,
// close wakes every waiting receiver. A job blocking here is traced with the reason
// "chan send" / "chan receive", reported under the channel's lock before any other job
// can see it waiting; the job that completes the exchange unblocks it.
#pragma once

#include <coroutine>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

#include "scheduler.h"

namespace sched {

template <class T>
class Channel {
 public:
  explicit Channel(size_t capacity) : capacity_(capacity) {}

  struct Send {
    Channel& ch;
    T value;
    std::coroutine_handle<> h{};
    bool await_ready() noexcept { return false; }
    bool await_suspend(std::coroutine_handle<> self) {
      std::unique_lock lock(ch.mu_);
      if (!ch.receivers_.empty()) {
        Recv* r = ch.receivers_.front();
        ch.receivers_.pop_front();
        r->value = std::move(value);
        lock.unlock();
        ch.wake(r->h);
        return false;
      }
      if (ch.buffer_.size() < ch.capacity_) {
        ch.buffer_.push_back(std::move(value));
        return false;
      }
      h = self;
      trace::go_block(trace::BlockReason::ChanSend);
      ch.senders_.push_back(this);
      return true;  // (the lock is released as this returns; touch nothing after)
    }
    void await_resume() noexcept {}
  };

  struct Recv {
    Channel& ch;
    std::optional<T> value{};
    std::coroutine_handle<> h{};
    bool await_ready() noexcept { return false; }
    bool await_suspend(std::coroutine_handle<> self) {
      std::unique_lock lock(ch.mu_);
      if (!ch.buffer_.empty()) {
        value = std::move(ch.buffer_.front());
        ch.buffer_.pop_front();
        // A waiting sender's value takes the freed place.
        if (!ch.senders_.empty()) {
          Send* s = ch.senders_.front();
          ch.senders_.pop_front();
          ch.buffer_.push_back(std::move(s->value));
          lock.unlock();
          ch.wake(s->h);
        }
        return false;
      }
      if (!ch.senders_.empty()) {
        Send* s = ch.senders_.front();
        ch.senders_.pop_front();
        value = std::move(s->value);
        lock.unlock();
        ch.wake(s->h);
        return false;
      }
      if (ch.closed_) return false;
      h = self;
      trace::go_block(trace::BlockReason::ChanRecv);
      ch.receivers_.push_back(this);
      return true;
    }
    // The value, or nothing once the channel is closed and drained.
    std::optional<T> await_resume() { return std::move(value); }
  };

  Send send(T v) { return Send{*this, std::move(v)}; }
  Recv recv() { return Recv{*this}; }

  void close() {
    std::deque<Recv*> waiting;
    {
      std::lock_guard lock(mu_);
      closed_ = true;
      waiting.swap(receivers_);
    }
    for (Recv* r : waiting) wake(r->h);
  }

 private:
  // The waiter was taken off a queue under the lock: this job now owns its wakeup.
  void wake(std::coroutine_handle<> h) {
    trace::go_unblock(goroutine_of(h));
    Scheduler::current()->ready(h);
  }

  std::mutex mu_;
  size_t capacity_;
  std::deque<T> buffer_;
  std::deque<Send*> senders_;
  std::deque<Recv*> receivers_;
  bool closed_ = false;
};

}  // namespace sched
