// A pipeline of plain std::threads, traced: each thread is a goroutine of its own.
//
//   producers --(bounded queue: mutex + condition variables)--> consumers --(pipe)--> logger
//
// Producers make items in batches (one task per batch, a region per item, a log line per
// batch) and sleep now and then; consumers check items (a region each) and report each
// finished batch to the logger through a pipe (a system call); the logger waits for the
// pipe to be readable (a network-style block). Contended locks, condition waits, sleeps,
// I/O waits and system calls all show in the trace with Go's block reasons.
#pragma once

#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gotrace/tracer/tracer.h"

namespace threads_example {

namespace trace = gotrace::tracer;

struct Config {
  int producers = 2;
  int consumers = 2;
  int batches_per_producer = 50;
  int items_per_batch = 100;
  std::chrono::microseconds work{40};   // CPU time per item, each side
  std::chrono::microseconds pause{2000};  // producers sleep this long after each batch
};

struct Result {
  uint64_t items = 0;
  uint64_t checksum = 0;
  uint64_t reports = 0;  // bytes the logger read
};

struct Item {
  uint64_t value;
  trace::Task batch;
  bool last_in_batch;
};

// Spins for `d` of wall time, doing arithmetic the compiler cannot drop.
inline uint64_t burn(std::chrono::microseconds d, uint64_t seed) {
  auto end = std::chrono::steady_clock::now() + d;
  uint64_t x = seed | 1;
  do {
    for (int i = 0; i < 64; i++) x = x * 6364136223846793005ull + 1442695040888963407ull;
  } while (std::chrono::steady_clock::now() < end);
  return x;
}

class BoundedQueue {
 public:
  explicit BoundedQueue(size_t capacity) : capacity_(capacity) {}

  void push(Item item) {
    auto lock = trace::unique_lock(mu_);
    trace::wait(not_full_, lock, [&] { return items_.size() < capacity_; });
    items_.push_back(item);
    not_empty_.notify_one();
  }
  bool pop(Item& item) {
    auto lock = trace::unique_lock(mu_);
    trace::wait(not_empty_, lock, [&] { return !items_.empty() || closed_; });
    if (items_.empty()) return false;
    item = items_.front();
    items_.pop_front();
    not_full_.notify_one();
    return true;
  }
  void close() {
    std::lock_guard lock(mu_);
    closed_ = true;
    not_empty_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable not_empty_, not_full_;
  std::deque<Item> items_;
  size_t capacity_;
  bool closed_ = false;
};

inline Result run(const Config& config) {
  Result result;
  BoundedQueue queue(16);
  int fds[2];
  if (pipe(fds) != 0) return result;
  std::atomic<uint64_t> items{0}, checksum{0}, reports{0};
  trace::Task job = trace::Task::begin("pipeline");

  std::thread logger([&] {
    trace::set_thread_name("logger");
    char buf[256];
    for (;;) {
      {
        // Waiting for input is a block, as Go's netpoller reports it.
        trace::BlockScope wait(trace::BlockReason::Network);
        pollfd p{fds[0], POLLIN, 0};
        poll(&p, 1, -1);
      }
      ssize_t n;
      {
        trace::SyscallScope sys;
        n = read(fds[0], buf, sizeof buf);
      }
      if (n <= 0) return;
      reports += uint64_t(n);
    }
  });

  std::vector<std::thread> producers;
  for (int p = 0; p < config.producers; p++) {
    producers.emplace_back([&, p] {
      trace::set_thread_name("producer-" + std::to_string(p));
      for (int b = 0; b < config.batches_per_producer; b++) {
        trace::Task batch = trace::Task::begin("batch", job);
        for (int i = 0; i < config.items_per_batch; i++) {
          uint64_t v;
          {
            trace::Region r(batch, "produce");
            v = burn(config.work, uint64_t(p) << 32 | uint64_t(b * config.items_per_batch + i));
          }
          queue.push(Item{v, batch, i + 1 == config.items_per_batch});
        }
        trace::log(batch, "producer", "batch " + std::to_string(b) + " of producer " + std::to_string(p) + " queued");
        trace::sleep_for(config.pause);
      }
    });
  }

  std::vector<std::thread> consumers;
  for (int c = 0; c < config.consumers; c++) {
    consumers.emplace_back([&, c] {
      trace::set_thread_name("consumer-" + std::to_string(c));
      Item item;
      while (queue.pop(item)) {
        uint64_t sum;
        {
          trace::Region r(item.batch, "consume");
          sum = burn(config.work, item.value);
        }
        checksum += sum;
        items++;
        if (item.last_in_batch) {
          // The batch is done: whoever consumes its last item ends its task.
          item.batch.end();
          std::string line = "consumer " + std::to_string(c) + " finished a batch\n";
          trace::SyscallScope sys;
          (void)!write(fds[1], line.data(), line.size());
        }
      }
    });
  }

  for (auto& t : producers) t.join();
  queue.close();
  for (auto& t : consumers) t.join();
  close(fds[1]);
  logger.join();
  close(fds[0]);
  job.end();

  result.items = items;
  result.checksum = checksum;
  result.reports = reports;
  return result;
}

}  // namespace threads_example
