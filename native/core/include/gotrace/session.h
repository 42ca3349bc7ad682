// A trace that was read and the analyses of it, each built on its first use (at once, or
// a piece at a time by a caller with other work between pieces) and kept: what the CLI,
// the tests and the WebAssembly bindings ask of a trace. `kAnalyses` is the one list of
// the analyses, with what each needs first.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gotrace/analysis/critical_path.h"
#include "gotrace/analysis/flame_graph.h"
#include "gotrace/analysis/goroutines.h"
#include "gotrace/analysis/group_events.h"
#include "gotrace/analysis/mmu.h"
#include "gotrace/analysis/profile.h"
#include "gotrace/analysis/profile_selection.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/analysis/sql_parquet.h"
#include "gotrace/analysis/sql_tables.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/summary_pages.h"
#include "gotrace/analysis/tasks.h"
#include "gotrace/analysis/timeline.h"
#include "gotrace/analysis/timeline_overview.h"
#include "gotrace/analysis/timeline_query.h"
#include "gotrace/analysis/trace_diff.h"
#include "gotrace/analysis/wake_index.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"
#include "gotrace/summary_views.h"
#include "gotrace/value.h"

namespace gotrace {

// The analyses a session builds and keeps, in the order a viewer computes them ahead of
// its requests.
enum class Analysis : uint8_t {
  Summary,          // goroutines, tasks and regions (analysis::summarize)
  GoroutineGroups,  // the goroutines by start function, each group's in order
  Wakes,            // the index of wake edges
  TaskTypes,        // tasks by type with their duration distributions
  RegionTypes,      // regions by type, likewise
  Mmu,              // the MMU curve of the default flags (STW, background, assist, sweep)
  Timeline,         // the timeline index
  GoroutineLanes,   // the timeline's goroutine tracks (otherwise built on their first query)
  Flames,           // the whole trace's flame graph of every profile type
  GroupEvents,      // events by goroutine group
  CriticalPaths,    // what a critical path walks: each goroutine's transitions, GC work, STWs
  DiffFigures,      // the figures a diff compares (trace_diff.h)
};

struct AnalysisInfo {
  Analysis id;
  std::string_view name;  // as the bindings and the CLI name it
  bool piecewise;         // advance() builds it a piece at a time
  std::optional<Analysis> needs;  // built first
  bool ahead = true;      // a viewer builds it ahead of requests (its views show it)
};

inline constexpr AnalysisInfo kAnalyses[] = {
    {Analysis::Summary, "summary", true, std::nullopt},
    {Analysis::GoroutineGroups, "goroutineGroups", false, Analysis::Summary},
    {Analysis::Wakes, "wakes", true, std::nullopt},
    {Analysis::TaskTypes, "taskTypes", false, Analysis::Summary},
    {Analysis::RegionTypes, "regionTypes", false, Analysis::Summary},
    {Analysis::Mmu, "mmu", true, std::nullopt},
    {Analysis::Timeline, "timeline", true, std::nullopt},
    {Analysis::GoroutineLanes, "goroutineLanes", true, Analysis::Timeline},
    {Analysis::Flames, "flames", false, Analysis::Summary},
    {Analysis::GroupEvents, "groupEvents", false, Analysis::Summary, false},
    {Analysis::CriticalPaths, "criticalPaths", false, Analysis::Summary, false},
    {Analysis::DiffFigures, "diffFigures", false, Analysis::Summary, false},
};

const AnalysisInfo& info(Analysis a);
std::optional<Analysis> parse_analysis(std::string_view name);

class TraceSession {
 public:
  explicit TraceSession(ReadResult read);
  TraceSession(const TraceSession&) = delete;
  TraceSession& operator=(const TraceSession&) = delete;
  ~TraceSession();

  const ReadResult& read() const { return read_; }
  const EventStore& store() const { return read_.store; }

  // Builds an analysis whole (and what it needs); "flame:TYPE" names one profile type's
  // whole flame graph besides kAnalyses. Throws for an unknown name.
  void prepare(Analysis a);
  void prepare(std::string_view name);
  // The next piece of an analysis, about `events` events' worth of work; true once it
  // is complete. One that is not piecewise is built whole.
  bool advance(Analysis a, size_t events);
  bool advance(std::string_view name, size_t events);

  // The count of events of each type, which the stats and the summary both need: once.
  const std::array<uint64_t, 256>& events_by_type();
  const std::string& stats_json();  // `gotrace stats --json`, compact
  const analysis::Summary& summary();
  // The groups (goroutine_groups_unordered), and a group's goroutines in its order,
  // put in order when first asked for.
  const std::vector<analysis::GoroutineGroup>& groups();
  const std::vector<const analysis::GoroutineSummary*>& members_of(size_t group);
  const std::vector<analysis::TaskTypeStats>& task_types();
  const std::vector<analysis::RegionTypeStats>& region_types();
  // The goroutine, task and region views of the summary (what the groups, types and
  // pages above come from).
  SummaryViews& views();
  const analysis::GroupEventCounts& group_events();
  const analysis::TimelineIndex& timeline();
  const analysis::WakeIndex& wakes();
  // The MMU curve of a flag set, kept: a viewer asks again with other windows.
  const analysis::MmuCurve& mmu_curve(unsigned flags);
  static constexpr unsigned kDefaultMmuFlags = 1 | 2 | 4 | 8;
  // The whole trace's profile and flame graph of a type, kept.
  const analysis::Profile& whole_profile(analysis::ProfileType t);
  const analysis::FlameGraph& whole_flame(analysis::ProfileType t);
  // The goroutines of each group of the timeline's track list, by the group's index there.
  const std::vector<std::vector<GoID>>& timeline_group_members();

  // Critical paths (analysis/critical_path.h) of a selection (see path_interval), and
  // their sums over a task or region type; the JSON is `gotrace critical-path --json`'s.
  const analysis::CriticalPathIndex& critical_paths();
  analysis::CriticalPath critical_path(std::string_view kind, std::string_view which, std::optional<Time> from = {},
                                       std::optional<Time> to = {});
  std::string critical_path_json(std::string_view kind, std::string_view which, std::optional<Time> from = {},
                                 std::optional<Time> to = {}, bool pretty = false);
  analysis::PathAggregate path_aggregate(const analysis::PathTypeSelection& which);
  std::string path_aggregate_json(const analysis::PathTypeSelection& which, bool pretty = false);
  // The whole trace's figures a diff compares, kept; the diff of two sessions (`gotrace
  // diff --json`) and its differential profile of a type (a gzipped pprof).
  const analysis::TraceFigures& diff_figures();
  static std::string diff_json(TraceSession& before, TraceSession& after, size_t top, bool pretty = false);
  static std::vector<uint8_t> diff_pprof(TraceSession& before, TraceSession& after, std::string_view type);

  // The JSON objects the CLI's --json prints and the bindings return.
  std::string goroutines_json(bool pretty = false);
  std::string tasks_json(bool pretty = false);
  std::string regions_json(bool pretty = false);
  // An analysis's own result as JSON, for those that have one (goroutineGroups, taskTypes,
  // regionTypes, groupEvents); throws for the others.
  std::string json(Analysis a, bool pretty = false);
  // Whether json(a) has a result of its own (the others are computed for those that do).
  static bool has_own_json(Analysis a);
  std::string json(std::string_view name, bool pretty = false);

  // The parts a viewer shows of them: views() (summary_views.h), and these, which read
  // the events (see wasm-bindings/js/index.d.ts for their shapes).
  std::string goroutine_wakeups_json(double id, double t0, double t1, double pixels, double limit);
  std::string wakeups_json(double id, double t0, double t1);
  std::string mmu_json(std::span<const double> windows, unsigned flags, int worst);
  std::vector<uint8_t> pprof(std::string_view type, const analysis::ProfileSelection& selection);

  // The SQL tables (analysis/sql_tables.h): each table's name and columns ({name, type,
  // values?}, values: the closed set a VARCHAR's strings come from), for any trace.
  static Value sql_tables();
  // The same with each table's row count in this trace; and rows [offset, offset + limit)
  // of one. `path` fills the traces table's path. Their summary is summarize_intervals's,
  // built on the first call and kept.
  Value sql_schema();
  analysis::SqlTable sql_table(std::string_view name, int64_t trace_id = 0, std::string path = {}, size_t offset = 0,
                               std::optional<size_t> limit = std::nullopt);
  // The same as JavaScript receives it: BIGINT as doubles, or as the bytes of int64s
  // with `int64_bytes`; VARCHAR as a dictionary and codes into it.
  Value sql_table_value(std::string_view name, int64_t trace_id, std::string path, size_t offset,
                        std::optional<size_t> limit, bool int64_bytes);
  // A table as a Parquet file into `sink` (analysis/sql_parquet.h); events and
  // g_transitions rows [from, to) only when given. The whole g_transitions before the
  // summary is made is written as the summary counts its intervals, which are then not
  // kept (summarize_writing_g_transitions): ask for it before the summary's other tables.
  void sql_parquet(std::string_view name, int64_t trace_id, std::string path, size_t from, std::optional<size_t> to,
                   const analysis::ParquetSink& sink);

  // The results that cross to JavaScript as typed arrays (see index.d.ts for their shapes).
  Value events_page(double from, double limit, double goroutine, double proc, double thread, double kind_mask);
  Value event_at(double index);
  Value clock_snapshots();
  Value flame(std::string_view type, const analysis::ProfileSelection& selection);
  // A flame graph as flame() gives it (its columns as arrays).
  static Value flame_value(const analysis::FlameGraph& f);
  static analysis::ProfileType profile_type(std::string_view name);  // throws for an unknown one
  Value tracks();
  Value timeline_query(std::string_view kind, double id, std::string_view arg, double t0, double t1, double pixels,
                       double limit);
  Value slice_at(std::string_view kind, double id, double time);
  static analysis::TimelineView view_of(double t0, double t1, double pixels);  // throws for a bad width

 private:
  struct Builds;
  template <class Build, class Result, class... Args>
  bool advance_piece(std::unique_ptr<Result>& done, std::unique_ptr<Build>& build, size_t events, Args... args);
  void prepare_whole_profiles();
  StackID event_stack(size_t i) const;
  Value frames(StackID id) const;

  ReadResult read_;
  std::string stats_json_;  // empty until asked for
  std::optional<std::array<uint64_t, 256>> events_by_type_;
  std::unique_ptr<analysis::Summary> summary_;
  std::unique_ptr<analysis::TimelineIndex> timeline_;
  std::unique_ptr<analysis::WakeIndex> wakes_;
  std::unique_ptr<Builds> builds_;  // the analyses under way a piece at a time
  std::array<std::optional<analysis::Profile>, std::size(analysis::kProfileTypes)> whole_profiles_;
  std::array<std::unique_ptr<analysis::FlameGraph>, std::size(analysis::kProfileTypes)> whole_flames_;
  std::unique_ptr<std::vector<std::vector<GoID>>> timeline_groups_;
  std::unique_ptr<analysis::StoreEvents> store_events_;
  std::unique_ptr<SummaryViews> views_;
  std::unordered_map<unsigned, std::unique_ptr<analysis::MmuCurve>> mmu_curves_;
  std::unique_ptr<analysis::GroupEventCounts> group_events_;
  std::unique_ptr<analysis::CriticalPathIndex> critical_paths_;
  std::unique_ptr<analysis::TraceFigures> diff_figures_;
  struct SqlParts {
    std::optional<TraceStats> stats;  // for the traces table
    std::optional<analysis::SqlKindEvents> kinds;  // for the tables of single events
    analysis::Summary summary;
    std::vector<analysis::GoInterval> intervals;
    bool summarized = false;      // the summary (built for the tables that need it)
    bool intervals_kept = false;  // and its intervals
  };
  std::unique_ptr<SqlParts> sql_;  // what the SQL tables are computed from
  // What table `table` is computed from (every table's, for ""), made on first need.
  analysis::SqlSource sql_source(int64_t trace_id, std::string path, std::string_view table);
};

// The whole trace's timeline overview (of a streamed read) queried as TraceSession's
// timeline_query is, for the tracks and series it has: a track of another kind is a
// runtime_error that says so. `store`: the streamed read's (its strings name STW kinds).
Value timeline_overview_query(const analysis::TimelineOverview& overview, const EventStore& store, std::string_view kind,
                              double id, std::string_view arg, double t0, double t1, double pixels);

}  // namespace gotrace
