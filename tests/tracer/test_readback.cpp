// Every trace the tracer writes must read to its end. The workloads of tracer-bench and
// the examples, traced over and over, each trace read back with gotrace's reader: a
// channel ping-pong between coroutines (goroutines handed between workers thousands of
// times a generation), short jobs, a ping-pong between threads, both examples; and a
// process that traces, stops, runs untraced and traces again. Then the same ordering
// rule broken on purpose: the trace stays readable and the breaches are counted.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../../native/tracer/examples/scheduler/scheduler_example.h"
#include "../../native/tracer/examples/threads/threads_example.h"
#include "gotrace/reader.h"
#include "gotrace/tracer/tracer.h"
#include "scratch.h"
#include "trace_summary.h"

namespace trace = gotrace::tracer;
using namespace gotrace::tracer_test;
using namespace std::chrono_literals;

namespace {

// Sanitizers slow the traced code tenfold or more: fewer rounds there (the scenarios
// stay the same). GOTRACE_TRACER_STRESS_SCALE (a percentage) sets it by hand.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr int kDefaultScale = 10;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
constexpr int kDefaultScale = 10;
#else
constexpr int kDefaultScale = 100;
#endif
#else
constexpr int kDefaultScale = 100;
#endif

int scaled(int n) {
  int scale = kDefaultScale;
  if (const char* s = std::getenv("GOTRACE_TRACER_STRESS_SCALE")) scale = std::max(1, std::atoi(s));
  return std::max(1, n * scale / 100);
}

// The ping-pong pair of the scheduler example alone, on two workers (tracer-bench's).
void channel_pingpong(int rounds) {
  scheduler_example::Config c;
  c.workers = 2;
  c.numbers = 0;
  c.squarers = 0;
  c.fanout = 0;
  c.pingpong = rounds;
  scheduler_example::Result r = scheduler_example::run(c);
  CHECK(r.pongs == uint64_t(rounds));
}

sched::Job short_job(std::atomic<uint64_t>& done) {
  done.fetch_add(1, std::memory_order_relaxed);
  co_return;
}
sched::Job spawner(int n, std::atomic<uint64_t>& done) {
  for (int i = 0; i < n; i++) {
    sched::Scheduler::current()->spawn(short_job(done), "job");
    if (i % 64 == 63) co_await sched::yield();
  }
}
void short_jobs(int jobs) {
  std::atomic<uint64_t> done{0};
  {
    sched::Scheduler s(2);
    s.spawn(spawner(jobs, done), "spawner");
    s.wait();
  }
  CHECK(done.load() == uint64_t(jobs));
}

// Two plain threads taking turns through a condition variable.
void thread_pingpong(int rounds) {
  std::mutex mu;
  std::condition_variable to_pong, to_ping;
  int turn = 0;
  std::thread pong([&] {
    for (int i = 0; i < rounds; i++) {
      std::unique_lock lock(mu);
      trace::wait(to_pong, lock, [&] { return turn == 1; });
      turn = 0;
      to_ping.notify_one();
    }
  });
  for (int i = 0; i < rounds; i++) {
    std::unique_lock lock(mu);
    turn = 1;
    to_pong.notify_one();
    trace::wait(to_ping, lock, [&] { return turn == 0; });
  }
  pong.join();
}

void scheduler_example_small() {
  scheduler_example::Config c;
  c.workers = 2;
  c.numbers = scaled(2000);
  c.squarers = 3;
  c.work = 2us;
  c.fanout = scaled(2000);
  c.fanout_work = 1us;
  c.pingpong = scaled(5000);
  scheduler_example::Result r = scheduler_example::run(c);
  CHECK(r.sum == r.tally);
}

void threads_example_small() {
  threads_example::Config c;
  c.producers = 2;
  c.consumers = 2;
  c.batches_per_producer = 4;
  c.items_per_batch = 40;
  c.work = 5us;
  c.pause = 200us;
  threads_example::run(c);
}

struct Workload {
  const char* name;
  std::function<void()> run;
};

std::vector<Workload> workloads() {
  return {
      {"channel ping-pong", [] { channel_pingpong(scaled(40000)); }},
      {"short jobs", [] { short_jobs(scaled(20000)); }},
      {"thread ping-pong", [] { thread_pingpong(scaled(2000)); }},
      {"scheduler example", scheduler_example_small},
      {"threads example", threads_example_small},
  };
}

// Writes an unreadable trace to a file, for a closer look; returns its path.
std::string keep_failed(const std::vector<uint8_t>& bytes) {
  std::string path = gotrace::test::scratch_path("readback-failed.trace");
  gotrace::test::keep_scratch();
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  return path;
}

// Traces `body` into memory with `o`; fails the test, keeping the trace in a file, unless
// gotrace's reader reads it to the end, every event the tracer counted included.
void trace_and_read(const std::string& what, const std::function<void()>& body, const trace::Options& o = {}) {
  auto mem = std::make_shared<trace::MemorySink>(false);
  REQUIRE(trace::start(trace::shared_sink(mem), o));
  body();
  trace::Stats st = trace::stop();
  std::vector<uint8_t> bytes = mem->bytes();
  gotrace::ReadResult r = gotrace::read_trace(bytes);
  INFO(what << ": " << st.events << " events in " << st.generations << " generations, " << st.misuse
            << " misuse; " << r.store.size() << " read");
  if (!r.ok()) {
    FAIL_CHECK("unreadable trace (kept in " << keep_failed(bytes) << "): " << r.error->what());
    return;
  }
  CHECK(st.misuse == 0);
  if (st.events_dropped == 0) CHECK(r.store.size() == st.events + st.generations + 1);
}

}  // namespace

TEST_CASE("readback: every workload's trace reads to its end, run after run", "[tracer][readback]") {
  warm_up_tracer();
  trace::Options one_generation;  // (the default period: most runs fit in one)
  trace::Options many_generations;
  many_generations.generation_period = 2ms;
  const int runs = scaled(30) >= 3 ? 3 : 1;
  for (const Workload& w : workloads()) {
    for (int i = 0; i < runs; i++) {
      trace_and_read(w.name, w.run, i % 2 ? many_generations : one_generation);
    }
  }
}

TEST_CASE("readback: trace, stop, run untraced, trace again (tracer-bench's order)", "[tracer][readback]") {
  // As tracer-bench's overhead runs: a first short trace loads the symbolizer, the
  // workload runs once untraced, then again traced, in one process, several times over.
  for (const Workload& w : workloads()) {
    for (int i = 0; i < 2; i++) {
      trace::start(trace::callback_sink([](std::span<const uint8_t>) { return true; }));
      { trace::Region r("warm-up"); }
      trace::stop();
      w.run();
      trace_and_read(std::string(w.name) + " after an untraced run", w.run);
    }
  }
}

TEST_CASE("readback: a goroutine handed to another worker after a burst on one keeps its order",
          "[tracer][readback]") {
  // A worker that writes events faster than the clock ticks (one unit is ~50 ns) runs its
  // timestamps ahead of the clock, since they strictly increase within its batch; the
  // worker that starts the goroutine next writes the clock's time, earlier. Only the
  // sequence numbers can then order the two, so they must never repeat in a generation.
  const int bursts = scaled(20000);
  trace::Goroutine g("handed over");
  std::mutex mu;
  std::condition_variable cv;
  bool handed = false;
  trace::Options o;
  o.generation_period = 10s;  // one generation
  trace_and_read("burst then hand-over", [&] {
    std::thread a([&] {
      trace::WorkerThread role;
      trace::Proc p;
      trace::proc_start(p);
      trace::go_create(g);
      for (int i = 0; i < bursts; i++) {
        trace::go_start(g);
        trace::go_block(trace::BlockReason::ChanRecv);
        trace::go_unblock(g);
      }
      trace::proc_stop();
      std::lock_guard lock(mu);
      handed = true;
      cv.notify_one();
    });
    std::thread b([&] {
      trace::WorkerThread role;
      {
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return handed; });
      }
      trace::Proc p;
      trace::proc_start(p);
      trace::go_start(g);
      trace::go_end();
      trace::proc_stop();
    });
    a.join();
    b.join();
  }, o);
}

namespace {

// A worker thread holding a proc of its own for `body`.
template <class F>
std::thread worker(F body) {
  return std::thread([body] {
    trace::WorkerThread role;
    trace::Proc p;
    trace::proc_start(p);
    body();
    trace::proc_stop();
  });
}

}  // namespace

TEST_CASE("readback: scheduler calls out of order are counted as misuse, the trace stays readable",
          "[tracer][readback][misuse]") {
  trace::Goroutine g("victim");
  std::mutex mu;
  std::condition_variable cv;
  int step = 0;
  auto wait_for = [&](int s) {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return step >= s; });
  };
  auto go_to = [&](int s) {
    std::lock_guard lock(mu);
    step = s;
    cv.notify_all();
  };
  trace::Stats st;
  auto mem = std::make_shared<trace::MemorySink>(false);
  REQUIRE(trace::start(trace::shared_sink(mem)));
  std::thread a = worker([&] {
    trace::go_create(g);
    trace::go_start(g);
    go_to(1);
    wait_for(2);  // b "wakes" g while it runs: the wake-up was reported too early
    trace::go_block(trace::BlockReason::ChanRecv);
    go_to(3);
    wait_for(4);  // b wakes it twice
    trace::go_start(g);
    trace::go_start(g);  // started twice
    go_to(5);
    wait_for(6);  // b starts it too, while it runs here
    trace::go_end();
    trace::go_end();  // ended twice
  });
  std::thread b = worker([&] {
    wait_for(1);
    trace::go_unblock(g);  // not blocked
    go_to(2);
    wait_for(3);
    trace::go_unblock(g);
    trace::go_unblock(g);  // not blocked any more
    go_to(4);
    wait_for(5);
    trace::Goroutine& same = g;
    trace::go_start(same);  // running on the other worker
    trace::go_block(trace::BlockReason::ChanRecv);
    go_to(6);
  });
  a.join();
  b.join();
  st = trace::stop();
  gotrace::ReadResult r = gotrace::read_trace(mem->bytes());
  INFO((r.error ? r.error->what() : ""));
  CHECK(r.ok());
  CHECK(st.misuse >= 5);
}

TEST_CASE("readback: threads racing on one goroutine are counted as misuse, the trace stays readable",
          "[tracer][readback][misuse]") {
  // The ownership rule broken on purpose: while one worker starts and blocks a goroutine
  // over and over, others unblock and start it whenever they like. Every call they make
  // either is written in an order the reader accepts or is counted and dropped.
  const int rounds = scaled(20000);
  trace::Goroutine g("contended");
  std::atomic<bool> created{false}, done{false};
  std::atomic<int> wakes{0}, thefts{0};  // the others' calls, so that all three overlap
  trace::Options o;
  o.generation_period = 3ms;
  auto mem = std::make_shared<trace::MemorySink>(false);
  REQUIRE(trace::start(trace::shared_sink(mem), o));
  std::thread owner = worker([&] {
    trace::go_create(g);
    created = true;
    for (int i = 0; i < rounds || wakes < rounds / 4 || thefts < rounds / 4; i++) {
      trace::go_start(g);
      trace::go_block(trace::BlockReason::ChanRecv);
      if (i % 3 == 0) trace::go_unblock(g);
    }
    done = true;
  });
  std::thread waker = worker([&] {
    while (!created) std::this_thread::yield();
    while (!done) {
      trace::go_unblock(g);
      wakes++;
    }
  });
  std::thread thief = worker([&] {
    while (!created) std::this_thread::yield();
    while (!done) {
      trace::go_start(g);
      trace::go_stop();
      thefts++;
    }
  });
  owner.join();
  waker.join();
  thief.join();
  trace::Stats st = trace::stop();
  std::vector<uint8_t> bytes = mem->bytes();
  gotrace::ReadResult r = gotrace::read_trace(bytes);
  INFO(st.events << " events, " << st.misuse << " misuse, " << r.store.size() << " read: "
                 << (r.error ? r.error->what() : ""));
  if (!r.ok()) keep_failed(bytes);
  CHECK(r.ok());
  CHECK(st.misuse > 0);
}
