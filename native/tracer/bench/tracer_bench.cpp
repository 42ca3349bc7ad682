// tracer-bench: what tracing costs. Prints
//   - the cost of one event without a stack and with a 16-frame stack (p50, p99, p99.9);
//   - the scheduler example's throughput with tracing off and on: short jobs, ping-pong;
//   - bytes per event in the examples' traces;
//   - events per second written by 1 and 2 threads.
// Figures depend on the machine: run it on an idle one (it says how many CPUs it has).
//
// `tracer-bench vs-go [--pairs N] [--trace-dir DIR] WORKLOAD...` prints, instead, the
// raw figures scripts/bench-tracer-vs-go.sh compares with Go's tracer on the same
// workloads (native/tracer/bench/go), one line each:
//   pair WORKLOAD OFF ON         CPU ns per operation of an untraced and a traced run
//   trace WORKLOAD OPS FILE      a traced run written to FILE (with --trace-dir)
//   cost off|shallow|stack16 P50 P99 P999   ns per region event
// Workloads: jobs-1us, jobs-10us, pingpong, thread-pingpong, cost.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <cstdio>
#include <cstring>
#include <functional>
#include <cstdlib>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include "gotrace/tracer/tracer.h"
#include "scheduler/scheduler_example.h"
#include "threads/threads_example.h"

namespace trace = gotrace::tracer;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

// A sink that keeps nothing: the benchmark measures the tracer, not a disk.
std::unique_ptr<trace::Sink> discard() {
  return trace::callback_sink([](std::span<const uint8_t>) { return true; });
}

double ns_since(Clock::time_point t0) { return std::chrono::duration<double, std::nano>(Clock::now() - t0).count(); }

struct Percentiles {
  double p50, p99, p999;
};

Percentiles percentiles(std::vector<double>& v) {
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[std::min(v.size() - 1, size_t(q * double(v.size())))]; };
  return {at(0.50), at(0.99), at(0.999)};
}

constexpr int kBatch = 32;  // region begin/end pairs per timed sample: 64 events

// Per-event cost, from timing batches of 64 events: a batch's time / 64. A batch that
// starts a new 64 KiB buffer carries that cost, which shows in the high percentiles.
// Percentiles are the best of 5 runs, since other work on the machine only adds time.
[[gnu::noinline]] void time_events(std::vector<double>& out, int samples) {
  for (int s = 0; s < samples; s++) {
    auto t0 = Clock::now();
    for (int i = 0; i < kBatch; i++) {
      trace::Region r("bench");
    }
    out.push_back(ns_since(t0) / (2 * kBatch));
  }
}

// 16 frames of calls, then the timed events.
template <int N>
[[gnu::noinline]] void deep(std::vector<double>& out, int samples) {
  if constexpr (N == 0) {
    time_events(out, samples);
  } else {
    deep<N - 1>(out, samples);
    asm volatile("");
  }
}

// The best of 5 runs: other work on the machine only ever adds time.
Percentiles best_of(Percentiles a, Percentiles b) {
  return {std::min(a.p50, b.p50), std::min(a.p99, b.p99), std::min(a.p999, b.p999)};
}

Percentiles measure_event_cost(bool stacks) {
  trace::Options o;
  o.stacks = stacks;
  Percentiles p{1e9, 1e9, 1e9};
  for (int run = 0; run < 5; run++) {
    trace::start(discard(), o);
    std::vector<double> warm, v;
    deep<14>(warm, 2000);  // 14 + deep<0> + time_events ~ 16 frames above the call
    deep<14>(v, 40000);
    trace::stop();
    p = best_of(p, percentiles(v));
  }
  return p;
}

void event_cost(bool stacks) {
  Percentiles p = measure_event_cost(stacks);
  std::printf("  one event, %-22s p50 %6.1f ns   p99 %6.1f ns   p99.9 %6.1f ns\n",
              stacks ? "with a 16-frame stack:" : "without a stack:", p.p50, p.p99, p.p999);
}

Percentiles measure_event_cost_off() {
  Percentiles p{1e9, 1e9, 1e9};
  for (int run = 0; run < 5; run++) {
    std::vector<double> v;
    deep<14>(v, 40000);
    p = best_of(p, percentiles(v));
  }
  return p;
}

void event_cost_off() {
  Percentiles p = measure_event_cost_off();
  std::printf("  one call, tracing off:        p50 %6.1f ns   p99 %6.1f ns   p99.9 %6.1f ns\n", p.p50, p.p99, p.p999);
}

// The process's CPU time (all its threads, the tracer's own included).
double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Throughput of a workload (`run_once` does the same work every time and returns how
// many operations it did), tracing off vs on. Runs come in pairs, one off and one on,
// in alternating order (off-on, on-off, ...) so that drifts in machine load hit both
// sides alike; the overhead is the median over pairs of the pair's slowdown, which
// other work on the machine disturbs less than comparing the best runs of each side.
// The spread over pairs shows how noisy the machine was. CPU time (all threads of the
// process) per operation is printed beside it: on a machine shared with other work it
// is steadier than wall time, and it counts the tracer's own threads.
struct Run {
  double rate, cpu_per_op;
};

struct Pair {
  Run off, on;
};

template <class F>
std::vector<Pair> measure_pairs(F& run_once, int pairs) {
  auto run = [&](bool traced) {
    if (traced) trace::start(discard());
    double c0 = cpu_seconds();
    auto t0 = Clock::now();
    double n = run_once();
    double s = ns_since(t0) / 1e9;
    double c = cpu_seconds() - c0;
    if (traced) trace::stop();
    return Run{n / s, c / n * 1e9};
  };
  run(false);  // warm-up: thread stacks, allocator, caches
  std::vector<Pair> out;
  for (int i = 0; i < pairs; i++) {
    bool on_first = i % 2 == 1;
    Run a = run(on_first), b = run(!on_first);
    out.push_back(on_first ? Pair{b, a} : Pair{a, b});
  }
  return out;
}

template <class F>
void overhead(const char* what, const char* unit, F run_once, int pairs) {
  std::vector<double> off, on, slowdown, cpu_off, cpu_on, cpu_slowdown;
  for (const Pair& p : measure_pairs(run_once, pairs)) {
    const Run& r_off = p.off;
    const Run& r_on = p.on;
    off.push_back(r_off.rate);
    on.push_back(r_on.rate);
    slowdown.push_back(100.0 * (r_off.rate / r_on.rate - 1));
    cpu_off.push_back(r_off.cpu_per_op);
    cpu_on.push_back(r_on.cpu_per_op);
    cpu_slowdown.push_back(100.0 * (r_on.cpu_per_op / r_off.cpu_per_op - 1));
  }
  auto [lo, hi] = std::minmax_element(slowdown.begin(), slowdown.end());
  std::printf("  %-36s off %10.0f %s/s   on %10.0f %s/s   overhead %5.1f%% (pairs %.1f..%.1f%%)\n", what,
              median(off), unit, median(on), unit, median(slowdown), *lo, *hi);
  std::printf("  %-36s CPU per op: off %8.1f ns   on %8.1f ns   overhead %5.1f%%\n", "", median(cpu_off),
              median(cpu_on), median(cpu_slowdown));
}

constexpr int kPairs = 9;

// A fixed amount of computation (not of time: preemption must not shorten a job).
[[gnu::noinline]] uint64_t compute(uint64_t iterations, uint64_t seed) {
  uint64_t x = seed | 1;
  for (uint64_t i = 0; i < iterations; i++) x = x * 6364136223846793005ull + 1442695040888963407ull;
  return x;
}

// Iterations of compute() that take `d` on this machine, from the fastest of several
// timings: one that other work on the machine interrupted would make jobs shorter.
uint64_t iterations_for(std::chrono::nanoseconds d) {
  uint64_t n = 1 << 20;
  double best = 1e18;
  for (int i = 0; i < 7; i++) {
    auto t0 = Clock::now();
    volatile uint64_t keep = compute(n, 1);
    (void)keep;
    best = std::min(best, ns_since(t0));
  }
  return uint64_t(double(n) * double(d.count()) / best);
}

std::atomic<uint64_t> g_sink{0};

sched::Job job(uint64_t iterations, uint64_t seed) {
  g_sink += compute(iterations, seed);
  co_return;
}

sched::Job spawner(int n, uint64_t iterations) {
  for (int i = 0; i < n; i++) {
    sched::Scheduler::current()->spawn(job(iterations, uint64_t(i)), "job");
    if (i % 64 == 63) co_await sched::yield();
  }
}

// `jobs` jobs of `iterations` each, spawned by a job, on 2 workers: jobs per second.
double short_jobs(int jobs, uint64_t iterations) {
  sched::Scheduler s(2);
  s.spawn(spawner(jobs, iterations), "spawner");
  s.wait();
  return jobs;
}

double pingpong() {
  scheduler_example::Config c;
  c.workers = 2;
  c.numbers = 0;
  c.squarers = 0;
  c.fanout = 0;
  c.pingpong = 500000;
  auto r = scheduler_example::run(c);
  return double(r.pongs);
}

// Two plain threads passing a token back and forth through a mutex and two condition
// variables, waits traced: each round trip is two blocks and two wakeups.
double thread_pingpong() {
  constexpr int kRounds = 20000;
  std::mutex mu;
  std::condition_variable to_pong, to_ping;
  int turn = 0;  // 0: ping's turn, 1: pong's
  std::thread pong([&] {
    for (int i = 0; i < kRounds; i++) {
      std::unique_lock lock(mu);
      trace::wait(to_pong, lock, [&] { return turn == 1; });
      turn = 0;
      to_ping.notify_one();
    }
  });
  for (int i = 0; i < kRounds; i++) {
    std::unique_lock lock(mu);
    turn = 1;
    to_pong.notify_one();
    trace::wait(to_ping, lock, [&] { return turn == 0; });
  }
  pong.join();
  return kRounds;
}

void bytes_per_event() {
  {
    trace::start(discard());
    scheduler_example::run(scheduler_example::Config());
    trace::Stats st = trace::stop();
    std::printf("  scheduler example: %9llu events, %9llu bytes: %.2f bytes/event\n", (unsigned long long)st.events,
                (unsigned long long)st.bytes, double(st.bytes) / double(st.events));
  }
  {
    trace::start(discard());
    threads_example::run(threads_example::Config());
    trace::Stats st = trace::stop();
    std::printf("  threads example:   %9llu events, %9llu bytes: %.2f bytes/event\n", (unsigned long long)st.events,
                (unsigned long long)st.bytes, double(st.bytes) / double(st.events));
  }
}

void events_per_second(int threads) {
  trace::Options o;
  o.stacks = false;
  // Short generations and room to buffer them: at these rates a 1 s generation outgrows
  // the default buffer limit (Options::max_buffer_bytes) and is dropped whole, and with
  // as many recording threads as cores the writer may fall behind until they stop.
  // Every event recorded here is written.
  o.generation_period = 50ms;
  o.max_buffer_bytes = size_t(1) << 30;
  trace::start(discard(), o);
  std::atomic<bool> go{false};
  std::vector<std::thread> ts;
  std::atomic<uint64_t> total{0};
  const auto d = 300ms;
  for (int i = 0; i < threads; i++) {
    ts.emplace_back([&] {
      while (!go) std::this_thread::yield();
      uint64_t n = 0;
      auto end = Clock::now() + d;
      while (Clock::now() < end) {
        for (int k = 0; k < 256; k++) {
          trace::Region r("bench");
        }
        n += 512;
      }
      total += n;
    });
  }
  auto t0 = Clock::now();
  go = true;
  for (auto& t : ts) t.join();
  double s = ns_since(t0) / 1e9;
  trace::Stats st = trace::stop();
  std::printf("  %d thread%s: %6.1f M events/s (%llu written, %llu dropped)\n", threads, threads > 1 ? "s" : " ",
              double(total) / s / 1e6, (unsigned long long)st.events, (unsigned long long)st.events_dropped);
}

// The workloads that native/tracer/bench/go has in Go, by the names both use.
std::function<double()> vs_go_workload(const std::string& name) {
  static const uint64_t one_us = iterations_for(1us);
  if (name == "jobs-1us") return [] { return short_jobs(200000, one_us); };
  if (name == "jobs-10us") return [] { return short_jobs(20000, 10 * one_us); };
  if (name == "pingpong") return pingpong;
  if (name == "thread-pingpong") return thread_pingpong;
  return nullptr;
}

int vs_go(int argc, char** argv) {
  int pairs = kPairs;
  std::string trace_dir;
  std::vector<std::string> names;
  for (int i = 0; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--pairs" && i + 1 < argc) {
      pairs = std::atoi(argv[++i]);
    } else if (a == "--trace-dir" && i + 1 < argc) {
      trace_dir = argv[++i];
    } else {
      names.push_back(a);
    }
  }
  for (const std::string& name : names) {
    if (name == "cost") {
      auto print = [](const char* what, Percentiles p) {
        std::printf("cost %s %.2f %.2f %.2f\n", what, p.p50, p.p99, p.p999);
      };
      print("off", measure_event_cost_off());
      print("shallow", measure_event_cost(false));
      print("stack16", measure_event_cost(true));
      continue;
    }
    auto run_once = vs_go_workload(name);
    if (!run_once) {
      std::fprintf(stderr, "tracer-bench vs-go: unknown workload %s\n", name.c_str());
      return 2;
    }
    for (const Pair& p : measure_pairs(run_once, pairs))
      std::printf("pair %s %.1f %.1f\n", name.c_str(), p.off.cpu_per_op, p.on.cpu_per_op);
    if (!trace_dir.empty()) {
      std::string file = trace_dir + "/cpp-" + name + ".trace";
      std::string error;
      auto sink = trace::file_sink(file, &error);
      if (!sink || !trace::start(std::move(sink), {}, &error)) {
        std::fprintf(stderr, "tracer-bench vs-go: %s\n", error.c_str());
        return 1;
      }
      double ops = run_once();
      trace::stop();
      std::printf("trace %s %.0f %s\n", name.c_str(), ops, file.c_str());
    }
  }
  return 0;
}

}  // namespace

// tracer-bench [SECTION...]: bytes, cost, overhead, rate; all of them by default.
// tracer-bench vs-go ...: see the top of this file.
int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "vs-go") == 0) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    // The first trace loads the symbolizer; keep that out of the figures.
    trace::start(discard());
    { trace::Region r("warm-up"); }
    trace::stop();
    return vs_go(argc - 2, argv + 2);
  }
  auto wanted = [&](const char* section) {
    if (argc < 2) return true;
    for (int i = 1; i < argc; i++)
      if (std::strcmp(argv[i], section) == 0) return true;
    return false;
  };
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::printf("tracer-bench: %u CPUs\n\n", std::thread::hardware_concurrency());
  // The first trace loads the symbolizer; keep that out of the figures.
  trace::start(discard());
  { trace::Region r("warm-up"); }
  trace::stop();

  // First, in a fresh process: goroutine ids (and so their varints) grow with a process's
  // age, as in Go.
  if (wanted("bytes")) {
    std::printf("Bytes per event (whole trace: events, tables, headers; default options):\n");
    bytes_per_event();
  }

  if (wanted("cost")) {
    std::printf("\nCost per event (a region begin or end; batches of %d events):\n", 2 * kBatch);
    event_cost_off();
    event_cost(false);
    event_cost(true);
  }

  if (wanted("overhead")) {
    // Each run does the same work both ways and lasts ~0.1 s or more untraced.
    std::printf("\nThroughput, tracing off vs on (default options; median of %d interleaved pairs of runs):\n",
                kPairs);
    uint64_t one_us = iterations_for(1us);
    overhead("jobs of ~1 us of work each:", "jobs", [&] { return short_jobs(200000, one_us); }, kPairs);
    overhead("jobs of ~10 us of work each:", "jobs", [&] { return short_jobs(20000, 10 * one_us); }, kPairs);
    overhead("coroutine ping-pong (channels):", "round trips", pingpong, kPairs);
    overhead("thread ping-pong (mutex + condvar):", "round trips", thread_pingpong, kPairs);
  }

  if (wanted("rate")) {
    std::printf("\nEvents per second (no stacks, region begin/end in a loop):\n");
    events_per_second(1);
    events_per_second(2);
  }
  return 0;
}
