// A work-stealing scheduler for jobs (job.h), traced through gotrace's scheduler API:
// each worker thread holds a proc while it runs jobs or looks for work and gives it back
// before it sleeps; each job is a goroutine created, started, stopped (yield), blocked
// (channel, mutex, sleep) and unblocked by whoever wakes it, and ended.
//
// Each worker has its own run queue; a worker out of work takes from the shared queue
// (jobs spawned from outside and yields), then steals from the other workers, then
// sleeps until a job is queued or a timer is due.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <coroutine>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <queue>
#include <string>
#include <thread>
#include <vector>

#include "gotrace/tracer/threads.h"
#include "job.h"

namespace sched {

namespace trace = gotrace::tracer;
using Clock = std::chrono::steady_clock;

class Scheduler {
 public:
  explicit Scheduler(int workers);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Hands `job` to the scheduler: a new goroutine named `name`, ready to run.
  void spawn(Job job, const char* name);
  // Blocks the calling (non-worker) thread until every job has ended.
  void wait();

  // A suspended job may run again (queued on this worker, or shared if off-worker).
  void ready(std::coroutine_handle<> h);
  // `h` (already reported blocked) becomes runnable at `when`.
  void wake_at(Clock::time_point when, std::coroutine_handle<> h);

  static Scheduler* current();  // the scheduler of the calling worker, if any

  int workers() const { return int(workers_.size()); }
  uint64_t jobs_run() const { return jobs_run_.load(std::memory_order_relaxed); }

 // One worker thread: its proc and its run queue.
  struct Worker {
    Scheduler* owner = nullptr;
    int index = 0;
    trace::Proc proc;
    std::mutex mu;
    std::deque<std::coroutine_handle<>> queue;
    std::thread thread;
  };
 private:
  friend struct Job::promise_type::FinalAwaiter;

  struct Timer {
    Clock::time_point when;
    std::coroutine_handle<> h;
    bool operator>(const Timer& o) const { return when > o.when; }
  };

  void run_worker(Worker& w);
  std::coroutine_handle<> find_work(Worker& w);
  bool fire_timers(Worker& w);
  void notify_one();
  void job_done();

  std::vector<std::unique_ptr<Worker>> workers_;
  std::mutex shared_mu_;
  std::deque<std::coroutine_handle<>> shared_;
  std::mutex timer_mu_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  std::atomic<int64_t> queued_{0};   // jobs in all run queues
  std::atomic<int64_t> timers_pending_{0};

  std::mutex park_mu_;
  std::condition_variable park_cv_;
  std::atomic<int> parked_{0};
  bool stopping_ = false;  // under park_mu_

  std::mutex done_mu_;
  std::condition_variable done_cv_;
  std::atomic<int64_t> live_{0};
  std::atomic<uint64_t> jobs_run_{0};
};

namespace detail {
inline thread_local Scheduler::Worker* t_worker = nullptr;
}

// Awaitables of the scheduler itself.

// Gives the worker to other jobs; this one stays runnable.
struct Yield {
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) {
    trace::go_stop(trace::StopReason::Yield);
    Scheduler::current()->ready(h);  // (may run elsewhere at once: touch nothing after)
  }
  void await_resume() noexcept {}
};
inline Yield yield() { return {}; }

// Sleeps on a timer; the worker runs other jobs meanwhile.
struct SleepFor {
  Clock::duration d;
  bool await_ready() noexcept { return d <= Clock::duration::zero(); }
  void await_suspend(std::coroutine_handle<> h) {
    auto when = Clock::now() + d;
    trace::go_block(trace::BlockReason::Sleep);  // before the timer can wake it
    Scheduler::current()->wake_at(when, h);
  }
  void await_resume() noexcept {}
};
inline SleepFor sleep_for(Clock::duration d) { return {d}; }

// --- implementation ---

inline void Job::promise_type::FinalAwaiter::await_suspend(std::coroutine_handle<promise_type> h) noexcept {
  Scheduler* s = h.promise().scheduler;
  trace::go_end();
  h.destroy();
  s->job_done();
}

inline Scheduler::Scheduler(int workers) {
  for (int i = 0; i < workers; i++) {
    auto w = std::make_unique<Worker>();
    w->owner = this;
    w->index = i;
    workers_.push_back(std::move(w));
  }
  for (auto& w : workers_) w->thread = std::thread([this, wp = w.get()] { run_worker(*wp); });
}

inline Scheduler::~Scheduler() {
  {
    std::lock_guard lock(park_mu_);
    stopping_ = true;
  }
  park_cv_.notify_all();
  for (auto& w : workers_) w->thread.join();
}

inline Scheduler* Scheduler::current() { return detail::t_worker ? detail::t_worker->owner : nullptr; }

inline void Scheduler::spawn(Job job, const char* name) {
  Job::Handle h = job.release();
  h.promise().scheduler = this;
  h.promise().goroutine.set_name(name);
  live_.fetch_add(1, std::memory_order_relaxed);
  trace::go_create(h.promise().goroutine);
  ready(h);
}

inline void Scheduler::ready(std::coroutine_handle<> h) {
  Worker* w = detail::t_worker;
  if (w && w->owner == this) {
    std::lock_guard lock(w->mu);
    w->queue.push_back(h);
  } else {
    std::lock_guard lock(shared_mu_);
    shared_.push_back(h);
  }
  // Sequentially consistent with the parking worker's check (see run_worker).
  queued_.fetch_add(1, std::memory_order_seq_cst);
  notify_one();
}

inline void Scheduler::notify_one() {
  if (parked_.load(std::memory_order_seq_cst) > 0) {
    std::lock_guard lock(park_mu_);
    park_cv_.notify_one();
  }
}

inline void Scheduler::wake_at(Clock::time_point when, std::coroutine_handle<> h) {
  {
    std::lock_guard lock(timer_mu_);
    timers_.push(Timer{when, h});
  }
  timers_pending_.fetch_add(1, std::memory_order_release);
  notify_one();
}

inline void Scheduler::job_done() {
  jobs_run_.fetch_add(1, std::memory_order_relaxed);
  if (live_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    std::lock_guard lock(done_mu_);
    done_cv_.notify_all();
  }
}

inline void Scheduler::wait() {
  std::unique_lock lock(done_mu_);
  trace::wait(done_cv_, lock, [&] { return live_.load(std::memory_order_acquire) == 0; });
}

// Moves due timers' jobs to this worker's queue: the worker wakes them.
inline bool Scheduler::fire_timers(Worker& w) {
  if (timers_pending_.load(std::memory_order_acquire) == 0) return false;
  std::vector<std::coroutine_handle<>> due;
  {
    std::lock_guard lock(timer_mu_);
    auto now = Clock::now();
    while (!timers_.empty() && timers_.top().when <= now) {
      due.push_back(timers_.top().h);
      timers_.pop();
    }
  }
  if (due.empty()) return false;
  timers_pending_.fetch_sub(int64_t(due.size()), std::memory_order_relaxed);
  for (auto h : due) {
    trace::go_unblock(goroutine_of(h));
    std::lock_guard lock(w.mu);
    w.queue.push_back(h);
    queued_.fetch_add(1, std::memory_order_seq_cst);
  }
  return true;
}

inline std::coroutine_handle<> Scheduler::find_work(Worker& w) {
  fire_timers(w);
  auto take = [&](std::mutex& mu, std::deque<std::coroutine_handle<>>& q) -> std::coroutine_handle<> {
    std::lock_guard lock(mu);
    if (q.empty()) return {};
    auto h = q.front();
    q.pop_front();
    queued_.fetch_sub(1, std::memory_order_relaxed);
    return h;
  };
  if (auto h = take(w.mu, w.queue)) return h;
  if (auto h = take(shared_mu_, shared_)) return h;
  // Steal, starting after ourselves so workers do not all pick the same victim.
  size_t n = workers_.size();
  for (size_t i = 1; i < n; i++) {
    Worker& v = *workers_[(size_t(w.index) + i) % n];
    if (auto h = take(v.mu, v.queue)) return h;
  }
  return {};
}

inline void Scheduler::run_worker(Worker& w) {
  trace::WorkerThread role;
  detail::t_worker = &w;
  trace::proc_start(w.proc);
  for (;;) {
    if (auto h = find_work(w)) {
      trace::go_start(goroutine_of(h));
      h.resume();  // until the job waits, yields or ends (it reports which)
      continue;
    }
    std::unique_lock lock(park_mu_);
    if (queued_.load(std::memory_order_acquire) > 0) continue;
    if (stopping_) break;
    Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(10);
    if (timers_pending_.load(std::memory_order_acquire) > 0) {
      std::lock_guard tl(timer_mu_);
      if (!timers_.empty()) {
        if (timers_.top().when <= Clock::now()) continue;
        deadline = std::min(deadline, timers_.top().when);
      }
    }
    // Out of work: give the proc back while asleep.
    trace::proc_stop();
    parked_.fetch_add(1, std::memory_order_seq_cst);
    if (queued_.load(std::memory_order_seq_cst) == 0) park_cv_.wait_until(lock, deadline);
    parked_.fetch_sub(1, std::memory_order_relaxed);
    lock.unlock();
    trace::proc_start(w.proc);
  }
  trace::proc_stop();
  detail::t_worker = nullptr;
}

}  // namespace sched
