// Traces of the two examples, read back with gotrace's strict reader: several threads,
// several generations, the goroutines, block reasons, tasks, regions and logs each
// example makes, and as many events read as the tracer says it wrote.
#include <catch2/catch.hpp>

#include <atomic>

#include <chrono>
#include <thread>

#include "../../native/tracer/examples/scheduler/scheduler_example.h"
#include "../../native/tracer/examples/threads/threads_example.h"
#include "corpus.h"
#include "gotrace/tracer/tracer.h"
#include "scratch.h"
#include "trace_summary.h"

namespace trace = gotrace::tracer;
using namespace gotrace::tracer_test;
using namespace std::chrono_literals;

namespace {

trace::Options quick_options() {
  warm_up_tracer();
  trace::Options o;
  o.generation_period = 5ms;
  o.cpu_profile_hz = 500;
  return o;
}

threads_example::Config small_threads() {
  threads_example::Config c;
  c.producers = 2;
  c.consumers = 2;
  c.batches_per_producer = 10;
  c.items_per_batch = 40;
  c.work = 20us;
  c.pause = 1ms;
  return c;
}

scheduler_example::Config small_scheduler() {
  scheduler_example::Config c;
  c.workers = 2;
  c.numbers = 3000;
  c.squarers = 3;
  c.work = 10us;
  c.fanout = 2000;
  c.fanout_work = 1us;
  c.pingpong = 2000;
  return c;
}

// Runs `body` on a thread while this one ends a generation every few milliseconds, so the
// trace has several generations whatever the machine's speed.
template <class F>
void with_generations(F body) {
  std::atomic<bool> done{false};
  std::thread t([&] {
    body();
    done = true;
  });
  int advances = 0;
  while (!done || advances < 3) {
    std::this_thread::sleep_for(3ms);
    trace::advance();
    advances++;
  }
  t.join();
}

// What Go 1.27's validator wants beyond the events, checked without Go: the header says
// Go 1.26; every frame has a function, file, PC and line; each generation's Sync has a
// clock snapshot, non-zero and later than the one before.
void check_go126_rules(const TraceSummary& t) {
  CHECK(t.go_minor == 26);
  CHECK(t.frames > 0);
  CHECK(t.incomplete_frames == 0);
  CHECK(t.clock_snapshots == int(t.generations));
  CHECK(t.bad_clock_snapshots == 0);
}

}  // namespace

TEST_CASE("threads example: goroutines and blocks and syscalls and annotations", "[tracer][examples]") {
  auto mem = std::make_shared<trace::MemorySink>(false);
  REQUIRE(trace::start(trace::shared_sink(mem), quick_options()));
  threads_example::Config c = small_threads();
  threads_example::Result r;
  with_generations([&] { r = threads_example::run(c); });
  trace::Stats st = trace::stop();
  REQUIRE(r.items == uint64_t(c.producers * c.batches_per_producer * c.items_per_batch));

  TraceSummary t = summarize(mem->bytes());
  INFO(t.error);
  REQUIRE(t.ok);
  CHECK(st.events_dropped == 0);
  CHECK(st.misuse == 0);
  // Every event written is read back, plus one Sync per generation.
  CHECK(t.events == st.events + st.generations + 1);
  CHECK(t.generations == st.generations);
  CHECK(t.generations >= 3);
  CHECK(t.threads.size() >= 6);  // the runner, 2 producers, 2 consumers, logger
  for (const char* name : {"producer-0", "producer-1", "consumer-0", "consumer-1", "logger"}) {
    INFO(name);
    CHECK(t.goroutine_names[name] == 1);
  }
  const int batches = c.producers * c.batches_per_producer;
  const int items = batches * c.items_per_batch;
  CHECK(t.block_reasons["sleep"] == batches);
  CHECK(t.block_reasons["sync.(*Cond).Wait"] > 0);
  CHECK(t.block_reasons["network"] >= 1);
  CHECK(t.syscalls >= batches);  // the consumers' writes and the logger's reads
  CHECK(t.tasks["pipeline"] == 1);
  CHECK(t.tasks["batch"] == batches);
  CHECK(t.task_ends == batches + 1);
  CHECK(t.regions["produce"] == items);
  CHECK(t.regions["consume"] == items);
  CHECK(t.region_ends == 2 * items);
  CHECK(t.log_categories["producer"] == batches);
  CHECK(t.ended >= 5);  // the threads that exited
  CHECK(t.cpu_samples == int(st.cpu_samples));
  // Symbolized stacks name the example's own functions.
  int example_functions = 0;
  for (const std::string& f : t.stack_functions) example_functions += f.starts_with("threads_example::");
  CHECK(example_functions > 0);
  check_go126_rules(t);
}

TEST_CASE("scheduler example: jobs as goroutines on worker procs", "[tracer][examples]") {
  auto mem = std::make_shared<trace::MemorySink>(false);
  REQUIRE(trace::start(trace::shared_sink(mem), quick_options()));
  scheduler_example::Config c = small_scheduler();
  scheduler_example::Result r;
  with_generations([&] { r = scheduler_example::run(c); });
  trace::Stats st = trace::stop();
  REQUIRE(r.sum == r.tally);
  REQUIRE(r.fanout == uint64_t(c.fanout));
  REQUIRE(r.pongs == uint64_t(c.pingpong));

  TraceSummary t = summarize(mem->bytes());
  INFO(t.error);
  REQUIRE(t.ok);
  CHECK(st.events_dropped == 0);
  CHECK(st.misuse == 0);
  CHECK(t.events == st.events + st.generations + 1);
  CHECK(t.generations >= 3);
  CHECK(t.threads.size() >= 3);  // the runner and two workers
  CHECK(t.procs.size() >= 3);    // the main thread's and the workers'
  CHECK(t.goroutine_names["generator"] == 1);
  CHECK(t.goroutine_names["squarer"] == c.squarers);
  CHECK(t.goroutine_names["collector"] == 1);
  CHECK(t.goroutine_names["spawner"] == 1);
  CHECK(t.goroutine_names["ping"] == 1);
  CHECK(t.goroutine_names["pong"] == 1);
  CHECK(t.goroutine_names["short job"] == c.fanout);
  // Every job was created and ended in the trace; so did the runner thread's goroutine
  // (it is adopted by a status if it first appears in the trace's first generation).
  CHECK(t.created >= int(r.jobs));
  CHECK(t.created <= int(r.jobs) + 1);
  CHECK(t.ended == int(r.jobs) + 1);
  CHECK(t.block_reasons["chan send"] > 0);
  CHECK(t.block_reasons["chan receive"] > 0);
  CHECK(t.block_reasons["sleep"] == c.numbers / 500);
  CHECK(t.block_reasons["sync.(*Cond).Wait"] == 1);  // the main thread waiting for the jobs
  CHECK(t.stop_reasons["runtime.Gosched"] > 0);
  CHECK(t.syscalls == c.numbers / 500);
  CHECK(t.tasks["scheduler example"] == 1);
  CHECK(t.tasks["collect"] == 1);
  CHECK(t.task_ends == 2);
  CHECK(t.regions["square"] == c.numbers);
  CHECK(t.regions["generate"] == 1);
  CHECK(t.regions["fan-out"] == 1);
  CHECK(t.log_categories["squarer"] == c.squarers);
  CHECK(t.log_categories["collector"] == c.numbers / 500);
  check_go126_rules(t);
}

TEST_CASE("tracing started and stopped repeatedly while the program runs", "[tracer][examples]") {
  // The scheduler runs throughout; three traces start and stop around it, so goroutines
  // and procs that exist before a trace are adopted (by status in a trace's first
  // generation, by creation later).
  scheduler_example::Config c = small_scheduler();
  c.numbers = 12000;
  c.fanout = 6000;
  c.pingpong = 6000;
  // The program runs until the last trace stops (one run can be over in a few ms, and a
  // trace of no events is one empty generation).
  std::atomic<bool> traced{false};
  std::vector<scheduler_example::Result> runs;
  std::thread program([&] {
    do runs.push_back(scheduler_example::run(c));
    while (!traced.load());
  });
  std::vector<std::shared_ptr<trace::MemorySink>> sinks;
  std::vector<trace::Stats> stats;
  trace::Options o = quick_options();
  o.generation_period = 10ms;
  for (int i = 0; i < 3; i++) {
    std::this_thread::sleep_for(10ms);
    sinks.push_back(std::make_shared<trace::MemorySink>(false));
    REQUIRE(trace::start(trace::shared_sink(sinks.back()), o));
    std::string error;
    CHECK_FALSE(trace::start(std::make_unique<trace::MemorySink>(false), o, &error));  // one trace at a time
    CHECK(error == "tracing is already on");
    // Generations end by hand, whatever the machine's load does to the advancer's timer.
    for (int k = 0; k < 3; k++) {
      std::this_thread::sleep_for(10ms);
      trace::advance();
    }
    stats.push_back(trace::stop());
  }
  traced = true;
  program.join();
  for (const scheduler_example::Result& r : runs) REQUIRE(r.sum == r.tally);
  for (size_t i = 0; i < sinks.size(); i++) {
    INFO("trace " << i);
    TraceSummary t = summarize(sinks[i]->bytes());
    INFO(t.error);
    REQUIRE(t.ok);
    CHECK(stats[i].misuse == 0);
    CHECK(stats[i].events_dropped == 0);
    CHECK(t.events == stats[i].events + stats[i].generations + 1);
    CHECK(t.generations >= 4);
  }
}

TEST_CASE("flight recorder: the last generations written on demand", "[tracer][examples][flight]") {
  trace::Options o = quick_options();
  o.generation_period = 10ms;
  o.flight_generations = 3;
  REQUIRE(trace::start(nullptr, o));  // no stream: the flight recorder only
  scheduler_example::Config c = small_scheduler();
  c.numbers = 12000;
  c.fanout = 6000;
  c.pingpong = 6000;
  scheduler_example::Result r;
  std::thread program([&] { r = scheduler_example::run(c); });
  std::this_thread::sleep_for(40ms);
  // Mid-run: the recording starts at some later generation, which must stand on its own.
  trace::MemorySink mid;
  trace::FlightRecording a = trace::write_flight_recording(mid);
  program.join();
  trace::MemorySink end;
  trace::FlightRecording b = trace::write_flight_recording(end);
  trace::Stats st = trace::stop();
  CHECK(st.generations == 0);  // nothing was streamed
  trace::MemorySink after;
  CHECK_FALSE(trace::write_flight_recording(after).ok);

  for (auto* rec : {&a, &b}) {
    INFO(rec->error);
    REQUIRE(rec->ok);
    CHECK(rec->generations >= 1);
    CHECK(rec->generations <= 3);
  }
  TraceSummary ta = summarize(mid.bytes());
  INFO(ta.error);
  REQUIRE(ta.ok);
  CHECK(ta.events == a.events + a.generations + 1);
  CHECK(ta.generations == a.generations);
  TraceSummary tb = summarize(end.bytes());
  INFO(tb.error);
  REQUIRE(tb.ok);
  CHECK(tb.events == b.events + b.generations + 1);
  CHECK(!ta.goroutines.empty());
}

TEST_CASE("Go's own reader and validator accept the examples' traces", "[tracer][examples][oracle]") {
  // Go 1.26's format for Go 1.27's validator, Go 1.23's for Go 1.23's.
  auto [format, minor] = GENERATE(std::pair(trace::Format::go1_26, 26), std::pair(trace::Format::go1_23, 23));
  INFO("go 1." << minor << " format");
  if (!go_oracle_available(minor)) {
    WARN("Go's tools for go 1." << minor << " traces not installed; skipped");
    return;
  }
  struct Case {
    const char* name;
    std::function<void()> run;
  };
  Case cases[] = {
      {"threads", [] { threads_example::run(small_threads()); }},
      {"scheduler", [] { scheduler_example::run(small_scheduler()); }},
  };
  for (const Case& k : cases) {
    INFO(k.name);
    std::string path = gotrace::test::scratch_path(std::string(k.name) + ".trace");
    trace::Options o = quick_options();
    o.format = format;
    REQUIRE(trace::start(trace::file_sink(path), o));
    k.run();
    trace::stop();
    std::string out;
    bool accepted = go_oracle_accepts(path, &out);
    INFO(out);
    CHECK(accepted);
  }
}
