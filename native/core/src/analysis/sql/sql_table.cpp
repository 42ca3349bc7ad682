// sql_table(): a table by name, whole or a slice of its rows.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "analysis/sql/sql_table_builders.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis {

namespace {

// Rows [from, to) of a table built whole.
SqlTable slice(SqlTable t, size_t from, size_t to) {
  if (from == 0 && to >= t.rows) return t;
  from = std::min(from, t.rows);
  to = std::clamp(to, from, t.rows);
  auto cut = [&](auto& v) {
    if (v.empty()) return;
    v.erase(v.begin() + static_cast<ptrdiff_t>(to), v.end());
    v.erase(v.begin(), v.begin() + static_cast<ptrdiff_t>(from));
  };
  for (SqlColumn& c : t.columns) {
    cut(c.ints);
    cut(c.int32s);
    cut(c.doubles);
    cut(c.bools);
    cut(c.nulls);
  }
  t.rows = to - from;
  return t;
}

SqlTable whole(const SqlSource& src, std::string_view name) {
  using namespace detail;
  if (name == "traces") return traces_table(src);
  if (name == "goroutines") return goroutines_table(src);
  if (name == "goroutine_blocks") return goroutine_blocks_table(src);
  if (name == "p_transitions") return p_transitions_table(src);
  if (name == "tasks") return tasks_table(src);
  if (name == "regions") return regions_table(src);
  if (name == "logs") return logs_table(src);
  if (name == "ranges") return ranges_table(src);
  if (name == "metrics") return metrics_table(src);
  if (name == "cpu_samples") return cpu_samples_table(src);
  if (name == "stacks") return stacks_table(src);
  if (name == "frames") return frames_table(src);
  if (name == "labels") return labels_table(src);
  throw std::invalid_argument("unknown table " + std::string(name));
}

}  // namespace

size_t sql_table_rows(const SqlSource& src, std::string_view name) {
  const EventStore& s = src.read.store;
  // The tables of a row per event of a kind: that kind's events.
  auto events_of = [&](const std::vector<size_t> SqlKindEvents::*list) { return (detail::kind_events(src).*list).size(); };
  if (name == "traces") return 1;
  if (name == "events") return s.size();
  if (name == "g_transitions") return src.intervals.size();
  if (name == "goroutines") return src.summary.goroutines.size();
  if (name == "tasks") return src.summary.tasks.size();
  if (name == "stacks") return s.stacks.size() - 1;
  if (name == "logs") return events_of(&SqlKindEvents::logs);
  if (name == "metrics") return events_of(&SqlKindEvents::metrics);
  if (name == "labels") return events_of(&SqlKindEvents::labels);
  if (name == "cpu_samples") return events_of(&SqlKindEvents::samples);
  if (name == "goroutine_blocks" || name == "regions") {
    size_t n = 0;
    for (const GoroutineSummary& g : src.summary.goroutines) n += name == "regions" ? g.regions.size() : g.stats.block.size();
    return n;
  }
  if (name == "frames") {
    size_t n = 0;
    for (size_t id = 1; id < s.stacks.size(); id++) n += s.stacks.frames(static_cast<StackID>(id)).size();
    return n;
  }
  if (!find_sql_table(name)) throw std::invalid_argument("unknown table " + std::string(name));
  return whole(src, name).rows;  // ranges and p_transitions: their events paired up
}

SqlTable sql_table(const SqlSource& src, std::string_view name, size_t offset, std::optional<size_t> limit) {
  if (!find_sql_table(name)) throw std::invalid_argument("unknown table " + std::string(name));
  auto range = [&](size_t rows) {
    const size_t from = std::min(offset, rows);
    const size_t to = limit ? from + std::min(*limit, rows - from) : rows;
    return std::pair{from, to};
  };
  if (name == "events") {
    auto [from, to] = range(src.read.store.size());
    return detail::events_table(src, from, to);
  }
  if (name == "g_transitions") {
    auto [from, to] = range(src.intervals.size());
    return detail::g_transitions_table(src, from, to);
  }
  SqlTable t = whole(src, name);
  auto [from, to] = range(t.rows);
  return slice(std::move(t), from, to);
}

}  // namespace gotrace::analysis
