// SummaryViews: the summary's analyses (goroutines.h, tasks.h, regions.h) and the pages of
// them (summary_pages.h), kept once computed.
#include "gotrace/summary_views.h"

#include <algorithm>

#include "gotrace/analysis/summary_json.h"

namespace gotrace {

using namespace gotrace::analysis;

const std::vector<GoroutineGroup>& SummaryViews::groups() {
  if (!groups_) {
    groups_ = std::make_unique<std::vector<GoroutineGroup>>(goroutine_groups_unordered(summary_));
    group_members_.assign(groups_->size(), {});
  }
  return *groups_;
}

const std::vector<const GoroutineSummary*>& SummaryViews::members_of(size_t k) {
  GoroutineGroup& g = groups_->at(k);
  if (group_members_[k].size() != g.members.size()) {
    order_members(summary_, g);
    group_members_[k] = group_members(summary_, g);
  }
  return group_members_[k];
}

const std::vector<TaskTypeStats>& SummaryViews::task_types() {
  if (!task_types_) task_types_ = std::make_unique<std::vector<TaskTypeStats>>(analysis::task_types(summary_));
  return *task_types_;
}

const std::vector<RegionTypeStats>& SummaryViews::region_types() {
  if (!region_types_)
    region_types_ = std::make_unique<std::vector<RegionTypeStats>>(analysis::region_types(tables_, summary_, events_));
  return *region_types_;
}

std::string SummaryViews::goroutine_groups_json(bool pretty) {
  return json_of(pretty, [&](JsonWriter& w) {
    w.begin_object();
    w.field("count", static_cast<uint64_t>(summary_.goroutines.size()));
    w.key("groups").begin_array();
    for (const GoroutineGroup& g : groups()) goroutine_group_json(w, summary_, g);
    w.end_array();
    w.end_object();
  });
}

std::string SummaryViews::goroutine_group_page_json(std::string_view name, std::string_view column, bool descending,
                                                    size_t offset, std::optional<size_t> limit) {
  const std::optional<size_t> found = find_group(groups(), name);
  if (!found) return "null";
  const size_t k = *found;
  const std::optional<GoroutineSort> by = parse_goroutine_sort(column).value_or(GoroutineSort::Total);
  if (!sorted_ || sorted_->name != name || sorted_->by != *by || sorted_->descending != descending) {
    sorted_ = std::make_unique<SortedGroup>(
        SortedGroup{std::string(name), *by, descending, sorted_goroutines(summary_, members_of(k), *by, descending)});
  }
  const auto& rows = sorted_->rows;
  const size_t from = std::min(rows.size(), offset);
  const size_t to = limit ? std::min(rows.size(), from + *limit) : rows.size();
  return json_of(false, [&](JsonWriter& w) { analysis::goroutine_group_page_json(w, summary_, groups()[k], rows, from, to); });
}

std::string SummaryViews::goroutine_json(double id) {
  const GoroutineSummary* g = summary_.goroutine(static_cast<GoID>(id));
  if (!g || static_cast<double>(g->id) != id) return "null";
  return json_of(false, [&](JsonWriter& w) {
    w.begin_object();
    w.key("goroutine");
    analysis::goroutine_json(w, summary_, *g);
    w.field("group", g->name);
    w.end_object();
  });
}

std::string SummaryViews::task_types_json(bool pretty) {
  return analysis::task_types_document(task_types(), pretty);
}

std::string SummaryViews::tasks_in_bucket_json(std::string_view type, std::optional<double> min) {
  return json_of(false, [&](JsonWriter& w) {
    w.begin_array();
    for (const TaskSummary* t : tasks_in_bucket(summary_, type, bucket_of_min(min))) task_entry_json(w, events_, summary_, *t);
    w.end_array();
  });
}

std::string SummaryViews::task_json(double id) {
  const TaskSummary* t = summary_.task(static_cast<TaskID>(id));
  if (!t || static_cast<double>(t->id) != id) return "null";
  return json_of(false, [&](JsonWriter& w) { task_entry_json(w, events_, summary_, *t); });
}

std::string SummaryViews::region_types_json(bool pretty) {
  return analysis::region_types_document(region_types(), pretty);
}

std::string SummaryViews::regions_in_bucket_json(std::string_view type, double min, std::optional<uint64_t> pc) {
  const RegionsAtPc at{tables_, events_, pc.value_or(0)};
  return json_of(false, [&](JsonWriter& w) {
    w.begin_array();
    for (const RegionSummary* r : regions_in_bucket(summary_, type, bucket_of_min(min), pc ? &at : nullptr))
      region_entry_json(w, summary_, *r);
    w.end_array();
  });
}

std::string SummaryViews::task_logs_matching_json(std::string_view text, size_t limit) {
  const auto logs = logs_matching(events_, summary_, text, limit);
  return json_of(false, [&](JsonWriter& w) { task_logs_json(w, events_, logs); });
}

}  // namespace gotrace
