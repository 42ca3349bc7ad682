// Critical paths on real traces: they tile their interval, every hand-off is a real
// wake-up or creation in the trace, a goroutine's own path agrees with Go's summary of
// it, and the CLI prints the core's JSON.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>

#include "corpus.h"
#include "gotrace/analysis/critical_path.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/event_view.h"
#include "gotrace/reader.h"
#include "json_parse.h"
#include "reference.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

// Traces of every format family: old v1 (Go 1.5, 1.9), v1 with tasks (Go 1.11, 1.21),
// v2 with tasks, coroutine switches, GC stress, and Go 1.27's format.
const char* const kTraces[] = {"http_1_5_good",        "stress_1_9_good",    "user_task_region_1_11_good",
                               "user_task_region_1_21_good", "go123-workload", "go123-annotations",
                               "go123-iter-pull",      "go123-gc-stress",    "go122-workload",
                               "newest/go127-workload", "newest/go127-annotations-stress.stress",
                               "newest/go127-flightrec.snap2"};

// A corpus trace by name: "NAME" in corpus/go, "newest/NAME" in corpus/newest.
std::string trace_path(const std::string& name) {
  return name.rfind("newest/", 0) == 0 ? newest_path(name.substr(7) + ".trace") : corpus_path(name + ".trace");
}

std::string tiling_problem(const CriticalPath& p) {
  if (p.from == p.to) return p.segments.empty() ? "" : "segments in an empty interval";
  if (p.segments.empty()) return "no segments";
  if (p.segments.front().start != p.from) return "does not start at the interval's start";
  if (p.segments.back().end != p.to) return "does not end at the interval's end";
  for (size_t k = 0; k < p.segments.size(); k++) {
    if (p.segments[k].start >= p.segments[k].end) return "empty segment " + std::to_string(k);
    if (k && p.segments[k - 1].end != p.segments[k].start) return "gap or overlap before segment " + std::to_string(k);
  }
  return "";
}

// True if some event at time t, in the context of goroutine `from`, made `to` runnable
// (an unblock or a creation): what a hand-off from `from` to `to` must stand on.
bool woke_at(const EventStore& s, Time t, GoID from, GoID to) {
  size_t lo = 0, hi = s.size();
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s.time(mid) < t) lo = mid + 1; else hi = mid;
  }
  for (size_t i = lo; i < s.size() && s.time(i) == t; i++) {
    EventView e(s, i);
    if (e.kind() != EventKind::StateTransition || e.goroutine() != from) continue;
    StateTransition st = e.state_transition();
    if (st.resource.kind == ResourceKind::Goroutine && st.resource.id == to &&
        (st.go_from() == GoState::Waiting || st.go_from() == GoState::NotExist)) {
      return true;
    }
  }
  return false;
}

int64_t total_of(const CriticalPath& p, std::initializer_list<PathState> states) {
  int64_t ns = 0;
  for (const PathSegment& s : p.segments) {
    if (std::find(states.begin(), states.end(), s.state) != states.end()) ns += s.duration();
  }
  return ns;
}

}  // namespace

TEST_CASE("critical paths tile their interval and hand off only at wake-ups", "[analysis][critical-path][corpus]") {
  for (const char* name : kTraces) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(trace_path(name)));
      REQUIRE(r.ok());
      const Summary s = summarize(r.store);
      const CriticalPathIndex index = build_critical_path_index(r.store, s);
      size_t paths = 0, handoffs = 0;
      auto check = [&](const PathInterval& i, const std::string& what) {
        const CriticalPath p = critical_path(index, i.goroutine, i.from, i.to, i.end_event);
        INFO(what);
        REQUIRE(tiling_problem(p) == "");
        for (size_t k = 1; k < p.segments.size(); k++) {
          const PathSegment &a = p.segments[k - 1], &b = p.segments[k];
          if (a.goroutine == b.goroutine) continue;
          handoffs++;
          INFO("hand-off from goroutine " << a.goroutine << " to " << b.goroutine << " at " << b.start);
          CHECK(woke_at(r.store, b.start, a.goroutine, b.goroutine));
        }
        CHECK(p.segments.back().goroutine == i.goroutine);
        paths++;
      };
      for (const TaskSummary& t : s.tasks) {
        if (t.complete() && r.store.goroutine(t.end_event) != kNoGoroutine) {
          check(task_path_interval(r.store, t), "task " + std::to_string(t.id));
        }
      }
      size_t step = std::max<size_t>(1, s.goroutines.size() / 300);  // about 300 goroutines a trace
      for (size_t k = 0; k < s.goroutines.size(); k += step) {
        const GoroutineSummary& g = s.goroutines[k];
        const PathInterval i = goroutine_path_interval(s, g);
        if (i.from < i.to) check(i, "goroutine " + std::to_string(g.id));
      }
      CHECK(paths >= 5);
      UNSCOPED_INFO(name << ": " << paths << " paths, " << handoffs << " hand-offs");
      if (std::string(name) != "http_1_5_good" && std::string(name) != "stress_1_9_good") CHECK(handoffs > 0);
    }
  }
}

TEST_CASE("a goroutine's own critical path agrees with Go's summary of it", "[analysis][critical-path][corpus]") {
  // Not following wake-ups, the path of a goroutine's life is its own account: its
  // running, runnable, syscall and blocked time must be what Go's summarizer (checked
  // against Go's references elsewhere) says, for every goroutine whose whole life is in
  // the trace.
  for (const char* name : kTraces) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(trace_path(name)));
      REQUIRE(r.ok());
      const Summary s = summarize(r.store);
      const CriticalPathIndex index = build_critical_path_index(r.store, s);
      size_t compared = 0;
      for (const GoroutineSummary& g : s.goroutines) {
        if (!g.end_time || !g.start_time || g.creation_time <= s.first_time) continue;
        const PathInterval i = goroutine_path_interval(s, g);
        const CriticalPath p = critical_path(index, i.goroutine, i.from, i.to, i.end_event, false);
        INFO("goroutine " << g.id);
        REQUIRE(tiling_problem(p) == "");
        CHECK(p.handoffs == 0);
        CHECK(total_of(p, {PathState::NotInTrace}) == 0);
        CHECK(total_of(p, {PathState::Running, PathState::GCMarkAssist, PathState::GCSweep}) == g.stats.exec);
        CHECK(total_of(p, {PathState::Blocked}) == g.stats.block_total());
        CHECK(total_of(p, {PathState::Runnable, PathState::StopTheWorld, PathState::Syscall}) ==
              g.stats.sched_wait + g.stats.syscall + g.stats.syscall_block);
        compared++;
      }
      UNSCOPED_INFO(name << ": " << compared << " goroutines compared");
      // A flight-recorder snapshot starts mid-run: no goroutine of it lives wholly inside.
      if (s.goroutines.size() > 20 && std::string(name).find("flightrec") == std::string::npos) CHECK(compared > 0);
    }
  }
}

TEST_CASE("gotrace critical-path", "[analysis][critical-path][cli]") {
  const std::string t = "'" + corpus_path("go123-workload.trace") + "'";
  SECTION("a task's path as JSON adds up") {
    std::string out;
    REQUIRE(run_command(cli_path() + " critical-path --json --task=10046 " + t, &out) == 0);
    Json j = Json::parse(out);
    const int64_t duration = j["duration"].int64();
    CHECK(duration == j["to"].int64() - j["from"].int64());
    CHECK(duration > 0);
    int64_t sum = 0;
    for (const Json& seg : j["segments"].elements()) sum += seg["end"].int64() - seg["start"].int64();
    CHECK(sum == duration);
    int64_t by_category = 0;
    for (const Json& c : j["by_category"].elements()) by_category += c["ns"].int64();
    CHECK(by_category == duration);
    CHECK(j["handoffs"].int64() > 0);
    // Every stack a segment names is listed.
    for (const Json& seg : j["segments"].elements()) {
      if (seg["stack"].int64()) CHECK(j["stacks"].has(std::to_string(seg["stack"].int64())));
    }
  }
  SECTION("the slowest tasks of a type, summed") {
    std::string out;
    REQUIRE(run_command(cli_path() + " critical-path --json --task-type=client --slowest=1 " + t, &out) == 0);
    Json j = Json::parse(out);
    CHECK(j["instances"].int64() == 67);  // 1% of the 6,642 client tasks, rounded up
    int64_t sum = 0;
    for (const Json& c : j["by_category"].elements()) sum += c["ns"].int64();
    CHECK(sum == j["durations"]["total"].int64());
    CHECK(j["durations"]["max"].int64() == 12089152);  // the slowest client task (gotrace tasks)
  }
  SECTION("text, regions and goroutines") {
    std::string out;
    REQUIRE(run_command(cli_path() + " critical-path --region=hash#3 " + t, &out) == 0);
    CHECK(out.find("By category:") != std::string::npos);
    REQUIRE(run_command(cli_path() + " critical-path --goroutine=1 " + t, &out) == 0);
    CHECK(out.find("critical path of goroutine 1 ") != std::string::npos);
  }
  SECTION("bad selections get clear errors") {
    std::string out;
    CHECK(run_command(cli_path() + " critical-path --task=999999999 " + t + " 2>&1", &out) != 0);
    CHECK(out.find("no task 999999999") != std::string::npos);
    CHECK(run_command(cli_path() + " critical-path " + t + " 2>&1", &out) != 0);
    CHECK(out.find("give one of") != std::string::npos);
    CHECK(run_command(cli_path() + " critical-path --region=nosuch " + t + " 2>&1", &out) != 0);
    CHECK(out.find("0 region(s) of type 'nosuch'") != std::string::npos);
  }
}
