// The SQL tables (analysis/sql_tables.h) against the CLI's outputs, on every corpus
// trace: events by kind = `gotrace stats --json`; goroutines, tasks and regions =
// `gotrace goroutines|tasks|regions --json`; g_transitions summed per goroutine and
// figure = the goroutines' figures.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

#include "corpus.h"
#include "gotrace/event_view.h"
#include "gotrace/session.h"
#include "json_parse.h"
#include "trace_builder.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

// Runs `check(path)` in a section of its own for each corpus trace (over 100; a sample
// under the sanitizers).
template <class Check>
void for_each_corpus_trace(Check&& check) {
  const auto paths = every_trace_path();
  REQUIRE(paths.size() >= 80);
  for (const std::string& path : paths) {
    DYNAMIC_SECTION(std::filesystem::path(path).filename().string()) { check(path); }
  }
}

Json cli_json(const std::string& command, const std::string& path) {
  // (It prints what it read of an invalid trace, and exits with 1.)
  std::string out;
  const int rc = run_command(cli_path() + " " + command + " --json '" + path + "' 2>/dev/null", &out);
  REQUIRE((rc == 0 || rc == 1));
  return Json::parse(out);
}

// A BIGINT cell, or nullopt for NULL.
std::optional<int64_t> cell(const SqlTable& t, std::string_view column, size_t row) {
  const SqlColumn& c = t.column(column);
  if (c.null(row)) return std::nullopt;
  return c.type == SqlType::BigInt ? c.ints[row] : c.int32s[row];
}
int64_t value(const SqlTable& t, std::string_view column, size_t row) {
  auto v = cell(t, column, row);
  REQUIRE(v);
  return *v;
}

}  // namespace

TEST_CASE("SQL tables equal the CLI's outputs on every corpus trace", "[sql]") {
  for_each_corpus_trace([&](const std::string& path) {
  TraceSession session(read_trace(read_bytes(path)));
  const Json stats = cli_json("stats", path);

  // traces: one row, the stats' counts; times from the first event.
  const SqlTable traces = session.sql_table("traces", 7, path);
  REQUIRE(traces.rows == 1);
  CHECK(value(traces, "trace_id", 0) == 7);
  CHECK(traces.column("path").text(0) == path);
  CHECK(value(traces, "events", 0) == stats["events"].int64());
  CHECK(value(traces, "duration", 0) == stats["time"]["duration"].int64());
  const int64_t origin = value(traces, "time_origin", 0);
  CHECK(origin == stats["time"]["start"].int64());

  // events: every event once, counted by kind as the stats count them.
  const SqlTable events = session.sql_table("events", 7);
  CHECK(events.rows == stats["events"].uint64());
  std::map<std::string, int64_t> by_kind;
  const SqlColumn& kind = events.column("kind");
  for (size_t r = 0; r < events.rows; r++) by_kind[std::string(kind.text(r))]++;
  std::map<std::string, int64_t> want;
  for (const auto& [k, n] : stats["events_by_kind"].members()) want[k] = n.int64();
  CHECK(by_kind == want);
  // Each row is its event: context and, for transitions, the resource and states.
  const EventStore& store = session.store();
  const SqlColumn &from = events.column("from_state"), &to = events.column("to_state");
  for (size_t r = 0; r < events.rows; r++) {
    const EventView e(store, static_cast<size_t>(value(events, "event", r)));
    if (value(events, "time", r) + origin != e.time() || cell(events, "goroutine", r).value_or(-1) != e.goroutine() ||
        cell(events, "proc", r).value_or(-1) != e.proc() || cell(events, "stack_id", r).value_or(0) != e.stack()) {
      FAIL_CHECK("event " << r << " differs in time or context");
      break;
    }
    if (e.kind() != EventKind::StateTransition) continue;
    const StateTransition st = e.state_transition();
    const bool proc = st.resource.kind == ResourceKind::Proc;
    const auto state = [&](uint8_t x) {
      return proc ? to_string(static_cast<ProcState>(x)) : to_string(static_cast<GoState>(x));
    };
    if (value(events, "resource_id", r) != st.resource.id || from.text(r) != state(st.old_state) ||
        to.text(r) != state(st.new_state) || events.column("reason").text(r) != st.reason) {
      FAIL_CHECK("transition " << r << " differs");
      break;
    }
  }
  // A slice is the same rows.
  if (events.rows > 10) {
    const SqlTable part = session.sql_table("events", 7, {}, 3, 5);
    REQUIRE(part.rows == 5);
    for (size_t r = 0; r < 5; r++) {
      CHECK(value(part, "event", r) == value(events, "event", r + 3));
      CHECK(value(part, "time", r) == value(events, "time", r + 3));
      CHECK(part.column("type").text(r) == events.column("type").text(r + 3));
    }
  }

  // goroutines: `gotrace goroutines --json`'s, field by field.
  const Json gs = cli_json("goroutines", path)["goroutines"];
  const SqlTable goroutines = session.sql_table("goroutines");
  REQUIRE(goroutines.rows == gs.size());
  std::map<int64_t, std::map<std::string, int64_t>> figures;  // goroutine -> figure -> ns
  for (size_t r = 0; r < goroutines.rows; r++) {
    const Json& g = gs[r];
    INFO("goroutine " << g["id"].int64());
    CHECK(value(goroutines, "goroutine", r) == g["id"].int64());
    CHECK(goroutines.column("name").text(r) == g["name"].string());
    CHECK(static_cast<uint64_t>(value(goroutines, "pc", r)) == g["pc"].uint64());
    CHECK(value(goroutines, "creation", r) + origin == g["creation"].int64());
    CHECK(cell(goroutines, "start", r).value_or(-origin) + origin == g["start"].int64());
    CHECK(cell(goroutines, "end", r).value_or(-origin) + origin == g["end"].int64());
    const Json& st = g["stats"];
    int64_t block = 0;
    auto& f = figures[g["id"].int64()];
    for (const auto& [name, ns] : st.members()) {
      if (name.rfind("block:", 0) == 0) {
        block += ns.int64();
        if (ns.int64() != 0) f[name] = ns.int64();
      } else if (name == "exec" || name == "sched_wait" || name == "syscall" || name == "syscall_block") {
        if (ns.int64() != 0) f[name] = ns.int64();
      }
    }
    for (const char* k : {"exec", "sched_wait", "syscall", "syscall_block", "total"})
      CHECK(value(goroutines, k, r) == st[k].int64());
    CHECK(value(goroutines, "block", r) == block);
    CHECK(value(goroutines, "regions", r) == (g["regions"].is_null() ? 0 : static_cast<int64_t>(g["regions"].size())));
  }

  // g_transitions: summed per goroutine and figure (block by reason), the goroutines' figures.
  const SqlTable gt = session.sql_table("g_transitions");
  std::map<int64_t, std::map<std::string, int64_t>> sums;
  for (size_t r = 0; r < gt.rows; r++) {
    std::string figure(gt.column("counted_as").text(r));
    if (figure == "block") figure = "block:" + std::string(gt.column("reason").text(r));
    CHECK(value(gt, "duration", r) == value(gt, "end", r) - value(gt, "start", r));
    sums[value(gt, "goroutine", r)][figure] += value(gt, "duration", r);
  }
  for (auto& [g, f] : sums) std::erase_if(f, [](const auto& e) { return e.second == 0; });
  std::erase_if(sums, [](const auto& e) { return e.second.empty(); });
  std::erase_if(figures, [](const auto& e) { return e.second.empty(); });
  CHECK(sums == figures);

  // tasks: `gotrace tasks --json`'s.
  const Json ts = cli_json("tasks", path)["tasks"];
  const SqlTable tasks = session.sql_table("tasks");
  REQUIRE(tasks.rows == ts.size());
  auto same = [&](std::optional<int64_t> ours, const Json& theirs, int64_t offset) {
    CHECK(ours.has_value() == !theirs.is_null());
    if (ours && !theirs.is_null()) CHECK(*ours + offset == theirs.int64());
  };
  for (size_t r = 0; r < tasks.rows; r++) {
    const Json& t = ts[r];
    CHECK(static_cast<uint64_t>(value(tasks, "task", r)) == t["id"].uint64());
    CHECK(tasks.column("name").text(r) == t["name"].string());
    same(cell(tasks, "parent", r), t["parent"], 0);
    same(cell(tasks, "start", r), t["start"], origin);
    same(cell(tasks, "end", r), t["end"], origin);
    same(cell(tasks, "duration", r), t["duration"], 0);
    CHECK(bool(tasks.column("complete").bools[r]) == t["complete"].boolean());
    CHECK(value(tasks, "logs", r) == static_cast<int64_t>(t["logs"].size()));
    CHECK(value(tasks, "regions", r) == static_cast<int64_t>(t["regions"].size()));
    CHECK(value(tasks, "goroutines", r) == static_cast<int64_t>(t["goroutines"].size()));
  }

  // regions: `gotrace regions --json`'s, in its order.
  const Json rs = cli_json("regions", path)["regions"];
  const SqlTable regions = session.sql_table("regions");
  REQUIRE(regions.rows == rs.size());
  for (size_t r = 0; r < regions.rows; r++) {
    const Json& g = rs[r];
    CHECK(value(regions, "goroutine", r) == g["goroutine"].int64());
    CHECK(static_cast<uint64_t>(value(regions, "task", r)) == g["task"].uint64());
    CHECK(regions.column("name").text(r) == g["name"].string());
    CHECK(cell(regions, "start", r).has_value() == !g["start"].is_null());
    if (!g["start"].is_null()) CHECK(value(regions, "start", r) + origin == g["start"].int64());
    CHECK(cell(regions, "end", r).has_value() == !g["end"].is_null());
    if (!g["end"].is_null()) CHECK(value(regions, "end", r) + origin == g["end"].int64());
    CHECK(value(regions, "duration", r) == g["duration"].int64());
    for (const char* k : {"exec", "sched_wait", "syscall", "syscall_block"})
      CHECK(value(regions, k, r) == g["stats"][k].int64());
  }
  });
}

TEST_CASE("SQL tables: every table has trace_id first and the schema's columns", "[sql]") {
  TraceSession session(read_trace(read_bytes(corpus_path("go123-annotations.trace"))));
  for (const SqlTableSpec& spec : sql_tables()) {
    INFO(spec.name);
    const SqlTable t = session.sql_table(spec.name, 3);
    REQUIRE(t.columns.size() == spec.columns.size());
    CHECK(t.columns[0].name == "trace_id");
    for (size_t k = 0; k < spec.columns.size(); k++) {
      CHECK(t.columns[k].name == spec.columns[k].name);
      CHECK(t.columns[k].size() == t.rows);
      CHECK((t.columns[k].nulls.empty() || t.columns[k].nulls.size() == t.rows));
    }
    for (size_t r = 0; r < t.rows; r++) CHECK(t.columns[0].ints[r] == 3);
  }
  // Tables with rows on this trace (it has tasks, regions, logs, GC and samples).
  for (const char* name : {"events", "goroutines", "g_transitions", "p_transitions", "tasks", "regions", "logs",
                           "ranges", "metrics", "stacks", "frames"}) {
    INFO(name);
    CHECK(session.sql_table(name).rows > 0);
  }
  CHECK_THROWS_WITH(session.sql_table("nope"), Catch::Contains("unknown table nope"));
}

TEST_CASE("SQL tables: the row counts (sqlSchema's) are the tables' rows on every corpus trace", "[sql]") {
  for_each_corpus_trace([&](const std::string& path) {
  const ReadResult r = read_trace(read_bytes(path));
  std::vector<GoInterval> intervals;
  const Summary summary = summarize_intervals(r.store, intervals);
  const TraceStats stats = compute_stats(r);
  const SqlKindEvents kinds = sql_kind_events(r.store, &stats.events_by_type);
  const SqlSource source{r, &stats, &kinds, summary, intervals, 0, path};
  for (const SqlTableSpec& t : sql_tables()) {
    INFO(t.name);
    const size_t rows = sql_table(source, t.name).rows;
    CHECK(sql_table_rows(source, t.name) == rows);
  }
  });
}

namespace {

// A table as Parquet bytes from `write(sink)`.
template <class Write>
std::string parquet_of(Write&& write) {
  std::string file;
  write([&](std::span<const uint8_t> b) { file.append(reinterpret_cast<const char*>(b.data()), b.size()); });
  return file;
}

void check_same_table(const SqlTable& a, const SqlTable& b) {
  REQUIRE(a.rows == b.rows);
  REQUIRE(a.columns.size() == b.columns.size());
  for (size_t k = 0; k < a.columns.size(); k++) {
    INFO(a.columns[k].name);
    CHECK(a.columns[k].ints == b.columns[k].ints);
    CHECK(a.columns[k].int32s == b.columns[k].int32s);
    CHECK(a.columns[k].dictionary == b.columns[k].dictionary);
    CHECK(a.columns[k].nulls == b.columns[k].nulls);
  }
}

}  // namespace

TEST_CASE("g_transitions written as the summary counts its intervals is the file of the kept intervals", "[sql]") {
  for_each_corpus_trace([&](const std::string& path) {
  const std::vector<uint8_t> bytes = read_bytes(path);
  // No corpus trace reuses a goroutine id: each is written as its summary is made.
  const ReadResult r = read_trace(bytes);
  CHECK(summarize_writing_g_transitions(r.store, 4, [](std::span<const uint8_t>) {}));
  // g_transitions first: written as the summary is made, its intervals not kept.
  TraceSession first(read_trace(bytes));
  const std::string written = parquet_of([&](const ParquetSink& sink) {
    first.sql_parquet("g_transitions", 4, path, 0, std::nullopt, sink);
  });
  // After goroutines: from the intervals kept with the summary.
  TraceSession after(read_trace(bytes));
  after.sql_table("goroutines", 4, path);
  const std::string kept = parquet_of([&](const ParquetSink& sink) {
    after.sql_parquet("g_transitions", 4, path, 0, std::nullopt, sink);
  });
  CHECK(written == kept);
  // The summary made on the way is the same summary, and the intervals come back
  // when a slice of them is asked for.
  check_same_table(first.sql_table("goroutines", 4, path), after.sql_table("goroutines", 4, path));
  check_same_table(first.sql_table("goroutine_blocks", 4, path), after.sql_table("goroutine_blocks", 4, path));
  check_same_table(first.sql_table("g_transitions", 4, path, 3, 1000), after.sql_table("g_transitions", 4, path, 3, 1000));
  });
}

TEST_CASE("a trace that reuses a goroutine id: g_transitions from the kept intervals, the first goroutine left out", "[sql]") {
  enum : uint8_t { ProcStatus = 13, GoCreate = 14, GoStart = 16, GoDestroy = 17, GoStop = 19, GoStatus = 25 };
  TraceBuilder b;
  b.strings(1, {{1, "preempted"}}).frequency(1);
  b.batch(1, 1)
      .event(ProcStatus, {1, 0, 1})
      .event(GoStatus, {1, 1, 1, 2})
      .event(GoCreate, {1, 5, 0, 0})
      .event(GoStop, {1, 1, 0})
      .event(GoStart, {1, 5, 1})
      .event(GoDestroy, {1})
      .event(GoStart, {1, 1, 1})
      .event(GoCreate, {1, 5, 0, 0})  // goroutine 5 again
      .event(GoStop, {1, 1, 0})
      .event(GoStart, {1, 5, 1})
      .event(GoDestroy, {1});
  const std::vector<uint8_t> bytes = b.bytes();
  const ReadResult r = read_trace(bytes);
  INFO((r.error ? r.error->what() : "read"));
  REQUIRE(r.ok());
  bool wrote = false;
  CHECK_FALSE(summarize_writing_g_transitions(r.store, 1, [&](std::span<const uint8_t>) { wrote = true; }));
  CHECK_FALSE(wrote);

  TraceSession first(read_trace(bytes));
  const std::string written = parquet_of([&](const ParquetSink& sink) {
    first.sql_parquet("g_transitions", 1, {}, 0, std::nullopt, sink);
  });
  TraceSession after(read_trace(bytes));
  after.sql_table("goroutines", 1);
  const std::string kept = parquet_of([&](const ParquetSink& sink) {
    after.sql_parquet("g_transitions", 1, {}, 0, std::nullopt, sink);
  });
  CHECK(written == kept);
  // Goroutine 5's intervals are the second goroutine 5's alone (created at the 8th event).
  const SqlTable t = first.sql_table("g_transitions", 1);
  size_t fives = 0;
  for (size_t row = 0; row < t.rows; row++) {
    if (value(t, "goroutine", row) != 5) continue;
    fives++;
    CHECK(value(t, "start_event", row) >= 8);
  }
  CHECK(fives >= 2);  // runnable, then running
}

TEST_CASE("the events of the tables of single events are those of their kinds, on every corpus trace", "[sql]") {
  for_each_corpus_trace([&](const std::string& path) {
  const ReadResult r = read_trace(read_bytes(path));
  const SqlKindEvents kinds = sql_kind_events(r.store);
  SqlKindEvents scanned;
  for (size_t i = 0; i < r.store.size(); i++) {
    const EventView e(r.store, i);
    switch (e.kind()) {
      case EventKind::Log: scanned.logs.push_back(i); break;
      case EventKind::Metric: scanned.metrics.push_back(i); break;
      case EventKind::StackSample: scanned.samples.push_back(i); break;
      case EventKind::Label: scanned.labels.push_back(i); break;
      case EventKind::RangeBegin:
      case EventKind::RangeActive:
      case EventKind::RangeEnd: scanned.ranges.push_back(i); break;
      case EventKind::StateTransition:
        if (e.state_transition().resource.kind == ResourceKind::Proc) scanned.procs.push_back(i);
        break;
      default: break;
    }
  }
  CHECK(kinds.logs == scanned.logs);
  CHECK(kinds.metrics == scanned.metrics);
  CHECK(kinds.samples == scanned.samples);
  CHECK(kinds.labels == scanned.labels);
  CHECK(kinds.ranges == scanned.ranges);
  CHECK(kinds.procs == scanned.procs);
  });
}
