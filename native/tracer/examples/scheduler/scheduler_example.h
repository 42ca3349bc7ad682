// The scheduler example's workload: coroutine jobs on the work-stealing scheduler,
// exchanging values over channels, sharing state under a job mutex, sleeping on timers,
// making system calls and annotating their work with tasks, regions and logs.
//
//   generator --numbers--> squarers (mutex-protected tally) --results--> collector
//   + a fan-out of short jobs, and a ping-pong pair exchanging messages
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "channel.h"
#include "gotrace/tracer/annotations.h"
#include "mutex.h"
#include "scheduler.h"

namespace scheduler_example {

namespace trace = gotrace::tracer;

struct Config {
  int workers = 2;
  int numbers = 20000;      // values through the pipeline
  int squarers = 4;
  std::chrono::microseconds work{20};  // CPU time per value
  int fanout = 10000;       // short jobs spawned in the fan-out
  std::chrono::microseconds fanout_work{2};
  int pingpong = 10000;     // round trips of the ping-pong pair
};

struct Result {
  uint64_t sum = 0;      // of the squares, as the collector saw them
  uint64_t tally = 0;    // of the squares, as the squarers counted them under the mutex
  uint64_t fanout = 0;   // fan-out jobs that ran
  uint64_t pongs = 0;
  uint64_t jobs = 0;     // jobs that ended
};

// Spins for `d`, doing arithmetic the compiler cannot drop.
inline uint64_t burn(std::chrono::nanoseconds d, uint64_t seed) {
  auto end = std::chrono::steady_clock::now() + d;
  uint64_t x = seed | 1;
  do {
    for (int i = 0; i < 16; i++) x = x * 6364136223846793005ull + 1442695040888963407ull;
  } while (std::chrono::steady_clock::now() < end);
  return x;
}

struct State {
  Config config;
  trace::Task task;
  sched::Channel<uint64_t> numbers{16};
  sched::Channel<uint64_t> results{16};
  sched::Mutex mu;
  uint64_t tally = 0;  // under mu
  std::atomic<int> squarers_left{0};
  std::atomic<uint64_t> sum{0}, fanout{0}, pongs{0};
  int devnull = -1;
};

inline sched::Job generator(State& s) {
  trace::Region region(s.task, "generate");
  for (int i = 1; i <= s.config.numbers; i++) {
    co_await s.numbers.send(uint64_t(i));
    if (i % 256 == 0) co_await sched::yield();
  }
  s.numbers.close();
}

inline sched::Job squarer(State& s, int index) {
  uint64_t mine = 0;
  while (auto v = co_await s.numbers.recv()) {
    uint64_t sq;
    {
      trace::Region region(s.task, "square");
      burn(s.config.work, *v);
      sq = *v * *v;
    }
    co_await s.mu.lock();
    s.tally += sq;
    s.mu.unlock();
    co_await s.results.send(sq);
    mine++;
  }
  trace::log(s.task, "squarer", "squarer " + std::to_string(index) + " squared " + std::to_string(mine) + " numbers");
  if (s.squarers_left.fetch_sub(1) == 1) s.results.close();
}

inline sched::Job collector(State& s) {
  trace::Task collect = trace::Task::begin("collect", s.task);
  uint64_t n = 0;
  while (auto v = co_await s.results.recv()) {
    s.sum += *v;
    if (++n % 500 == 0) {
      trace::log(collect, "collector", std::to_string(n) + " results");
      std::string line = std::to_string(s.sum.load()) + "\n";
      {
        // A system call: the job keeps its worker and proc meanwhile.
        trace::SyscallScope sys;
        (void)!write(s.devnull, line.data(), line.size());
      }
      co_await sched::sleep_for(std::chrono::microseconds(200));
    }
  }
  collect.end();
}

inline sched::Job short_job(State& s, uint64_t i) {
  burn(s.config.fanout_work, i);
  s.fanout++;
  co_return;
}

inline sched::Job spawner(State& s) {
  trace::Region region(s.task, "fan-out");
  for (int i = 0; i < s.config.fanout; i++) {
    sched::Scheduler::current()->spawn(short_job(s, uint64_t(i)), "short job");
    if (i % 64 == 63) co_await sched::yield();
  }
}

inline sched::Job ping(State& s, sched::Channel<int>& out, sched::Channel<int>& in) {
  for (int i = 0; i < s.config.pingpong; i++) {
    co_await out.send(i);
    auto v = co_await in.recv();
    if (v) s.pongs++;
  }
  out.close();
}

inline sched::Job pong(sched::Channel<int>& in, sched::Channel<int>& out) {
  while (auto v = co_await in.recv()) co_await out.send(*v);
}

inline Result run(const Config& config) {
  State s;
  s.config = config;
  s.devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
  s.task = trace::Task::begin("scheduler example");
  s.squarers_left = config.squarers;
  if (config.squarers == 0) s.results.close();  // (no squarer will)
  sched::Channel<int> to_pong(0), to_ping(0);
  Result r;
  {
    sched::Scheduler scheduler(config.workers);
    scheduler.spawn(generator(s), "generator");
    for (int i = 0; i < config.squarers; i++) scheduler.spawn(squarer(s, i), "squarer");
    scheduler.spawn(collector(s), "collector");
    scheduler.spawn(spawner(s), "spawner");
    scheduler.spawn(ping(s, to_pong, to_ping), "ping");
    scheduler.spawn(pong(to_pong, to_ping), "pong");
    scheduler.wait();
    r.jobs = scheduler.jobs_run();
  }
  s.task.end();
  if (s.devnull >= 0) close(s.devnull);
  r.sum = s.sum;
  r.tally = s.tally;
  r.fanout = s.fanout;
  r.pongs = s.pongs;
  return r;
}

}  // namespace scheduler_example
