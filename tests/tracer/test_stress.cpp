// Everything at once, for the thread sanitizer (scripts/test-tracer-tsan.sh): plain threads
// blocking and annotating, a scheduler's workers running jobs, CPU samples, the advancer,
// forced generations, flight recordings, threads coming and going, and traces starting
// and stopping underneath. Every trace must read back without error.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdio>
#include <chrono>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "../../native/tracer/examples/scheduler/scheduler_example.h"
#include "gotrace/tracer/tracer.h"
#include "scratch.h"
#include "trace_summary.h"

namespace trace = gotrace::tracer;
using namespace gotrace::tracer_test;
using namespace std::chrono_literals;

namespace {

// A plain thread doing a bit of everything until `stop`.
void plain_thread(int index, std::atomic<bool>& stop, std::mutex& shared) {
  trace::set_thread_name("plain-" + std::to_string(index));
  uint64_t n = 0;
  while (!stop.load(std::memory_order_relaxed)) {
    trace::Task task = trace::Task::begin("work");
    {
      trace::Region r(task, "step");
      auto lock = trace::unique_lock(shared);
      n++;
    }
    if (n % 7 == 0) {
      trace::SyscallScope s;
      std::this_thread::yield();
    }
    if (n % 11 == 0) trace::sleep_for(50us);
    if (n % 13 == 0) trace::log(task, "plain", "step " + std::to_string(n));
    task.end();
    if (n % 16 == 0) std::this_thread::sleep_for(200us);  // paced: coverage, not volume
  }
}

void write_file(const std::string& path, std::span<const uint8_t> bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return;
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

// The rules of Go 1.27's validator checked here, and the validator itself where installed.
void check_go_rules(const TraceSummary& t, std::span<const uint8_t> bytes, const std::string& name) {
  CHECK(t.go_minor == 26);
  CHECK(t.incomplete_frames == 0);
  CHECK(t.clock_snapshots == int(t.generations));
  CHECK(t.bad_clock_snapshots == 0);
  if (!go_oracle_available(26)) return;
  std::string path = gotrace::test::scratch_path(name);
  write_file(path, bytes);
  std::string out;
  bool accepted = go_oracle_accepts(path, &out);
  INFO(out);
  CHECK(accepted);
  if (accepted) std::remove(path.c_str());
  else gotrace::test::keep_scratch();  // (the rejected trace, for a closer look)
}

}  // namespace

TEST_CASE("stress: threads and scheduler and advancer and start/stop together", "[tracer][stress]") {
  trace::Options o;
  o.generation_period = 5ms;
  o.cpu_profile_hz = 1000;
  o.max_buffer_bytes = size_t(16) << 20;
  o.flight_generations = 4;
  std::atomic<bool> stop{false};
  std::atomic<bool> inconsistent{false};
  std::mutex shared;

  std::vector<std::thread> threads;
  for (int i = 0; i < 3; i++) threads.emplace_back(plain_thread, i, std::ref(stop), std::ref(shared));
  // Short-lived threads: they register, trace and exit while generations change.
  std::thread churn([&] {
    int i = 0;
    while (!stop.load(std::memory_order_relaxed)) {
      std::thread t([i] {
        trace::Region r("short-lived");
        trace::log(trace::Task(), "churn", "thread " + std::to_string(i));
      });
      t.join();
      i++;
      std::this_thread::sleep_for(1ms);
    }
  });
  std::thread jobs([&] {
    scheduler_example::Config c;
    c.workers = 3;
    c.numbers = 400;
    c.squarers = 3;
    c.work = 5us;
    c.fanout = 300;
    c.fanout_work = 1us;
    c.pingpong = 300;
    while (!stop.load(std::memory_order_relaxed)) {
      scheduler_example::Result r = scheduler_example::run(c);
      if (r.sum != r.tally) inconsistent = true;
      std::this_thread::sleep_for(2ms);
    }
  });

  warm_up_tracer();  // (loading the symbolizer is slow under the sanitizers)

  int traces = 0;
  for (int cycle = 0; cycle < 4; cycle++) {
    auto mem = std::make_shared<trace::MemorySink>(false);
    REQUIRE(trace::start(trace::shared_sink(mem), o));
    std::this_thread::sleep_for(20ms);
    trace::advance();
    trace::MemorySink flight;
    trace::FlightRecording rec = trace::write_flight_recording(flight);
    std::this_thread::sleep_for(20ms);
    trace::Stats st = trace::stop();
    traces++;

    INFO("trace " << traces << ": " << st.generations << " generations written, " << st.generations_dropped
                   << " dropped, peak buffers " << st.peak_buffer_bytes << " bytes");
    CHECK(st.misuse == 0);
    // Under a sanitizer on a small machine the advancer may not keep up: generations are
    // then dropped whole, counted, and what is written stays exact.
    if (st.events_dropped > 0) CHECK(st.generations_dropped > 0);
    auto bytes = mem->bytes();
    TraceSummary t = summarize(bytes);
    INFO(t.error);
    if (!t.ok) {
      // Kept for a closer look.
      std::string path = gotrace::test::scratch_path("stress-failed.trace");
      write_file(path, bytes);
      gotrace::test::keep_scratch();
      WARN("failed trace kept in " << path);
    }
    REQUIRE(t.ok);
    CHECK(t.events == st.events + st.generations + 1);
    if (st.generations > 0) check_go_rules(t, bytes, "stress-" + std::to_string(traces) + ".trace");
    INFO(rec.error);
    // (Empty only if the last generation before it was dropped.)
    CHECK((rec.ok || st.generations_dropped > 0));
    if (rec.ok) {
      TraceSummary f = summarize(flight.bytes());
      INFO(f.error);
      REQUIRE(f.ok);
      CHECK(f.events == rec.events + rec.generations + 1);
      check_go_rules(f, flight.bytes(), "stress-flight-" + std::to_string(traces) + ".trace");
    }
  }
  stop = true;
  for (auto& t : threads) t.join();
  churn.join();
  jobs.join();
  CHECK_FALSE(inconsistent);
  CHECK(traces == 4);
}
