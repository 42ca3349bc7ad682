#include "gotrace/analysis/summary_pages.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/analysis/tasks.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis {
namespace {

const double kLogDiv = std::log(std::pow(10.0, 1.0 / 5));

void time_or_null(JsonWriter& w, const char* key, bool present, Time t) {
  w.key(key);
  if (present) {
    w.value(t);
  } else {
    w.null();
  }
}

}  // namespace

std::optional<uint32_t> assist_range(const Summary& s) {
  for (size_t i = 0; i < s.range_names.size(); i++)
    if (s.range_names[i] == "GC mark assist") return static_cast<uint32_t>(i);
  return std::nullopt;
}

double goroutine_sort_key(const GoroutineSummary& g, GoroutineSort by, std::optional<uint32_t> assist) {
  const ExecStats& st = g.stats;
  switch (by) {
    case GoroutineSort::Id: return static_cast<double>(g.id);
    case GoroutineSort::Start: return g.start_time ? static_cast<double>(g.start_time) : -1.0;
    case GoroutineSort::Total: return static_cast<double>(st.total);
    case GoroutineSort::Exec: return static_cast<double>(st.exec);
    case GoroutineSort::SchedWait: return static_cast<double>(st.sched_wait);
    case GoroutineSort::Block: return static_cast<double>(st.block_total());
    case GoroutineSort::Syscall: return static_cast<double>(st.syscall);
    case GoroutineSort::SyscallBlock: return static_cast<double>(st.syscall_block);
    case GoroutineSort::Unknown: return static_cast<double>(st.unknown());
    case GoroutineSort::Assist: return assist ? static_cast<double>(ExecStats::get(st.ranges, *assist)) : 0.0;
    case GoroutineSort::Breakdown:
      return st.total ? static_cast<double>(st.exec) / static_cast<double>(st.total) : 0.0;
  }
  return 0;
}

std::optional<GoroutineSort> parse_goroutine_sort(std::string_view column) {
  static constexpr std::pair<std::string_view, GoroutineSort> kColumns[] = {
      {"id", GoroutineSort::Id},
      {"start", GoroutineSort::Start},
      {"total", GoroutineSort::Total},
      {"exec", GoroutineSort::Exec},
      {"sched_wait", GoroutineSort::SchedWait},
      {"block", GoroutineSort::Block},
      {"syscall", GoroutineSort::Syscall},
      {"syscall_block", GoroutineSort::SyscallBlock},
      {"unknown", GoroutineSort::Unknown},
      {"range:GC mark assist", GoroutineSort::Assist},
      {"breakdown", GoroutineSort::Breakdown},
  };
  for (auto& [name, by] : kColumns)
    if (name == column) return by;
  return std::nullopt;
}

std::vector<const GoroutineSummary*> group_members(const Summary& s, const GoroutineGroup& group) {
  std::vector<const GoroutineSummary*> out;
  out.reserve(group.members.size());
  for (uint32_t k : group.members) out.push_back(&s.goroutines[k]);
  return out;
}

std::vector<const GoroutineSummary*> sorted_goroutines(const Summary& s,
                                                       std::span<const GoroutineSummary* const> members,
                                                       GoroutineSort by, bool descending) {
  // The group's own order is by total, longest first, then by id: already sorted.
  if (by == GoroutineSort::Total && descending) return {members.begin(), members.end()};
  const std::optional<uint32_t> assist = assist_range(s);
  std::vector<std::pair<double, const GoroutineSummary*>> keyed;
  keyed.reserve(members.size());
  for (const GoroutineSummary* g : members) keyed.push_back({goroutine_sort_key(*g, by, assist), g});
  auto order = [descending](const auto& a, const auto& b) { return descending ? a.first > b.first : a.first < b.first; };
  std::stable_sort(keyed.begin(), keyed.end(), order);
  std::vector<const GoroutineSummary*> out;
  out.reserve(keyed.size());
  for (auto& [key, g] : keyed) out.push_back(g);
  return out;
}

int duration_bucket(int64_t ns) { return ns > 0 ? static_cast<int>(std::log(static_cast<double>(ns)) / kLogDiv) : 0; }

int bucket_of_min(double min_ns) { return static_cast<int>(std::round(std::log(std::max(1.0, min_ns)) / kLogDiv)); }

bool task_in_bucket(const TaskSummary& t, std::string_view type, std::optional<int> b) {
  return t.name == type && (!b || (t.complete() && duration_bucket(t.end - t.start) == *b));
}

std::vector<const TaskSummary*> tasks_in_bucket(const Summary& s, std::string_view type, std::optional<int> b) {
  std::vector<const TaskSummary*> out;
  for (const TaskSummary& t : s.tasks)
    if (task_in_bucket(t, type, b)) out.push_back(&t);
  return out;
}

bool region_in_bucket(const Summary& s, const RegionSummary& r, std::string_view type, int b, const RegionsAtPc* at) {
  return r.name == type && duration_bucket(region_interval(s, r).duration()) == b && (!at || (*at)(r));
}

std::vector<const RegionSummary*> regions_in_bucket(const Summary& s, std::string_view type, int b,
                                                    const RegionsAtPc* at) {
  std::vector<const RegionSummary*> out;
  for (const GoroutineSummary& g : s.goroutines) {
    for (uint32_t k : g.regions) {
      const RegionSummary& r = s.regions[k];
      if (region_in_bucket(s, r, type, b, at)) out.push_back(&r);
    }
  }
  return out;
}

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool contains_folded(std::string_view hay, std::string_view needle) {
  if (needle.size() > hay.size()) return false;
  auto eq = [](char a, char b) { return lower(a) == lower(b); };
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), eq) != hay.end();
}

}  // namespace

bool log_matches(const LogFields& l, std::string_view text) {
  return contains_folded(l.category, text) || contains_folded(l.message, text);
}

std::vector<std::pair<TaskID, uint64_t>> logs_matching(const SummaryEvents& events, const Summary& s,
                                                       std::string_view text, size_t limit) {
  std::vector<std::pair<TaskID, uint64_t>> out;
  for (const TaskSummary& t : s.tasks) {
    for (uint64_t i : t.logs) {
      if (out.size() >= limit) return out;
      if (log_matches(events.log(i), text)) out.push_back({t.id, i});
    }
  }
  return out;
}

// A task log's "time", "goroutine", "category" and "message".
static void log_fields_json(JsonWriter& w, const LogFields& l) {
  w.field("time", l.time);
  w.field("goroutine", l.goroutine);
  w.field("category", l.category);
  w.field("message", l.message);
}

void task_entry_json(JsonWriter& w, const EventStore& store, const Summary& s, const TaskSummary& t) {
  task_entry_json(w, StoreEvents(store), s, t);
}

void task_entry_json(JsonWriter& w, const SummaryEvents& events, const Summary& s, const TaskSummary& t) {
  w.begin_object();
  w.field("id", t.id);
  w.field("name", t.name);
  w.key("parent");
  if (t.has_parent()) {
    w.value(t.parent);
  } else {
    w.null();
  }
  w.key("children").begin_array();
  for (TaskID c : t.children) w.value(c);
  w.end_array();
  time_or_null(w, "start", t.start_event != kNoEvent, t.start);
  time_or_null(w, "end", t.end_event != kNoEvent, t.end);
  w.field("complete", t.complete());
  w.key("duration");
  if (t.complete()) {
    w.value(t.end - t.start);
  } else {
    w.null();
  }
  w.key("goroutines").begin_array();
  for (GoID g : t.goroutines) w.value(g);
  w.end_array();
  w.key("logs").begin_array();
  for (uint64_t i : t.logs) {
    w.begin_object();
    log_fields_json(w, events.log(i));
    w.end_object();
  }
  w.end_array();
  w.key("regions").begin_array();
  for (uint32_t k : t.regions) {
    const RegionSummary& r = s.regions[k];
    w.begin_object();
    w.field("goroutine", r.goroutine);
    w.field("name", r.name);
    time_or_null(w, "start", r.has_start(), r.start);
    time_or_null(w, "end", r.has_end(), r.end);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void region_entry_json(JsonWriter& w, const Summary& s, const RegionSummary& r) {
  w.begin_object();
  w.field("goroutine", r.goroutine);
  w.field("task", r.task);
  w.field("name", r.name);
  time_or_null(w, "start", r.has_start(), r.start);
  time_or_null(w, "end", r.has_end(), r.end);
  w.field("duration", region_interval(s, r).duration());
  w.key("stats");
  exec_stats_json(w, s, r.stats);
  w.end_object();
}

void task_logs_json(JsonWriter& w, const SummaryEvents& events, std::span<const std::pair<TaskID, uint64_t>> logs) {
  w.begin_array();
  for (auto [t, i] : logs) {
    w.begin_object();
    w.field("task", t);
    log_fields_json(w, events.log(i));
    w.end_object();
  }
  w.end_array();
}

void GroupPageBounds::add(const GoroutineSummary& g) {
  count++;
  max_total = std::max(max_total, g.stats.total);
  if (Time t = g.start_time ? g.start_time : g.creation_time) {
    first = any_start ? std::min(first, t) : t;
    any_start = true;
  }
  if (g.end_time) last = std::max(last, g.end_time);
  else alive = true;
}

void goroutine_group_page_json(JsonWriter& w, const Summary& s, const GoroutineGroup& group,
                               std::span<const GoroutineSummary* const> rows, size_t from, size_t to) {
  GroupPageBounds bounds;
  for (const GoroutineSummary* g : rows) bounds.add(*g);
  goroutine_group_page_json(w, s, group, bounds, [&](JsonWriter& out) {
    for (size_t i = from; i < to; i++) goroutine_row_json(out, s, *rows[i]);
  });
}

void goroutine_group_page_json(JsonWriter& w, const Summary& s, const GoroutineGroup& group,
                               const GroupPageBounds& bounds, const std::function<void(JsonWriter&)>& rows) {
  w.begin_object();
  w.key("group");
  goroutine_group_json(w, s, group);
  w.field("count", static_cast<uint64_t>(bounds.count));
  w.field("maxTotal", bounds.max_total);
  w.key("first");
  if (bounds.any_start) w.value(bounds.first);
  else w.null();
  w.key("last");
  if (bounds.alive || bounds.count == 0) w.null();
  else w.value(bounds.last);
  w.key("rows").begin_array();
  rows(w);
  w.end_array();
  w.end_object();
}

}  // namespace gotrace::analysis
