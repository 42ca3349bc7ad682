// ArchivedSummaryViews: SummaryViews' answers, reading the archive's goroutines and tasks
// back one at a time (through the same pieces: the grouping, the tallies of task and
// region types, the JSON of a row, an entry, a page).
#include "gotrace/archived_summary_views.h"

#include <algorithm>
#include <utility>

#include "gotrace/analysis/histogram.h"
#include "gotrace/analysis/summary_json.h"

namespace gotrace {

using namespace gotrace::analysis;

namespace {

// A goroutine inherits its creator's innermost region as a region of no name that begins
// at its creation: it is the goroutine's, not one of its task's (as in Go's summary).
bool inherited(const GoroutineSummary& g, const RegionSummary& r) {
  return r.name.empty() && r.has_start() && r.start == g.creation_time;
}

// The event a task's region was first seen at, which orders its task's regions (as the
// summary adds them, in order of appearance).
uint64_t first_seen(const RegionSummary& r) {
  if (r.has_start()) return r.start_event;
  return r.has_end() ? r.end_event : 0;
}

}  // namespace

ArchivedSummaryViews::ArchivedSummaryViews(const EventStore& tables, const ArchivedSummary& archived,
                                           const Summary& rest, const SummaryEvents& events)
    : tables_(tables), archived_(archived), events_(events) {
  scratch_.block_reasons = rest.block_reasons;
  scratch_.range_names = rest.range_names;
  scratch_.first_time = rest.first_time;
  scratch_.last_time = rest.last_time;
}

const GoroutineSummary& ArchivedSummaryViews::goroutine_at(size_t k) {
  archived_.goroutine(k, goroutine_, scratch_.regions);
  return goroutine_;
}

const TaskSummary& ArchivedSummaryViews::task_at(size_t k) {
  archived_.task(k, task_);
  // The archive keeps a task's regions with their goroutines: gathered from them.
  std::vector<RegionSummary>& found = regions_;
  found.clear();
  for (GoID id : task_.goroutines) {
    const std::optional<size_t> g = id == kNoGoroutine ? std::nullopt : archived_.goroutine_index(id);
    if (!g) continue;
    const GoroutineSummary& gs = goroutine_at(*g);
    for (const RegionSummary& r : scratch_.regions)
      if (r.task == task_.id && !inherited(gs, r)) found.push_back(r);
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const RegionSummary& a, const RegionSummary& b) { return first_seen(a) < first_seen(b); });
  scratch_.regions.swap(found);
  task_.regions.clear();
  for (uint32_t i = 0; i < scratch_.regions.size(); i++) task_.regions.push_back(i);
  return task_;
}

const std::vector<GoroutineGroup>& ArchivedSummaryViews::groups() {
  if (!groups_) {
    GoroutineGrouping grouping;
    for (size_t k = 0; k < archived_.goroutines.size(); k++) grouping.add(goroutine_at(k), static_cast<uint32_t>(k));
    groups_ = std::make_unique<std::vector<GoroutineGroup>>(grouping.take());
    ordered_.assign(groups_->size(), false);
  }
  return *groups_;
}

const std::vector<uint32_t>& ArchivedSummaryViews::ordered_members(size_t k) {
  GoroutineGroup& group = (*groups_)[k];
  if (!ordered_[k]) {
    // Longest first, then by id: the places are in id order.
    std::vector<std::pair<int64_t, uint32_t>> by_total;
    by_total.reserve(group.members.size());
    for (uint32_t m : group.members) by_total.push_back({goroutine_at(m).stats.total, m});
    std::sort(by_total.begin(), by_total.end(),
              [](auto& a, auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    for (size_t i = 0; i < by_total.size(); i++) group.members[i] = by_total[i].second;
    ordered_[k] = true;
  }
  return group.members;
}

std::string ArchivedSummaryViews::goroutine_groups_json(bool pretty) {
  const std::vector<GoroutineGroup>& all = groups();
  return json_of(pretty, [&](JsonWriter& w) {
    w.begin_object();
    w.field("count", static_cast<uint64_t>(archived_.goroutines.size()));
    w.key("groups").begin_array();
    for (const GoroutineGroup& g : all) goroutine_group_json(w, scratch_, g);
    w.end_array();
    w.end_object();
  });
}

std::string ArchivedSummaryViews::goroutine_group_page_json(std::string_view name, std::string_view column,
                                                            bool descending, size_t offset,
                                                            std::optional<size_t> limit) {
  const std::optional<size_t> found = find_group(groups(), name);
  if (!found) return "null";
  const size_t k = *found;
  const std::optional<GoroutineSort> by = parse_goroutine_sort(column).value_or(GoroutineSort::Total);
  if (!sorted_ || sorted_->name != name || sorted_->by != *by || sorted_->descending != descending) {
    auto sorted = std::make_unique<SortedGroup>(SortedGroup{std::string(name), *by, descending, {}, {}});
    const std::vector<uint32_t>& members = ordered_members(k);
    const std::optional<uint32_t> assist = assist_range(scratch_);
    // Ties keep the group's order, as sorted_goroutines.
    std::vector<std::pair<double, uint32_t>> keyed;
    keyed.reserve(members.size());
    for (uint32_t m : members) {
      const GoroutineSummary& g = goroutine_at(m);
      sorted->bounds.add(g);
      keyed.push_back({goroutine_sort_key(g, *by, assist), m});
    }
    if (!(*by == GoroutineSort::Total && descending)) {
      std::stable_sort(keyed.begin(), keyed.end(),
                       [&](const auto& a, const auto& b) { return descending ? a.first > b.first : a.first < b.first; });
    }
    sorted->rows.reserve(keyed.size());
    for (auto& [key, m] : keyed) sorted->rows.push_back(m);
    sorted_ = std::move(sorted);
  }
  const std::vector<uint32_t>& rows = sorted_->rows;
  const size_t from = std::min(rows.size(), offset);
  const size_t to = limit ? std::min(rows.size(), from + *limit) : rows.size();
  return json_of(false, [&](JsonWriter& w) {
    analysis::goroutine_group_page_json(w, scratch_, groups()[k], sorted_->bounds, [&](JsonWriter& out) {
      for (size_t i = from; i < to; i++) goroutine_row_json(out, scratch_, goroutine_at(rows[i]));
    });
  });
}

std::string ArchivedSummaryViews::goroutine_json(double id) {
  const auto goid = static_cast<GoID>(id);
  const std::optional<size_t> k = static_cast<double>(goid) == id ? archived_.goroutine_index(goid) : std::nullopt;
  if (!k) return "null";
  const GoroutineSummary& g = goroutine_at(*k);
  return json_of(false, [&](JsonWriter& w) {
    w.begin_object();
    w.key("goroutine");
    analysis::goroutine_json(w, scratch_, g, scratch_.regions);
    w.field("group", g.name);
    w.end_object();
  });
}

std::string ArchivedSummaryViews::task_types_json(bool pretty) {
  if (!task_types_) {
    TaskTypeTally tally;
    for (size_t k = 0; k < archived_.tasks.size(); k++) {
      archived_.task(k, task_);
      tally.add(task_);
    }
    task_types_ = std::make_unique<std::vector<TaskTypeStats>>(tally.take());
  }
  return analysis::task_types_document(*task_types_, pretty);
}

void ArchivedSummaryViews::task_entry(JsonWriter& w, size_t k) { task_entry_json(w, events_, scratch_, task_at(k)); }

std::string ArchivedSummaryViews::tasks_in_bucket_json(std::string_view type, std::optional<double> min) {
  const std::optional<int> b = bucket_of_min(min);
  std::vector<size_t> in_bucket;
  for (size_t k = 0; k < archived_.tasks.size(); k++) {
    archived_.task(k, task_);
    if (task_in_bucket(task_, type, b)) in_bucket.push_back(k);
  }
  return json_of(false, [&](JsonWriter& w) {
    w.begin_array();
    for (size_t k : in_bucket) task_entry(w, k);
    w.end_array();
  });
}

std::string ArchivedSummaryViews::task_json(double id) {
  const auto tid = static_cast<TaskID>(id);
  const std::optional<size_t> k = id >= 0 && static_cast<double>(tid) == id ? archived_.task_index(tid) : std::nullopt;
  if (!k) return "null";
  return json_of(false, [&](JsonWriter& w) { task_entry(w, *k); });
}

std::string ArchivedSummaryViews::region_types_json(bool pretty) {
  if (!region_types_) {
    RegionTypeTally tally(tables_, events_);
    for (size_t k = 0; k < archived_.goroutines.size(); k++) {
      goroutine_at(k);
      for (const RegionSummary& r : scratch_.regions) tally.add(scratch_, r);
    }
    region_types_ = std::make_unique<std::vector<RegionTypeStats>>(tally.take());
  }
  return analysis::region_types_document(*region_types_, pretty);
}

std::string ArchivedSummaryViews::regions_in_bucket_json(std::string_view type, double min,
                                                         std::optional<uint64_t> pc) {
  const int b = bucket_of_min(min);
  const RegionsAtPc at{tables_, events_, pc.value_or(0)};
  return json_of(false, [&](JsonWriter& w) {
    w.begin_array();
    for (size_t k = 0; k < archived_.goroutines.size(); k++) {
      goroutine_at(k);
      for (const RegionSummary& r : scratch_.regions)
        if (region_in_bucket(scratch_, r, type, b, pc ? &at : nullptr))
          region_entry_json(w, scratch_, r);
    }
    w.end_array();
  });
}

std::string ArchivedSummaryViews::task_logs_matching_json(std::string_view text, size_t limit) {
  std::vector<std::pair<TaskID, uint64_t>> logs;
  for (size_t k = 0; k < archived_.tasks.size() && logs.size() < limit; k++) {
    archived_.task(k, task_);
    for (uint64_t i : task_.logs) {
      if (logs.size() >= limit) break;
      if (log_matches(events_.log(i), text)) logs.push_back({task_.id, i});
    }
  }
  return json_of(false, [&](JsonWriter& w) { task_logs_json(w, events_, logs); });
}

}  // namespace gotrace
