// Starting and stopping traces (Go's StartTrace / StopTrace) and the advancer thread.
#include "gotrace/tracer/tracer.h"

#include <pthread.h>

#include <cstdlib>
#include <mutex>

#include "clock.h"
#include "generation.h"
#include "runtime.h"
#include "write_fence.h"

namespace gotrace::tracer {

namespace detail {

std::atomic<bool> g_enabled{false};
constinit thread_local Binding t_binding = {};
Runtime* g_runtime = nullptr;

Runtime::Runtime() {
  for (int i = 0; i < 2; i++) strings[i].set_output(&full[i]);
}

// Set in a child forked while tracing was on: the tracer's threads did not come with it,
// its locks may have been held at the fork, and the trace is the parent's.
std::atomic<bool> g_forked_child{false};

namespace {

// A child forked while tracing runs untraced: it forgets the trace without touching the
// tracer's locks, and stop() (its exit's too) then does nothing (gotrace-record's child
// handler does the same for a recorded program).
void forget_in_forked_child() {
  if (!g_runtime || g_runtime->gen.load(std::memory_order_relaxed) == 0) return;  // not tracing: nothing held
  g_forked_child.store(true, std::memory_order_relaxed);
  g_enabled.store(false, std::memory_order_relaxed);
  g_runtime->gen.store(0, std::memory_order_relaxed);
  t_thread = nullptr;  // (the forking thread's record is the parent's: its exit hook then does nothing)
  t_binding = {};
}

}  // namespace

Runtime& init_runtime() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_runtime = new Runtime;
    // A program that exits while tracing still gets a complete trace.
    std::atexit([] {
      if (running()) stop();
    });
    pthread_atfork(nullptr, nullptr, forget_in_forked_child);
  });
  return *g_runtime;
}

namespace {

// Wakes every generation period to end the generation, and every 100 ms in between to
// collect CPU samples (Go's traceAdvancer and CPU reader goroutines).
void advancer_loop(std::chrono::nanoseconds period, bool cpu) {
  Runtime& r = rt();
  auto next = std::chrono::steady_clock::now() + period;
  std::unique_lock lock(r.control);
  while (!r.advancer_stop) {
    auto wake = next;
    if (cpu) wake = std::min(wake, std::chrono::steady_clock::now() + std::chrono::milliseconds(100));
    r.advancer_cv.wait_until(lock, wake, [&] { return r.advancer_stop; });
    if (r.advancer_stop) break;
    uint64_t gen = r.gen.load(std::memory_order_relaxed);
    if (gen == 0) break;
    if (std::chrono::steady_clock::now() >= next) {
      advance_generation(false);
      next = std::chrono::steady_clock::now() + period;
    } else if (cpu) {
      collect_cpu_samples(gen);
    }
  }
}

Stats current_stats(Runtime& r) {
  Stats s;
  r.output.add_stats(s);
  s.peak_buffer_bytes = r.pool.peak_bytes();
  s.misuse = r.misuse.load(std::memory_order_relaxed);
  s.cpu_samples_lost = r.cpu_lost.load(std::memory_order_relaxed);
  return s;
}

// Stops every thread's CPU timer (the rings stay; the next trace reuses them).
void stop_cpu_timers(Runtime& r) {
  std::lock_guard lock(r.threads.mutex());
  for (ThreadState* m = r.threads.head(); m; m = m->next) r.cpu.detach(m);
}

}  // namespace
}  // namespace detail

bool start(std::unique_ptr<Sink> sink, const Options& options, std::string* error) {
  using namespace detail;
  auto fail = [&](const char* why) {
    if (error) *error = why;
    return false;
  };
  if (options.generation_period < std::chrono::milliseconds(1)) return fail("generation_period must be at least 1 ms");
  if (options.max_buffer_bytes < 8 * kBatchAllocBytes) return fail("max_buffer_bytes must be at least 512 KiB");
  if (options.cpu_profile_hz < 0 || options.cpu_profile_hz > 10000) return fail("cpu_profile_hz must be 0..10000");
  // A trace that would go nowhere is refused: file_sink gives no sink when it cannot
  // create its file, and `start(file_sink(path))` must not then "trace" silently.
  if (!sink && options.flight_generations == 0)
    return fail("no sink to write the trace to (file_sink gives none when it cannot create its file), and no flight recorder");
  if (g_forked_child.load(std::memory_order_relaxed)) return fail("tracing cannot start in a child forked while its parent traced");
  Runtime& r = init_runtime();
  clock_init();
  init_write_fence();
  std::lock_guard life(r.lifecycle);
  std::lock_guard lock(r.control);
  if (r.gen.load(std::memory_order_relaxed) != 0 || r.advancer.joinable()) return fail("tracing is already on");

  r.options = options;
  r.pool.set_limit(options.max_buffer_bytes);
  r.pool.reset_peak();
  r.misuse.store(0, std::memory_order_relaxed);
  r.cpu_lost.store(0, std::memory_order_relaxed);
  r.procs.reset();
  r.cpu.begin(options.cpu_profile_hz);
  if (options.stacks || options.cpu_profile_hz > 0) r.symbolizer.warm_up();
  size_t flight_bytes = options.flight_max_bytes ? options.flight_max_bytes : options.max_buffer_bytes / 2;
  r.output.begin(std::move(sink), options.format, options.flight_generations, flight_bytes);

  // Generations keep counting across traces (as Go's do), so a thread's state from an
  // earlier trace is recognized by its session, the first generation of its trace.
  uint64_t first = r.last_gen + 1;
  r.session.store(first, std::memory_order_relaxed);
  r.first_task.store(r.next_task.load(std::memory_order_relaxed), std::memory_order_relaxed);
  r.clock = take_clock_snapshot(first);
  // The hint goes up first; the generation, stored after it, is what threads trust.
  g_enabled.store(true, std::memory_order_relaxed);
  r.gen.store(first, std::memory_order_seq_cst);

  r.advancer_stop = false;
  r.advancer = std::thread(advancer_loop, options.generation_period, options.cpu_profile_hz > 0);
  return true;
}

Stats stop() {
  using namespace detail;
  if (!g_runtime || g_forked_child.load(std::memory_order_relaxed)) return {};
  Runtime& r = rt();
  std::lock_guard life(r.lifecycle);
  std::thread advancer;
  {
    std::lock_guard lock(r.control);
    if (r.gen.load(std::memory_order_relaxed) == 0) return r.last_stats;
    r.last_gen = r.gen.load(std::memory_order_relaxed);
    advance_generation(true);
    r.advancer_stop = true;
    r.advancer_cv.notify_all();
    advancer = std::move(r.advancer);
  }
  advancer.join();
  r.output.end();
  std::lock_guard lock(r.control);
  stop_cpu_timers(r);
  // Every goroutine record goes back to the table: handles from this trace are stale now.
  r.goroutines.reset();
  r.last_stats = current_stats(r);
  return r.last_stats;
}

bool running() {
  return detail::g_runtime && detail::rt().gen.load(std::memory_order_relaxed) != 0;
}

void advance() {
  using namespace detail;
  if (!g_runtime || g_forked_child.load(std::memory_order_relaxed)) return;
  std::lock_guard lock(rt().control);
  advance_generation(false);
}

Stats stats() {
  using namespace detail;
  if (!g_runtime || g_forked_child.load(std::memory_order_relaxed)) return {};
  Runtime& r = rt();
  std::lock_guard lock(r.control);
  if (r.gen.load(std::memory_order_relaxed) == 0) return r.last_stats;
  return current_stats(r);
}

FlightRecording write_flight_recording(Sink& sink) {
  using namespace detail;
  if (!g_runtime) return {false, 0, 0, 0, "tracing never started"};
  if (g_forked_child.load(std::memory_order_relaxed)) return {false, 0, 0, 0, "a forked child does not trace"};
  Runtime& r = rt();
  {
    std::lock_guard lock(r.control);
    if (r.gen.load(std::memory_order_relaxed) == 0) return {false, 0, 0, 0, "tracing is off"};
    if (r.options.flight_generations == 0) return {false, 0, 0, 0, "the flight recorder is off"};
    advance_generation(false);
  }
  return r.output.write_flight(sink);
}

ClockSnapshot clock_snapshot() {
  using namespace detail;
  if (!g_runtime || g_forked_child.load(std::memory_order_relaxed)) return {};
  std::lock_guard lock(rt().control);
  return rt().clock;
}

}  // namespace gotrace::tracer
