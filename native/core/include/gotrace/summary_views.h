// What the goroutine, task and region views show of a summary held in arrays: the
// goroutine groups and a group's goroutines sorted for a page, the task and region types,
// the instances in a histogram bucket, one goroutine or task (SummaryAnswers), computed
// on first use and kept. Over a session's summary (TraceSession), or over a streamed
// read's (StreamedSummary: the whole trace's, its events released as it was read).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gotrace/analysis/goroutines.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/summary_events.h"
#include "gotrace/analysis/summary_pages.h"
#include "gotrace/analysis/tasks.h"
#include "gotrace/summary_answers.h"

namespace gotrace {

class SummaryViews final : public SummaryAnswers {
 public:
  // `tables`: the store whose string and stack tables the summary's names and stacks are
  // in; `events`: what is read of its events besides. All three outlive the views.
  SummaryViews(const EventStore& tables, const analysis::Summary& summary, const analysis::SummaryEvents& events)
      : tables_(tables), summary_(summary), events_(events) {}

  const analysis::Summary& summary() const { return summary_; }
  const analysis::SummaryEvents& events() const { return events_; }
  // The groups (goroutine_groups_unordered), and a group's goroutines in its order,
  // put in order when first asked for.
  const std::vector<analysis::GoroutineGroup>& groups();
  const std::vector<const analysis::GoroutineSummary*>& members_of(size_t group);
  const std::vector<analysis::TaskTypeStats>& task_types();
  const std::vector<analysis::RegionTypeStats>& region_types();

  std::string goroutine_groups_json(bool pretty = false) override;
  std::string goroutine_group_page_json(std::string_view name, std::string_view column, bool descending,
                                        size_t offset, std::optional<size_t> limit) override;
  std::string goroutine_json(double id) override;
  std::string task_types_json(bool pretty = false) override;
  std::string tasks_in_bucket_json(std::string_view type, std::optional<double> min) override;
  std::string task_json(double id) override;
  std::string region_types_json(bool pretty = false) override;
  std::string regions_in_bucket_json(std::string_view type, double min, std::optional<uint64_t> pc = {}) override;
  std::string task_logs_matching_json(std::string_view text, size_t limit) override;

 private:
  const EventStore& tables_;
  const analysis::Summary& summary_;
  const analysis::SummaryEvents& events_;
  std::unique_ptr<std::vector<analysis::GoroutineGroup>> groups_;
  std::vector<std::vector<const analysis::GoroutineSummary*>> group_members_;  // of each group shown, in its order
  std::unique_ptr<std::vector<analysis::TaskTypeStats>> task_types_;
  std::unique_ptr<std::vector<analysis::RegionTypeStats>> region_types_;
  // The last group sorted for a page (paging through it sorts once).
  struct SortedGroup {
    std::string name;
    analysis::GoroutineSort by = analysis::GoroutineSort::Total;
    bool descending = true;
    std::vector<const analysis::GoroutineSummary*> rows;
  };
  std::unique_ptr<SortedGroup> sorted_;
};

}  // namespace gotrace
