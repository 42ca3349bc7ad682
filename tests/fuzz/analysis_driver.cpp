// Every analysis on whatever the reader accepts — goroutine summaries
// and groups, tasks, regions, the MMU, the four profiles (pprof and flame graph), the
// timeline index with a query of every track kind, and the SQL tables. An analysis trusts the store's
// invariants only; this target checks that whatever a hostile trace makes the reader
// accept, the analyses neither crash nor loop. The body of the fuzz_analysis target, and
// of the test that replays the inputs it once failed on (tests/hardening).
#include "analysis_driver.h"

#include <cstdint>
#include <string>

#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/flame_graph.h"
#include "gotrace/analysis/goroutines.h"
#include "gotrace/analysis/pprof_profile.h"
#include "gotrace/analysis/pprof_writer.h"
#include "gotrace/analysis/profile_filter.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/analysis/report.h"
#include "gotrace/analysis/sql_parquet.h"
#include "gotrace/analysis/sql_tables.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/tasks.h"
#include "gotrace/analysis/timeline.h"
#include "gotrace/analysis/timeline_query.h"
#include "gotrace/error.h"
#include "gotrace/json_writer.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"
#include "header_selector.h"

namespace {

using namespace gotrace;
using namespace gotrace::analysis;

constexpr const char* kHeaders[] = {"go 1.11 trace", "go 1.21 trace", "go 1.22 trace", "go 1.23 trace",
                                    "go 1.25 trace", "go 1.26 trace", "go 1.7 trace"};

void query_every_track(const TimelineIndex& index) {
  const Time from = index.start(), to = index.end() + 1;
  const TimelineView views[] = {{from, to, 1000}, {from + (to - from) / 3, from + (to - from) / 2 + 1, 7}};
  for (const TimelineView& v : views) {
    for (size_t k = 0; k < kTrackKinds; k++) {
      auto kind = static_cast<TrackKind>(k);
      auto ids = index.ids(kind);
      for (size_t i = 0; i < ids.size() && i < 16; i++) query_slices(index, {kind, ids[i]}, v);
    }
    auto goroutines = index.ids(TrackKind::Goroutine);
    for (size_t i = 0; i < goroutines.size() && i < 16; i++) query_regions(index, goroutines[i], v);
    query_tasks(index, v);
    for (auto by : {ResourceKind::Goroutine, ResourceKind::Proc, ResourceKind::Thread}) {
      for (size_t k = 0; k < kInstantKinds; k++) query_instants(index, static_cast<InstantKind>(k), by, v);
    }
    query_wake_edges(index, v, 1000);
    for (size_t k = 0; k < kSeriesKinds; k++) query_series(index, static_cast<SeriesKind>(k), v);
  }
}

}  // namespace

namespace gotrace::fuzz {

int run_every_analysis(const uint8_t* data, size_t size) {
  ReadResult r = read_trace(with_selected_header(data, size, kHeaders));
  if (r.store.size() == 0) return 0;

  // Goroutines, tasks, regions, MMU: what `gotrace analysis` and its siblings print.
  // The MMU refuses, with a TraceError, a GOMAXPROCS or an amount of work per P that no
  // real trace has: then the summary is computed alone.
  std::string json;
  auto to_json = [&](auto&& write) {
    json.clear();
    JsonWriter w(json);
    write(w);
  };
  Summary summary;
  try {
    Report report = analyze(r.store, r.error ? r.error->what() : "");
    to_json([&](JsonWriter& w) { report_json(w, report); });
    // The same with the summaries put away as goroutines and tasks end (`gotrace
    // analysis`): whatever follows an end, the report is the same.
    const std::string in_memory = json;
    ReportBuilder archiving(r.store, SummaryKeeping::Archived);
    archiving.add(0, r.store.size());
    to_json([&](JsonWriter& w) { report_json(w, archiving.finish(r.error ? r.error->what() : "")); });
    if (json != in_memory) __builtin_trap();
    summary = std::move(report.summary);
  } catch (const TraceError&) {
    summary = summarize(r.store);
  }
  to_json([&](JsonWriter& w) { goroutines_json(w, summary, goroutine_groups(summary)); });
  to_json([&](JsonWriter& w) { tasks_json(w, r.store, summary, task_types(summary)); });
  to_json([&](JsonWriter& w) { regions_json(w, summary, region_types(r.store, summary)); });
  try {
    MmuCurve curve(mutator_utilization(r.store, kReportFlagSets[2]));
    const double quantiles[] = {0, 0.5, 0.99};
    for (int64_t window : kReportWindows) mmu_window(curve, window, 3, quantiles);
    mmu_plot(curve, true);
  } catch (const TraceError&) {
  }

  // Profiles, as `go tool trace -pprof` and the flame graphs compute them.
  for (ProfileType type : kProfileTypes) {
    PprofProfile p = build_pprof_profile(r.store, compute_go_tool_profile(r.store, summary, type));
    write_pprof(p);
    flame_graph(p);
    top_functions(p);
  }
  TimelineIndex index = build_timeline_index(r.store);
  GoroutineIntervals group = goroutine_group_intervals(summary);
  ProfileFilter filter{&group, Interval{index.start() + (index.end() - index.start()) / 4, index.end()}};
  compute_profile(r.store, ProfileType::Sync, filter);

  query_every_track(index);

  // The SQL tables (docs/sql.md), every one of them, with the summary's intervals.
  std::vector<GoInterval> intervals;
  Summary sql_summary = summarize_intervals(r.store, intervals);
  TraceStats stats = compute_stats(r);
  SqlKindEvents kinds = sql_kind_events(r.store);
  SqlSource source{r, &stats, &kinds, sql_summary, intervals, 1, "fuzz"};
  // And as Parquet files (every encoder over hostile values: ids, times, clocks).
  const ParquetSink discard = [](std::span<const uint8_t>) {};
  for (const SqlTableSpec& t : sql_tables()) {
    sql_table(source, t.name);
    write_sql_parquet(source, t.name, discard, 0, std::nullopt, 5);  // small row groups: many
  }
  // g_transitions written as the summary is made (or nothing, where ids are reused).
  summarize_writing_g_transitions(r.store, 1, discard);
  sql_table(source, "events", r.store.size() / 2, 3);
  write_sql_parquet(source, "events", discard, r.store.size() / 2, r.store.size() / 2 + 3);
  return 0;
}

}  // namespace gotrace::fuzz
