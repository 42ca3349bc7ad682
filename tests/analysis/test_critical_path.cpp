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
#include "gotrace/raw_format.h"
#include "gotrace/v2_spec.h"
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

// A trace in Go's text format with each batch's size computed (the text's sizes are
// ignored): hand-written traces need not count bytes.
std::vector<uint8_t> sized_trace(const std::string& text) {
  std::vector<RawEvent> events;
  const int minor = parse_raw_text(text, [&](const RawEvent& e) { events.push_back(e); });
  std::vector<uint8_t> out = raw_binary_header(minor);
  for (size_t k = 0; k < events.size(); k++) {
    if (events[k].type != v2::EvEventBatch) continue;
    std::vector<uint8_t> body;
    for (size_t j = k + 1; j < events.size() && events[j].type != v2::EvEventBatch; j++) append_raw_binary(body, events[j]);
    events[k].args.back() = body.size();
  }
  for (const RawEvent& e : events) append_raw_binary(out, e);
  return out;
}

TEST_CASE("critical paths tile their interval and hand off only at wake-ups", "[analysis][critical-path][corpus]") {
  // Every task of every corpus trace, and about 300 goroutines of each.
  const std::vector<std::string> traces = every_trace();
  REQUIRE(traces.size() > (corpus_sampled() ? 90 : 100));
  for (const std::string& name : traces) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(trace_path(name)));
      if (!r.ok()) SUCCEED("analysed as far as it reads: " << r.error->what());
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
      UNSCOPED_INFO(name << ": " << paths << " paths, " << handoffs << " hand-offs");
      if (name.find("workload") != std::string::npos) CHECK(handoffs > 1000);
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
        // By reason too: a wait that spans generations keeps the reason it began with
        // (a generation's status repeats the state, with no reason).
        std::map<std::string, int64_t> by_reason, go_by_reason;
        for (const PathSegment& seg : p.segments)
          if (seg.state == PathState::Blocked) by_reason[std::string(seg.reason)] += seg.duration();
        for (const StatEntry& e : g.stats.block)
          if (int64_t ns = e.ns) go_by_reason[std::string(s.block_reasons[e.name])] += ns;
        CHECK(by_reason == go_by_reason);
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

TEST_CASE("a hand-built chain of three goroutines gives the known path", "[analysis][critical-path]") {
  // G1 creates G2 and blocks; G2 creates G3 and blocks; G3 runs 100 ns and wakes G2,
  // which wakes G1. Walking back from G1's end: G1 <- G2 <- G3 <- G2 (its creator) <- G1.
  const char* text =
      "Trace Go1.22\n"
      "EventBatch gen=1 m=0 time=1000 size=0\n"
      "ProcStatus dt=0 p=0 pstatus=1\n"
      "GoStatus dt=0 g=1 m=0 gstatus=2\n"
      "GoCreate dt=10 new_g=2 new_stack=0 stack=0\n"
      "GoBlock dt=10 reason_string=1 stack=0\n"
      "GoStart dt=10 g=2 g_seq=1\n"
      "GoCreate dt=10 new_g=3 new_stack=0 stack=0\n"
      "GoBlock dt=10 reason_string=1 stack=0\n"
      "GoStart dt=10 g=3 g_seq=1\n"
      "GoUnblock dt=100 g=2 g_seq=2 stack=0\n"
      "GoDestroy dt=10\n"
      "GoStart dt=20 g=2 g_seq=3\n"
      "GoUnblock dt=50 g=1 g_seq=1 stack=0\n"
      "GoDestroy dt=10\n"
      "GoStart dt=30 g=1 g_seq=2\n"
      "GoBlock dt=100 reason_string=2 stack=0\n"
      "EventBatch gen=1 m=18446744073709551615 time=1000 size=0\n"
      "Frequency freq=1000000000\n"
      "EventBatch gen=1 m=18446744073709551615 time=1000 size=0\n"
      "Stacks\n"
      "EventBatch gen=1 m=18446744073709551615 time=1000 size=0\n"
      "Strings\n"
      "String id=1\n"
      "\tdata=\"chan receive\"\n"
      "String id=2\n"
      "\tdata=\"sleep\"\n";
  ReadResult r = read_trace(sized_trace(text));
  INFO((r.ok() ? std::string() : std::string(r.error->what())));
  REQUIRE(r.ok());
  const Summary s = summarize(r.store);
  const CriticalPathIndex index = build_critical_path_index(r.store, s);
  // Times from 10 ns before the first GoCreate, as written (the parser moves G1's status,
  // at the batch's start time as the ProcStatus before it, 1 ns later).
  size_t create = 0;
  while (create < r.store.size() && r.store.type(create) != v2::EvGoCreate) create++;
  REQUIRE(create < r.store.size());
  const Time t0 = r.store.time(create) - 10;
  // G1's status, where the path's knowledge of it begins (the reader may move it a
  // nanosecond or two past the batch's start, after the ProcStatus and the Sync).
  size_t status = 0;
  while (status < r.store.size() && r.store.type(status) != v2::EvGoStatus) status++;
  REQUIRE(status < create);
  const Time known = r.store.time(status) - t0;
  REQUIRE((known > 0 && known < 10));

  const CriticalPath p = critical_path(index, 1, t0, t0 + 380);
  struct Want {
    GoID g;
    PathState state;
    Time start, end;
  };
  const std::vector<Want> want = {
      {1, PathState::NotInTrace, 0, known}, {1, PathState::Running, known, 10},   {2, PathState::Runnable, 10, 30}, {2, PathState::Running, 30, 40},
      {3, PathState::Runnable, 40, 60}, {3, PathState::Running, 60, 160}, {2, PathState::Runnable, 160, 190},
      {2, PathState::Running, 190, 240}, {1, PathState::Runnable, 240, 280}, {1, PathState::Running, 280, 380},
  };
  for (const PathSegment& seg : p.segments) {
    UNSCOPED_INFO(seg.goroutine << " " << path_state_name(seg.state) << " " << seg.start - t0 << "-" << seg.end - t0);
  }
  REQUIRE(p.segments.size() == want.size());
  for (size_t k = 0; k < want.size(); k++) {
    INFO("segment " << k);
    CHECK(p.segments[k].goroutine == want[k].g);
    CHECK(p.segments[k].state == want[k].state);
    CHECK(p.segments[k].start - t0 == want[k].start);
    CHECK(p.segments[k].end - t0 == want[k].end);
  }
  CHECK(p.handoffs == 4);
  // Not following, G1's own account: it ran, waited on a channel, was runnable, ran.
  const CriticalPath own = critical_path(index, 1, t0 + known, t0 + 380, kNoEvent, false);
  REQUIRE(own.segments.size() == 4);
  CHECK(own.segments[1].state == PathState::Blocked);
  CHECK(own.segments[1].reason == "chan receive");
  CHECK(own.segments[1].end - own.segments[1].start == 220);
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
  SECTION("a region type by name and pc: one of the types that share a name") {
    // go123-futile-wakeup: four types named "special", two regions each.
    const std::string f = "'" + corpus_path("go123-futile-wakeup.trace") + "'";
    std::string by_name, listing, none, task;  // (run_command appends: one string a run)
    REQUIRE(run_command(cli_path() + " critical-path --json --region-type=special " + f, &by_name) == 0);
    const Json all = Json::parse(by_name);
    CHECK(all["instances"].int64() == 8);
    CHECK_FALSE(all.has("pc"));
    REQUIRE(run_command(cli_path() + " regions --json " + f, &listing) == 0);
    int64_t instances = 0, total = 0;
    int types = 0;
    const Json regions = Json::parse(listing);
    for (const Json& type : regions["types"].elements()) {
      if (type["name"].string() != "special") continue;
      types++;
      std::string paths;
      REQUIRE(run_command(cli_path() + " critical-path --json --region-type=special --region-pc=" +
                              std::to_string(type["pc"].int64()) + " " + f, &paths) == 0);
      const Json j = Json::parse(paths);
      CHECK(j["pc"].int64() == type["pc"].int64());
      CHECK(j["instances"].int64() == type["count"].int64());
      instances += j["instances"].int64();
      total += j["durations"]["total"].int64();
    }
    CHECK(types == 4);
    CHECK(instances == 8);
    CHECK(total == all["durations"]["total"].int64());
    CHECK(run_command(cli_path() + " critical-path --region-type=special --region-pc=0x1 " + f + " 2>&1", &none) != 0);
    CHECK(none.find("no region of type 'special' begun at 0x1 ends in the trace") != std::string::npos);
    CHECK(run_command(cli_path() + " critical-path --task-type=special --region-pc=0x1 " + f + " 2>&1", &task) != 0);
    CHECK(task.find("--region-pc narrows --region-type") != std::string::npos);
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
