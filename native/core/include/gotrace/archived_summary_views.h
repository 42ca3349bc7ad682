// SummaryAnswers over summaries put away in an archive as they ended (ArchivedSummary:
// ~34 bytes a goroutine, region or task, where the arrays of SummaryViews take 128-192):
// the goroutine, task and region views of a trace of millions of goroutines. Each answer
// reads back what it needs, one goroutine or task at a time; what is kept besides is the
// groups with their members (4 bytes a goroutine), the task and region types, and the
// last group sorted for a page.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gotrace/analysis/goroutines.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/summary_archive.h"
#include "gotrace/analysis/summary_events.h"
#include "gotrace/analysis/summary_pages.h"
#include "gotrace/analysis/tasks.h"
#include "gotrace/summary_answers.h"

namespace gotrace {

class ArchivedSummaryViews final : public SummaryAnswers {
 public:
  // `tables`: the store whose string and stack tables the summaries name; `rest`: what
  // the summary holds besides its goroutines, tasks and regions (the names the stats
  // refer to, the first and last times: Summarizer::finish_archived's); `events`: what
  // is read of events besides. All four outlive the views.
  ArchivedSummaryViews(const EventStore& tables, const analysis::ArchivedSummary& archived,
                       const analysis::Summary& rest, const analysis::SummaryEvents& events);

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
  // Goroutine k (in id order) read back: its regions in scratch_.regions.
  const analysis::GoroutineSummary& goroutine_at(size_t k);
  // Task k read back, with its regions (found on its goroutines) in scratch_.regions.
  const analysis::TaskSummary& task_at(size_t k);
  const std::vector<analysis::GoroutineGroup>& groups();
  // Group k's members in its order (total, longest first, then id), and the bounds of its page.
  const std::vector<uint32_t>& ordered_members(size_t k);
  void task_entry(JsonWriter& w, size_t k);

  const EventStore& tables_;
  const analysis::ArchivedSummary& archived_;
  const analysis::SummaryEvents& events_;
  // The rest's names and times, with the regions of the goroutine or task read last.
  analysis::Summary scratch_;
  analysis::GoroutineSummary goroutine_;
  analysis::TaskSummary task_;
  std::vector<analysis::RegionSummary> regions_;  // read back with a goroutine
  std::unique_ptr<std::vector<analysis::GoroutineGroup>> groups_;  // members as places in id order
  std::vector<bool> ordered_;  // of each group, whether its members are in its order
  std::unique_ptr<std::vector<analysis::TaskTypeStats>> task_types_;
  std::unique_ptr<std::vector<analysis::RegionTypeStats>> region_types_;
  // The last group sorted for a page (paging through it sorts once).
  struct SortedGroup {
    std::string name;
    analysis::GoroutineSort by = analysis::GoroutineSort::Total;
    bool descending = true;
    std::vector<uint32_t> rows;
    analysis::GroupPageBounds bounds;
  };
  std::unique_ptr<SortedGroup> sorted_;
};

}  // namespace gotrace
