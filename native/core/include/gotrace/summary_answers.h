// What the goroutine, task and region views ask of a summary, each answer the JSON the
// npm package returns (wasm-bindings/js/index.d.ts gives the shapes): over summaries held
// in arrays (SummaryViews) or put away in an archive as they ended (ArchivedSummaryViews,
// for traces of millions of goroutines).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gotrace {

class SummaryAnswers {
 public:
  virtual ~SummaryAnswers() = default;
  // {"count", "groups": [goroutine_group_json...]}, by execution time.
  virtual std::string goroutine_groups_json(bool pretty = false) = 0;
  // A page of a group's goroutines sorted by a column (goroutine_group_page_json), or
  // "null" for no such group.
  virtual std::string goroutine_group_page_json(std::string_view name, std::string_view column, bool descending,
                                                size_t offset, std::optional<size_t> limit) = 0;
  // {"goroutine", "group"}, or "null".
  virtual std::string goroutine_json(double id) = 0;
  virtual std::string task_types_json(bool pretty = false) = 0;
  // The tasks of a type in the bucket that begins at `min` ns; with no `min`, all of them.
  virtual std::string tasks_in_bucket_json(std::string_view type, std::optional<double> min) = 0;
  virtual std::string task_json(double id) = 0;
  virtual std::string region_types_json(bool pretty = false) = 0;
  // With `pc`, only the regions begun there (one of Go's region types: RegionsAtPc).
  virtual std::string regions_in_bucket_json(std::string_view type, double min, std::optional<uint64_t> pc = {}) = 0;
  // Task logs whose category or message contains `text` (logs_matching), at most `limit`.
  virtual std::string task_logs_matching_json(std::string_view text, size_t limit) = 0;
};

}  // namespace gotrace
