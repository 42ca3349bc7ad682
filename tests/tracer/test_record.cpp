// gotrace-record on a program that knows nothing of gotrace (record_program/): the trace
// has a goroutine per thread, named as the thread names itself, with each wait recorded
// under Go's reason and about as long as the program made it; it reads to its end with
// gotrace's reader and Go's validators (where installed). Then the flight recorder on
// SIGUSR2, a forked child (untraced), an executed child (traced with --children), a
// terminating signal and _exit.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "corpus.h"
#include "gotrace/event_view.h"
#include "gotrace/reader.h"
#include "sanitizers.h"
#include "scratch.h"
#include "trace_summary.h"

using namespace gotrace;
using namespace gotrace::tracer_test;

namespace {

// One wait of a goroutine: a block (its reason) or a system call ("syscall").
struct Wait {
  std::string kind;
  double ms = 0;
};

struct RecordedTrace {
  bool ok = false;
  std::string error;
  std::map<std::string, std::vector<Wait>> waits;  // by goroutine name
  std::map<std::string, int> goroutines;           // names, with how many goroutines have each
  int ended = 0;
  int cpu_samples = 0;
};

std::string root_function(const EventStore& s, StackID stack) {
  auto frames = s.stacks.frames(stack);
  if (frames.empty()) return {};
  return std::string(s.strings.get(s.stacks.frame(frames.back()).func));
}

RecordedTrace read_recorded(const std::string& path) {
  RecordedTrace t;
  std::vector<uint8_t> bytes = test::read_bytes(path);
  ReadResult r = read_trace(bytes);
  t.ok = r.ok();
  if (r.error) t.error = r.error->what();
  const EventStore& s = r.store;
  std::map<int64_t, std::string> names;
  struct Open {
    std::string kind;
    Time since = 0;
  };
  std::map<int64_t, Open> open;  // a goroutine's wait in progress
  std::map<int64_t, std::vector<Wait>> waits;
  for (size_t i = 0; i < s.size(); i++) {
    EventView ev(s, i);
    if (ev.kind() == EventKind::StackSample) t.cpu_samples++;
    if (ev.kind() != EventKind::StateTransition) continue;
    StateTransition st = ev.state_transition();
    if (st.resource.kind != ResourceKind::Goroutine) continue;
    int64_t g = st.resource.id;
    if (st.has_stack && st.stack != 0 && !names.count(g)) names[g] = root_function(s, st.stack);
    GoState from = st.go_from(), to = st.go_to();
    if (to == GoState::NotExist) t.ended++;
    if (from == GoState::Running && to == GoState::Waiting) open[g] = {std::string(st.reason), ev.time()};
    if (from == GoState::Running && to == GoState::Syscall) open[g] = {"syscall", ev.time()};
    if ((from == GoState::Waiting || from == GoState::Syscall) && to != from && open.count(g)) {
      waits[g].push_back({open[g].kind, double(ev.time() - open[g].since) / 1e6});
      open.erase(g);
    }
  }
  for (auto& [g, name] : names) t.goroutines[name]++;
  for (auto& [g, list] : waits) {
    auto& into = t.waits[names.count(g) ? names[g] : "?"];
    into.insert(into.end(), list.begin(), list.end());
  }
  return t;
}

// The waits of `kind` of the goroutine `name`.
std::vector<double> waits_of(const RecordedTrace& t, const std::string& name, const std::string& kind) {
  std::vector<double> out;
  auto it = t.waits.find(name);
  if (it == t.waits.end()) return out;
  for (const Wait& w : it->second)
    if (w.kind == kind) out.push_back(w.ms);
  return out;
}

// The longest wait of `kind` of `name` (0 if none).
double longest(const RecordedTrace& t, const std::string& name, const std::string& kind) {
  double m = 0;
  for (double ms : waits_of(t, name, kind)) m = std::max(m, ms);
  return m;
}

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

constexpr bool kSanitized = GOTRACE_TEST_SANITIZED;

// Runs `command` under gotrace-record; its output (stdout and stderr) and exit status.
// `env`: variables for the run.
int record_command(const std::string& options, const std::string& command, std::string* out,
                   const std::string& env = "") {
  std::string cmd = env + " GOTRACE_RECORD_PERIOD_MS=20 " + in_quotes(GOTRACE_RECORD_LAUNCHER) + " " + options + " " +
                    command + " 2>&1; echo \"exit status $?\"";
  std::string output;
  test::run_command(cmd, &output);
  if (out) *out = output;
  auto at = output.rfind("exit status ");
  return at == std::string::npos ? -1 : std::stoi(output.substr(at + 12));
}

// The same for the test program in `mode`.
int record(const std::string& options, const std::string& mode, std::string* out, const std::string& env = "") {
  return record_command(options, in_quotes(GOTRACE_RECORD_PROGRAM) + " " + mode, out, env);
}

// The files a recorded child wrote beside `path` (PATH.PID).
std::vector<std::string> children_of(const std::string& path) {
  std::vector<std::string> found;
  for (auto& entry : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path())) {
    std::string name = entry.path().filename().string();
    if (name.rfind(std::filesystem::path(path).filename().string() + ".", 0) == 0) found.push_back(entry.path());
  }
  return found;
}

// Go's validator for the trace's format, where installed: Go 1.27's for Go 1.26 traces,
// Go 1.23's for Go 1.23 traces.
void check_with_go(const std::string& path, int go_minor = 26) {
  CHECK(summarize(test::read_bytes(path)).go_minor == go_minor);
  if (!go_oracle_available(go_minor)) {
    WARN("Go's tools for go 1." << go_minor << " traces not installed (../shared/tools); not checked with Go");
    return;
  }
  std::string out;
  bool accepted = go_oracle_accepts(path, &out);
  INFO(path << ": " << out);
  CHECK(accepted);
}

bool exists(const std::string& path) { return std::filesystem::exists(path); }

}  // namespace

TEST_CASE("gotrace-record: a program's threads, their waits and reasons", "[tracer][record]") {
  std::string path = test::scratch_path("record-waits.trace");
  std::string out;
  int status = record("-o " + in_quotes(path) + " --cpu 1000", "", &out);
  INFO(out);
  REQUIRE(status == 0);
  CHECK(out.find("record-program waits: done") != std::string::npos);
  CHECK(out.find("gotrace-record: wrote " + path) != std::string::npos);
  CHECK(out.find("ThreadSanitizer") == std::string::npos);

  RecordedTrace t = read_recorded(path);
  INFO(t.error);
  REQUIRE(t.ok);
  // A goroutine per thread, named as the thread named itself (the main thread: the
  // program's name), each ended with its thread.
  for (const char* name : {"record-program", "locker", "waiter", "reader", "sleeper", "late"}) {
    INFO(name);
    CHECK(t.goroutines[name] == 1);
  }
  CHECK(t.ended >= 5);
  // Each wait, with Go's reason, at least as long as the program made it (the upper
  // bounds only catch a wait that never ended where it should: the machine may be busy).
  CHECK(longest(t, "locker", "sync") >= 55);
  CHECK(longest(t, "locker", "sync") < 5000);
  CHECK(longest(t, "waiter", "sync.(*Cond).Wait") >= 45);
  CHECK(longest(t, "waiter", "sync.(*Cond).Wait") < 5000);
  CHECK(longest(t, "reader", "syscall") >= 35);
  CHECK(longest(t, "reader", "syscall") < 5000);
  CHECK(longest(t, "reader", "network") >= 25);
  CHECK(longest(t, "reader", "network") < 5000);
  std::vector<double> sleeps = waits_of(t, "sleeper", "sleep");
  REQUIRE(sleeps.size() == 3);
  for (double ms : sleeps) {
    CHECK(ms >= 18);
    CHECK(ms < 5000);
  }
  CHECK(longest(t, "late", "sleep") >= 45);
  // The main thread: its sleeps (60, 50, 40, 30 ms and the waits for the others), its
  // writes to the pipes, and its join of the late thread ("sync", like WaitGroup.Wait).
  CHECK(longest(t, "record-program", "sleep") >= 55);
  CHECK(waits_of(t, "record-program", "syscall").size() >= 2);
  CHECK(longest(t, "record-program", "sync") >= 40);
  // Nothing is recorded of the tracer's own threads.
  CHECK(t.goroutines.size() == 6);
  check_with_go(path);
}

TEST_CASE("gotrace-record: --go 1.23 writes Go 1.23's format", "[tracer][record]") {
  std::string path = test::scratch_path("record-go123.trace");
  std::string out;
  int status = record("-o " + in_quotes(path) + " --go 1.23", "", &out);
  INFO(out);
  REQUIRE(status == 0);
  RecordedTrace t = read_recorded(path);
  INFO(t.error);
  REQUIRE(t.ok);
  CHECK(t.goroutines["record-program"] == 1);
  check_with_go(path, 23);
  CHECK(record("--go 1.24 true", "", &out) == 2);
}

TEST_CASE("gotrace-record: SIGUSR2 writes a flight recording, exit writes nothing", "[tracer][record]") {
  std::string path = test::scratch_path("record-flight.trace");
  std::string out;
  int status = record("-o " + in_quotes(path) + " --flight 3", "flight " + in_quotes(path), &out);
  INFO(out);
  REQUIRE(status == 0);
  CHECK_FALSE(exists(path));
  for (const std::string& file : {path + ".1", path + ".2"}) {
    INFO(file);
    REQUIRE(exists(file));
    RecordedTrace t = read_recorded(file);
    INFO(t.error);
    CHECK(t.ok);
    CHECK(t.goroutines["record-program"] >= 2);  // (the worker threads are unnamed)
    CHECK(waits_of(t, "record-program", "sync").size() + waits_of(t, "record-program", "sleep").size() > 0);
    check_with_go(file);
  }
  CHECK_FALSE(exists(path + ".3"));
  CHECK(out.find("2 flight recording(s) written") != std::string::npos);
}

TEST_CASE("gotrace-record: a forked child runs untraced and the parent's trace stays whole", "[tracer][record]") {
  std::string path = test::scratch_path("record-fork.trace");
  std::string out;
  // Under AddressSanitizer, no leak check at the child's exit: LeakSanitizer walks the
  // loaded modules under the dynamic loader's lock, which another thread of the parent
  // (the recorder's, unwinding a stack) may have held at the fork, and the child hung.
  int status = record("-o " + in_quotes(path), "fork", &out, "ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\"");
  INFO(out);
  REQUIRE(status == 0);
  RecordedTrace t = read_recorded(path);
  INFO(t.error);
  REQUIRE(t.ok);
  // The parent's own waits, before and after the fork, and its wait for the child.
  CHECK(waits_of(t, "record-program", "sync").size() >= 2);
  CHECK(longest(t, "record-program", "syscall") >= 25);
  // One summary: the child wrote nothing.
  CHECK(out.find("gotrace-record: wrote") == out.rfind("gotrace-record: wrote"));
  for (auto& entry : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path())) {
    std::string name = entry.path().filename().string();
    CHECK(name.rfind("record-fork.trace.", 0) != 0);
  }
  check_with_go(path);
}

TEST_CASE("gotrace-record: an executed program is traced only with --children, to FILE.PID", "[tracer][record]") {
  std::string plain = test::scratch_path("record-exec.trace");
  std::string out;
  REQUIRE(record("-o " + in_quotes(plain), "exec", &out) == 0);
  CHECK(read_recorded(plain).ok);
  CHECK(children_of(plain).empty());

  std::string path = test::scratch_path("record-children.trace");
  int status = record("-o " + in_quotes(path) + " --children", "exec", &out);
  INFO(out);
  REQUIRE(status == 0);
  RecordedTrace parent = read_recorded(path);
  CHECK(parent.ok);
  std::vector<std::string> children = children_of(path);
  REQUIRE(children.size() == 1);
  RecordedTrace child = read_recorded(children[0]);
  INFO(child.error);
  REQUIRE(child.ok);
  CHECK(waits_of(child, "sleeper", "sleep").size() == 3);
  check_with_go(children[0]);
}

// A wrapper script, an `env` shebang or a shim executes the program the user meant in
// its own place: the recording follows the process into it.
TEST_CASE("gotrace-record: a program that executes another in its place is recorded as the one it becomes", "[tracer][record]") {
  const std::string program = in_quotes(GOTRACE_RECORD_PROGRAM);
  struct Case {
    const char* name;
    std::string command;
    bool uninstrumented;  // runs programs built without the tests' sanitizer
  };
  const Case cases[] = {
      {"become", program + " become", false},
      // (bash keeps its own environment, built from the one it was given; /bin/true is a
      // child, not recorded without --children.)
      {"shell", "/bin/bash -c " + in_quotes("/bin/true; exec " + std::string(GOTRACE_RECORD_PROGRAM) + " child"), true},
      {"env", "/usr/bin/env " + program + " child", true},
      // An exec that fails: the program goes on, recorded in a new trace.
      {"exec-missing", program + " exec-missing", false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    if (c.uninstrumented && kSanitized) {
      // (A sanitized recorder library cannot load into a program without the
      // sanitizer's runtime: the Release run checks these.)
      WARN(c.name << ": not under a sanitizer");
      continue;
    }
    std::string path = test::scratch_path(std::string("record-becomes-") + c.name + ".trace");
    std::string out;
    int status = record_command("-o " + in_quotes(path), c.command, &out);
    INFO(out);
    CHECK(status == 0);
    RecordedTrace t = read_recorded(path);
    INFO(t.error);
    REQUIRE(t.ok);
    CHECK(waits_of(t, "sleeper", "sleep").size() == 3);
    CHECK(children_of(path).empty());
    check_with_go(path);
  }
}

TEST_CASE("gotrace-record --children: a shell's commands are recorded to FILE.PID, the shell to FILE", "[tracer][record]") {
  if (kSanitized) {
    WARN("not under a sanitizer: its recorder library cannot load into bash (the Release run checks this)");
    return;
  }
  std::string path = test::scratch_path("record-shell-children.trace");
  std::string out;
  // (The builtin last, so that bash forks the program rather than becoming it.)
  const std::string script = "/bin/true; " + std::string(GOTRACE_RECORD_PROGRAM) + " child; true";
  int status = record_command("-o " + in_quotes(path) + " --children", "/bin/bash -c " + in_quotes(script), &out);
  INFO(out);
  REQUIRE(status == 0);
  RecordedTrace shell = read_recorded(path);
  INFO(shell.error);
  REQUIRE(shell.ok);
  CHECK(shell.goroutines["bash"] == 1);
  std::vector<std::string> children = children_of(path);
  REQUIRE(children.size() == 2);
  int with_sleeps = 0;
  for (const std::string& child : children) {
    RecordedTrace t = read_recorded(child);
    INFO(child << ": " << t.error);
    CHECK(t.ok);
    if (waits_of(t, "sleeper", "sleep").size() == 3) with_sleeps++;
  }
  CHECK(with_sleeps == 1);
}

TEST_CASE("gotrace-record: a program that closes every descriptor keeps its files and the trace its own", "[tracer][record]") {
  std::string path = test::scratch_path("record-close-all.trace");
  std::string own = test::scratch_path("record-close-all.out");
  std::string out;
  int status = record("-o " + in_quotes(path), "close-all " + in_quotes(own), &out);
  INFO(out);
  CHECK(status == 0);  // (5: the program's file held something it did not write)
  CHECK(out.find("could not be written") == std::string::npos);
  RecordedTrace t = read_recorded(path);
  INFO(t.error);
  REQUIRE(t.ok);
  CHECK(waits_of(t, "record-program", "sync").size() >= 1);
  check_with_go(path);
}

TEST_CASE("gotrace-record: a program's dup2 onto the trace file's number takes it, the trace moved out of the way",
          "[tracer][record]") {
  std::string path = test::scratch_path("record-dup-onto.trace");
  std::string own = test::scratch_path("record-dup-onto.out");
  std::filesystem::remove(own);
  std::string out;
  int status = record("-o " + in_quotes(path), "dup-onto " + in_quotes(path) + " " + in_quotes(own), &out);
  INFO(out);
  CHECK(status == 0);  // (5: the program's file held something it did not write; 6, 7: see the program)
  RecordedTrace t = read_recorded(path);
  INFO(t.error);
  REQUIRE(t.ok);
  CHECK(waits_of(t, "record-program", "sync").size() >= 1);
  // (Written after the moves too: 20 ms generations, the program's run over 100 ms.)
  CHECK(summarize(test::read_bytes(path)).generations >= 4);
  check_with_go(path);
}

TEST_CASE("gotrace-record: a shell script's `exec 200>FILE` gets its file, the trace its own", "[tracer][record]") {
  if (kSanitized) {
    WARN("not under a sanitizer: its recorder library cannot load into bash (the Release run checks this)");
    return;
  }
  // flock(1)'s idiom. The trace's descriptors were at 200 and up, close-on-exec: bash,
  // finding one there, put it back after the redirection as one of its own, and the
  // script's writes to 200 went into the trace.
  std::string path = test::scratch_path("record-shell-fd200.trace");
  std::string lock = test::scratch_path("record-shell-fd200.lock");
  std::string out;
  const std::string script = "exec 200>" + lock + "; echo mine >&200; /bin/true; echo again >&200";
  int status = record_command("-o " + in_quotes(path), "/bin/bash -c " + in_quotes(script), &out);
  INFO(out);
  REQUIRE(status == 0);
  const std::vector<uint8_t> written = test::read_bytes(lock);
  CHECK(std::string(written.begin(), written.end()) == "mine\nagain\n");
  RecordedTrace t = read_recorded(path);
  INFO(t.error);
  CHECK(t.ok);
  check_with_go(path);
}

TEST_CASE("gotrace-record: a terminating signal writes the trace, then takes its default action", "[tracer][record]") {
  std::string path = test::scratch_path("record-terminate.trace");
  std::string out;
  int status = record("-o " + in_quotes(path), "terminate", &out);
  INFO(out);
  CHECK(status == 128 + 15);  // (the shell's status for SIGTERM)
  RecordedTrace t = read_recorded(path);
  INFO(t.error);
  REQUIRE(t.ok);
  CHECK(waits_of(t, "record-program", "sync").size() >= 1);
  check_with_go(path);
}

// --cpu's ticks are SIGPROFs from the tracer's own timers; the program keeps SIGPROF: a
// program that takes it to clean up and end is not ended by the ticks, and one that
// profiles itself keeps its ticks and its handler.
TEST_CASE("gotrace-record --cpu: a program that takes SIGPROF itself keeps it and is sampled", "[tracer][record]") {
#if GOTRACE_TEST_TSAN
  // ThreadSanitizer's runtime, linked into the program, keeps a table of its own of the
  // program's handlers in front of the recorder's sigaction: the Release and ASan runs
  // check this.
  WARN("not under ThreadSanitizer");
  return;
#endif
  // sigprof-own fails with 3 if no tick reached its handler, 4 if sigaction gave back
  // another handler than the one it set.
  for (const char* mode : {"sigprof-cleanup", "sigprof-own"}) {
    INFO(mode);
    std::string path = test::scratch_path(std::string("record-") + mode + ".trace");
    std::string out;
    int status = record("-o " + in_quotes(path) + " --cpu 1000", mode, &out);
    INFO(out);
    CHECK(status == 0);
    RecordedTrace t = read_recorded(path);
    INFO(t.error);
    REQUIRE(t.ok);
    CHECK(t.cpu_samples >= 5);
    check_with_go(path);
  }
}

TEST_CASE("gotrace-record --cpu: SIGPROF's default action still ends the program, the trace written first", "[tracer][record]") {
  std::string path = test::scratch_path("record-sigprof-default.trace");
  std::string out;
  int status = record("-o " + in_quotes(path) + " --cpu 1000", "sigprof-default", &out);
  INFO(out);
  CHECK(status == 128 + SIGPROF);  // (the shell's status for SIGPROF)
  RecordedTrace t = read_recorded(path);
  INFO(t.error);
  REQUIRE(t.ok);
  CHECK(waits_of(t, "record-program", "sync").size() >= 1);
  check_with_go(path);
}

TEST_CASE("gotrace-record: _exit writes the trace first", "[tracer][record]") {
  std::string path = test::scratch_path("record-exit.trace");
  std::string out;
  int status = record("-o " + in_quotes(path), "_exit", &out);
  INFO(out);
  CHECK(status == 0);
  RecordedTrace t = read_recorded(path);
  INFO(t.error);
  REQUIRE(t.ok);
  CHECK(t.goroutines["record-program"] == 3);
  CHECK(waits_of(t, "record-program", "sleep").size() >= 3);  // (the workers, 50 ms of 1 ms sleeps)
  check_with_go(path);
}

TEST_CASE("gotrace-record: a bad setting is said once and under -q too and the library leaves LD_PRELOAD", "[tracer][record]") {
  // The program runs untraced; the processes it starts (here an executed child, recorded
  // with --children were the settings good) do not load the library to say it again.
  std::string path = test::scratch_path("record-bad-setting.trace");
  std::string out;
  const int status = record("-q --children -o " + in_quotes(path), "exec", &out, "GOTRACE_RECORD_CPU_HZ=abc");
  INFO(out);
  CHECK(status == 0);
  const std::string said = "GOTRACE_RECORD_CPU_HZ=abc: expected a number from 0 to 10000; not recording";
  const size_t first = out.find(said);
  CHECK(first != std::string::npos);
  CHECK(out.find(said, first + 1) == std::string::npos);
  CHECK(!std::filesystem::exists(path));
}
