// The tracer's API one piece at a time: the scheduler events a worker reports, plain
// threads, stacks, CPU samples, misuse, options and the clock snapshot.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <cstdio>
#include <fstream>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gotrace/event_view.h"
#include "gotrace/reader.h"
#include "gotrace/tracer/tracer.h"
#include "corpus.h"
#include "sanitizers.h"
#include "scratch.h"
#include "trace_summary.h"

namespace trace = gotrace::tracer;
using namespace gotrace;
using namespace gotrace::tracer_test;
using namespace std::chrono_literals;

namespace {

// Runs `body` under a fresh trace and returns the trace's bytes.
template <class F>
std::vector<uint8_t> record(F body, trace::Options o = {}, trace::Stats* stats = nullptr) {
  auto mem = std::make_shared<trace::MemorySink>(false);
  REQUIRE(trace::start(trace::shared_sink(mem), o));
  body();
  trace::Stats st = trace::stop();
  if (stats) *stats = st;
  return mem->bytes();
}

struct Transition {
  GoState from, to;
  std::string reason;
};

// The state transitions of goroutine `g`, in order.
std::vector<Transition> transitions_of(const EventStore& s, int64_t g) {
  std::vector<Transition> out;
  for (size_t i = 0; i < s.size(); i++) {
    EventView ev(s, i);
    if (ev.kind() != EventKind::StateTransition) continue;
    StateTransition st = ev.state_transition();
    if (st.resource.kind == ResourceKind::Goroutine && st.resource.id == g)
      out.push_back({st.go_from(), st.go_to(), std::string(st.reason)});
  }
  return out;
}

[[gnu::noinline]] void region_in_a_named_function() {
  trace::Region r("named");
  asm volatile("");
}

}  // namespace

TEST_CASE("tracing off: every call is a no-op", "[tracer][api]") {
  REQUIRE_FALSE(trace::running());
  trace::Goroutine g("idle");
  trace::Proc p;
  trace::go_create(g);
  trace::go_unblock(g);
  trace::Task t = trace::Task::begin("off");
  {
    trace::Region r(t, "off");
    trace::BlockScope b(trace::BlockReason::Sync);
    trace::SyscallScope s;
  }
  trace::log(t, "off", "off");
  t.end();
  CHECK(t.id() == 0);
  CHECK(g.id() == 0);
  CHECK(p.id() == -1);
  trace::advance();  // nothing to advance
  trace::MemorySink sink;
  CHECK_FALSE(trace::write_flight_recording(sink).ok);
}

TEST_CASE("options are checked", "[tracer][api]") {
  std::string error;
  trace::Options o;
  o.generation_period = 0ms;
  CHECK_FALSE(trace::start(nullptr, o, &error));
  CHECK(!error.empty());
  o = {};
  o.max_buffer_bytes = 1024;
  CHECK_FALSE(trace::start(nullptr, o, &error));
  o = {};
  o.cpu_profile_hz = -1;
  CHECK_FALSE(trace::start(nullptr, o, &error));
  // No sink (file_sink could not create its file) and no flight recorder: nowhere to write.
  error.clear();
  CHECK_FALSE(trace::start(trace::file_sink("/nonexistent/dir/x.trace"), {}, &error));
  CHECK(error.find("no sink") != std::string::npos);
  o = {};
  o.flight_generations = 2;  // the flight recorder alone is a use
  REQUIRE(trace::start(nullptr, o, &error));
  trace::stop();
  CHECK_FALSE(trace::running());
}

TEST_CASE("a worker's scheduler events become the goroutine's transitions", "[tracer][api]") {
  trace::Goroutine g("job");
  uint64_t id = 0;
  trace::Stats st;
  auto bytes = record(
      [&] {
        std::atomic<int> step{0};
        std::thread worker([&] {
          trace::WorkerThread role;
          trace::Proc p;
          trace::proc_start(p);
          trace::go_create(g);
          id = g.id();
          trace::go_start(g);
          trace::go_block(trace::BlockReason::ChanRecv);
          step = 1;
          while (step != 2) std::this_thread::yield();  // the main thread unblocks g
          trace::go_start(g);
          trace::syscall_enter();
          trace::syscall_exit();
          trace::go_stop();
          trace::go_start(g);
          trace::go_block("custom reason");
          trace::go_unblock(g);
          trace::go_start(g);
          trace::go_end();
          trace::proc_stop();
        });
        while (step != 1) std::this_thread::yield();
        trace::go_unblock(g);  // from a plain thread: its own goroutine and proc appear
        step = 2;
        worker.join();
      },
      {}, &st);
  CHECK(st.misuse == 0);
  ReadResult r = read_trace(bytes);
  INFO((r.error ? r.error->what() : ""));
  REQUIRE(r.ok());
  REQUIRE(id != 0);
  auto ts = transitions_of(r.store, int64_t(id));
  using S = GoState;
  std::vector<std::tuple<S, S, std::string>> want = {
      {S::NotExist, S::Runnable, ""}, {S::Runnable, S::Running, ""},  {S::Running, S::Waiting, "chan receive"},
      {S::Waiting, S::Runnable, ""},  {S::Runnable, S::Running, ""},  {S::Running, S::Syscall, ""},
      {S::Syscall, S::Running, ""},   {S::Running, S::Runnable, "runtime.Gosched"},
      {S::Runnable, S::Running, ""},  {S::Running, S::Waiting, "custom reason"},
      {S::Waiting, S::Runnable, ""},  {S::Runnable, S::Running, ""},  {S::Running, S::NotExist, ""},
  };
  REQUIRE(ts.size() == want.size());
  for (size_t i = 0; i < want.size(); i++) {
    INFO("transition " << i);
    CHECK(ts[i].from == std::get<0>(want[i]));
    CHECK(ts[i].to == std::get<1>(want[i]));
    CHECK(ts[i].reason == std::get<2>(want[i]));
  }
  CHECK(g.id() == 0);  // the trace is over
}

TEST_CASE("a goroutine started often keeps counting its sequence numbers through the generation",
          "[tracer][api]") {
  // A status in the middle of a generation would restart the count, and numbers that
  // repeat leave the reader only timestamps to order other threads' events by.
  constexpr int kRuns = 1000;
  trace::Goroutine g("often");
  uint64_t id = 0;
  trace::Options o;
  o.generation_period = 10s;  // one generation: the numbers only grow
  auto bytes = record(
      [&] {
        std::thread worker([&] {
          trace::WorkerThread role;
          trace::Proc p;
          trace::proc_start(p);
          trace::go_create(g);
          id = g.id();
          for (int i = 0; i < kRuns; i++) {
            trace::go_start(g);
            trace::go_block(trace::BlockReason::ChanRecv);
            trace::go_unblock(g);
          }
          trace::go_start(g);
          trace::go_end();
          trace::proc_stop();
        });
        worker.join();
      },
      o);
  ReadResult r = read_trace(bytes);
  INFO((r.error ? r.error->what() : ""));
  REQUIRE(r.ok());
  int starts = 0, renewals = 0;
  for (const Transition& t : transitions_of(r.store, int64_t(id))) {
    starts += t.from == GoState::Runnable && t.to == GoState::Running;
    renewals += t.from == GoState::Running && t.to == GoState::Running;
  }
  CHECK(starts == kRuns + 1);
  CHECK(renewals == 0);
}

TEST_CASE("a plain thread is a goroutine on a proc of its own", "[tracer][api]") {
  trace::Stats st;
  auto bytes = record(
      [] {
        std::thread t([] {
          trace::set_thread_name("plain worker");
          {
            trace::BlockScope b(trace::BlockReason::Network);
          }
          {
            trace::SyscallScope s;
          }
          std::mutex m;
          std::condition_variable cv;
          std::unique_lock lock(m);
          trace::wait(cv, lock, [] { return true; });  // ready at once: no block
          trace::sleep_for(1ms);
          region_in_a_named_function();
        });
        t.join();
      },
      {}, &st);
  TraceSummary t = summarize(bytes);
  INFO(t.error);
  REQUIRE(t.ok);
  CHECK(st.misuse == 0);
  CHECK(t.goroutine_names["plain worker"] == 1);
  CHECK(t.block_reasons["network"] == 1);
  CHECK(t.block_reasons["sleep"] == 1);
  CHECK(t.block_reasons.size() == 2);
  CHECK(t.syscalls == 1);
  CHECK(t.ended == 1);  // the thread exited
  CHECK(t.regions["named"] == 1);
  CHECK(t.stack_functions.count("(anonymous namespace)::region_in_a_named_function()") == 1);
}

TEST_CASE("a plain thread's first traced call may be a system call", "[tracer][api]") {
  auto bytes = record([] {
    std::thread t([] {
      trace::SyscallScope s;
    });
    t.join();
  });
  TraceSummary t = summarize(bytes);
  INFO(t.error);
  REQUIRE(t.ok);
  CHECK(t.syscalls == 1);
}

TEST_CASE("a region's end names it in the generation it ends in", "[tracer][api]") {
  std::vector<std::string> begins, ends;
  std::vector<uint64_t> end_generations;
  auto bytes = record([] {
    trace::Region same("same generation");
    trace::Region across("across generations");
    { trace::Region inner("same generation"); }
    trace::advance();
    { trace::Region later("same generation"); }
  });
  ReadResult r = read_trace(bytes);
  REQUIRE(!r.error);
  for (size_t i = 0; i < r.store.size(); i++) {
    EventView ev(r.store, i);
    if (ev.kind() == EventKind::RegionBegin) begins.emplace_back(ev.region().type);
    if (ev.kind() == EventKind::RegionEnd) ends.emplace_back(ev.region().type);
  }
  CHECK(begins == std::vector<std::string>{"same generation", "across generations", "same generation", "same generation"});
  // Regions end in reverse order of their beginnings; the outer two end after the advance.
  CHECK(ends == std::vector<std::string>{"same generation", "same generation", "across generations", "same generation"});
}

TEST_CASE("a region begun in an earlier trace ends unrecorded", "[tracer][api]") {
  REQUIRE(trace::start(trace::callback_sink([](std::span<const uint8_t>) { return true; })));
  auto region = std::make_unique<trace::Region>("earlier");
  trace::stop();
  auto bytes = record([&] {
    region.reset();
    trace::Region r("this trace");
  });
  TraceSummary t = summarize(bytes);
  REQUIRE(t.ok);
  CHECK(t.regions.size() == 1);
  CHECK(t.regions["this trace"] == 1);
  CHECK(t.region_ends == 1);
}

TEST_CASE("stacks can be turned off", "[tracer][api]") {
  trace::Options o;
  o.stacks = false;
  auto bytes = record([] { region_in_a_named_function(); }, o);
  TraceSummary t = summarize(bytes);
  REQUIRE(t.ok);
  CHECK(t.regions["named"] == 1);
  CHECK(t.stack_functions.count("(anonymous namespace)::region_in_a_named_function()") == 0);
}

TEST_CASE("CPU samples name the thread and proc and goroutine they interrupted", "[tracer][api]") {
  trace::Options o;
  o.cpu_profile_hz = 1000;
  o.generation_period = 20ms;
  int64_t spinner = 0;
  trace::Stats st;
  auto bytes = record(
      [&] {
        std::thread t([&] {
          trace::Region r("spin");  // makes the thread's goroutine known
          // 200 ms of this thread's CPU time, however busy the machine is.
          auto cpu_ns = [] {
            timespec ts;
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
            return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
          };
          int64_t end = cpu_ns() + 200000000;
          volatile uint64_t x = 0;
          while (cpu_ns() < end)
            for (int i = 0; i < 10000; i++) x = x + 1;
        });
        t.join();
      },
      o, &st);
  ReadResult r = read_trace(bytes);
  REQUIRE(r.ok());
  int samples = 0, attributed = 0;
  for (size_t i = 0; i < r.store.size(); i++) {
    EventView ev(r.store, i);
    if (ev.kind() == EventKind::RegionBegin) spinner = ev.goroutine();
  }
  for (size_t i = 0; i < r.store.size(); i++) {
    EventView ev(r.store, i);
    if (ev.kind() != EventKind::StackSample) continue;
    samples++;
    if (ev.goroutine() == spinner && ev.proc() != kNoProc && ev.thread() != kNoThread) attributed++;
  }
  CHECK(samples == int(st.cpu_samples));
  // The kernel checks CPU timers on its scheduler tick (100 to 1000 Hz), and only while
  // the thread is on a CPU, which bounds the rate: 200 ms of CPU give ~20 to 50 samples
  // on an idle machine, fewer on a busy one.
  CHECK(samples >= 3);
  CHECK(attributed >= samples / 2);
}

TEST_CASE("calls that cannot be traced are counted and not written", "[tracer][api]") {
  trace::Stats st;
  auto bytes = record(
      [] {
        std::thread t([] {
          trace::WorkerThread role;  // a worker with no proc and no goroutine
          trace::Task task = trace::Task::begin("nowhere");
          trace::log(task, "nowhere", "no goroutine runs here");
          trace::go_end();  // nothing to end
        });
        t.join();
      },
      {}, &st);
  CHECK(st.misuse == 3);
  TraceSummary t = summarize(bytes);
  REQUIRE(t.ok);
  CHECK(t.tasks.empty());
  CHECK(t.log_categories.empty());
}

TEST_CASE("generations advance on demand and carry a clock snapshot", "[tracer][api]") {
  trace::Options o;
  o.generation_period = std::chrono::hours(1);  // only explicit advances
  auto mem = std::make_shared<trace::MemorySink>(false);
  REQUIRE(trace::start(trace::shared_sink(mem), o));
  trace::ClockSnapshot first = trace::clock_snapshot();
  for (int i = 0; i < 4; i++) {
    region_in_a_named_function();
    trace::advance();
  }
  trace::ClockSnapshot last = trace::clock_snapshot();
  trace::Stats live = trace::stats();
  trace::Stats st = trace::stop();
  CHECK(st.generations == 5);
  CHECK(live.generations <= 4);
  CHECK(last.generation == first.generation + 4);
  CHECK(last.trace_ticks > first.trace_ticks);
  CHECK(last.mono_ns > first.mono_ns);
  CHECK(first.frequency > 0);
  CHECK(first.wall_sec > 1600000000);
  TraceSummary t = summarize(mem->bytes());
  REQUIRE(t.ok);
  CHECK(t.generations == 5);
  CHECK(t.regions["named"] == 4);
  CHECK(trace::stats().generations == 5);  // the last trace's, after stop
}

TEST_CASE("a trace starts at its first generation with events", "[tracer][api]") {
  // Generations with no event at all (nothing traced yet) are not written ahead of the
  // first with events: Go 1.27's validator would find that one's procs undetermined
  // after the first sync.
  trace::Options o;
  o.generation_period = std::chrono::hours(1);  // only explicit advances
  auto mem = std::make_shared<trace::MemorySink>(false);
  REQUIRE(trace::start(trace::shared_sink(mem), o));
  trace::advance();
  trace::advance();
  std::thread([] { region_in_a_named_function(); }).join();
  trace::Stats st = trace::stop();
  ReadResult r = read_trace(mem->bytes());
  REQUIRE(r.ok());
  REQUIRE(!r.store.generations.empty());
  CHECK(r.store.generations.size() == st.generations);
  CHECK(st.generations < 3);
  CHECK(r.store.generations.front().event_count > 1);  // more than its Sync
  CHECK(summarize(mem->bytes()).regions["named"] == 1);
  if (go_oracle_available(26)) {
    std::string path = test::scratch_path("first-generation-with-events.trace");
    std::vector<uint8_t> bytes = mem->bytes();
    FILE* f = std::fopen(path.c_str(), "wb");
    REQUIRE(f);
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
    std::string out;
    bool accepted = go_oracle_accepts(path, &out);
    INFO(out);
    CHECK(accepted);
  }

  // A trace with no event at all is still one generation long.
  REQUIRE(trace::start(trace::shared_sink(mem = std::make_shared<trace::MemorySink>(false)), o));
  trace::advance();
  st = trace::stop();
  CHECK(st.generations == 1);
  CHECK(summarize(mem->bytes()).generations == 1);
}

TEST_CASE("a child forked while tracing runs untraced: its annotations and stop and exit do not hang", "[tracer][api]") {
#if GOTRACE_TEST_SANITIZED
  // A sanitizer's own allocator and leak check are not fork-safe under clang 14 (a child
  // of busy threads hangs or reports leaks at its exit): the Release run checks this.
  WARN("not under a sanitizer: the Release run checks forks beside busy threads");
  return;
#endif
  // Threads annotate (holding the tracer's locks now and then) while the main thread
  // forks; each child annotates, calls stop() and exits through the atexit handlers. A
  // child that took a lock its parent's thread held at the fork hung there.
  std::atomic<bool> done{false};
  int hung = 0, failed = 0;
  const std::vector<uint8_t> bytes = record([&] {
    std::vector<std::thread> busy;
    for (int k = 0; k < 3; k++) {
      busy.emplace_back([&done] {
        for (int i = 0; !done.load(); i++) {
          trace::Task t = trace::Task::begin("busy");
          trace::Region r(t, "busy");
          trace::log(t, "busy", std::to_string(i));  // (a new string: the string table's lock)
          t.end();
        }
      });
    }
    for (int f = 0; f < 20; f++) {
      pid_t child = fork();
      if (child == 0) {
        { trace::Region r("in the child"); }
        trace::stop();
        std::exit(trace::running() ? 3 : 0);
      }
      int status = 0;
      auto until = std::chrono::steady_clock::now() + 10s;
      while (waitpid(child, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > until) {
          kill(child, SIGKILL);
          waitpid(child, &status, 0);
          hung++;
          break;
        }
        std::this_thread::sleep_for(1ms);
      }
      if (WIFEXITED(status) && WEXITSTATUS(status) != 0) failed++;
    }
    done = true;
    for (auto& t : busy) t.join();
  });
  CHECK(hung == 0);
  CHECK(failed == 0);
  // The parent's trace is whole: it reads to its end, the busy threads' regions in it.
  ReadResult r = read_trace(bytes);
  REQUIRE(r.ok());
  CHECK(r.store.size() > 100);
}

TEST_CASE("a pipe whose reader is gone fails the sink without killing the program", "[tracer][api]") {
  // SIGPIPE's default action ends the process: the tracer's write must not raise it.
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  close(fds[0]);
  struct sigaction was = {};
  sigaction(SIGPIPE, nullptr, &was);
  REQUIRE(was.sa_handler == SIG_DFL);
  REQUIRE(trace::start(trace::fd_sink(fds[1])));
  { trace::Region r("written to no one"); }
  trace::advance();
  const trace::Stats st = trace::stop();
  close(fds[1]);
  CHECK(st.sink_failed);
  sigset_t pending;
  sigpending(&pending);
  CHECK(sigismember(&pending, SIGPIPE) == 0);  // none left to kill the program later
}

TEST_CASE("a program of thousands of live threads is traced within the default memory bound", "[tracer][api]") {
  // Each thread writes a region and waits: its first batch of a generation is small, so
  // 2,000 of them hold a few MiB of the 64 MiB bound (64 KiB each dropped the trace whole
  // past 1,024). Then generations pass while they wait without a word: each needs its
  // thread's statuses in a batch of that thread, small too (64 KiB each dropped every
  // generation past the first).
  constexpr int kThreads = 2000;
  constexpr int kIdleGenerations = 3;
  trace::Stats st;
  std::mutex mu;
  std::condition_variable cv;
  int arrived = 0;
  bool go = false;
  const std::vector<uint8_t> bytes = record([&] {
    std::vector<std::thread> threads;
    for (int k = 0; k < kThreads; k++) {
      threads.emplace_back([&] {
        { trace::Region r("alive"); }
        std::unique_lock lock(mu);
        arrived++;
        cv.notify_all();
        cv.wait(lock, [&] { return go; });
      });
    }
    {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return arrived == kThreads; });
    }
    for (int i = 0; i < kIdleGenerations; i++) trace::advance();
    {
      std::unique_lock lock(mu);
      go = true;
      cv.notify_all();
    }
    for (auto& t : threads) t.join();
  }, {}, &st);
  CHECK(st.events_dropped == 0);
  CHECK(st.generations_dropped == 0);
  CHECK(st.generations >= 1 + kIdleGenerations);
  TraceSummary t = summarize(bytes);
  REQUIRE(t.ok);
  CHECK(t.regions["alive"] == kThreads);
}

TEST_CASE("a file that cannot take a whole generation is cut back to the last whole one", "[tracer][api]") {
  // A full disk, played by a file size limit (in a child process: the limit and the
  // ignored SIGXFSZ are its own). A generation's batches go out in several writes; the
  // one that fails leaves part of them in the file, which then no reader can read.
  const std::string path = test::scratch_path("full-disk.trace");
  constexpr rlim_t kLimit = 200 << 10;
  const pid_t child = fork();
  if (child == 0) {
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit = {kLimit, kLimit};
    setrlimit(RLIMIT_FSIZE, &limit);
    trace::Options o;
    o.generation_period = 1h;
    if (!trace::start(trace::file_sink(path), o)) _exit(2);
    for (int gen = 0; gen < 20; gen++) {
      for (int i = 0; i < 2000; i++) trace::Region r(i % 2 ? "odd" : "even");
      trace::advance();
    }
    const trace::Stats st = trace::stop();
    _exit(st.sink_failed && st.generations > 0 ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  const std::vector<uint8_t> bytes = test::read_bytes(path);
  CHECK(bytes.size() < kLimit);
  ReadResult r = read_trace(bytes);
  INFO((r.error ? r.error->what() : ""));
  CHECK(r.ok());
  CHECK(r.store.size() > 1000);
}

TEST_CASE("regions that overlap without nesting: the one ended out of turn is a misuse and the trace reads to its end", "[tracer][api]") {
  // A begins, B begins, A ends (out of turn), B ends, then C: Go's readers reject an end
  // that is not the innermost open region and read nothing after it.
  trace::Stats st;
  const std::vector<uint8_t> bytes = record([] {
    auto a = std::make_unique<trace::Region>("A");
    auto b = std::make_unique<trace::Region>("B");
    a.reset();
    b.reset();
    { trace::Region c("C"); }
    trace::log(trace::Task(), "after", "the overlap");
  }, {}, &st);
  CHECK(st.misuse == 1);
  TraceSummary t = summarize(bytes);
  INFO(t.error);
  REQUIRE(t.ok);
  CHECK(t.regions["A"] == 1);  // begun, never ended in the trace
  CHECK(t.regions["C"] == 1);
  CHECK(t.region_ends == 2);   // B's and C's
  CHECK(t.log_messages == std::vector<std::string>{"the overlap"});
  if (go_oracle_available(26)) {
    const std::string path = test::scratch_path("overlap.trace");
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    std::string go;
    CHECK(go_oracle_accepts(path, &go));
    INFO(go);
  }
}

TEST_CASE("a task begun in an earlier trace ends unrecorded", "[tracer][api]") {
  // Its end alone read as a task of no type, begun before the trace.
  REQUIRE(trace::start(trace::callback_sink([](std::span<const uint8_t>) { return true; })));
  trace::Task earlier = trace::Task::begin("earlier");
  trace::stop();
  auto bytes = record([&] {
    earlier.end();
    trace::Task::begin("this trace").end();
  });
  TraceSummary t = summarize(bytes);
  REQUIRE(t.ok);
  CHECK(t.tasks.size() == 1);
  CHECK(t.tasks["this trace"] == 1);
  CHECK(t.task_ends == 1);
}
