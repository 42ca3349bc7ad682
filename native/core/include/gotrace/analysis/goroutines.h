// The goroutine analysis of `go tool trace`: goroutines grouped by start function
// (cmd/trace/goroutines.go), from the summaries of summary.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gotrace/analysis/summary.h"
#include "gotrace/flat_map.h"

namespace gotrace::analysis {

struct GoroutineGroup {
  std::string_view name;  // start function; "" for goroutines never seen with a stack
  size_t count = 0;
  ExecStats totals;       // the sum of its goroutines' statistics (names as in the Summary)
  std::vector<GoID> goroutines;  // by total time, longest first (Go's order on a group's page)
  std::vector<uint32_t> members;  // the same goroutines as indices into Summary::goroutines
};

// Every group, by total execution time, most first (then by name).
std::vector<GoroutineGroup> goroutine_groups(const Summary& summary);
// The same with each group's `members` in id order and `goroutines` empty, until
// order_members() puts a group's in Go's order: the groups and their totals without
// sorting every group (a viewer orders a group when it shows it).
std::vector<GoroutineGroup> goroutine_groups_unordered(const Summary& summary);
void order_members(const Summary& summary, GoroutineGroup& group);
// The place of the group of start function `name`, if any.
std::optional<size_t> find_group(const std::vector<GoroutineGroup>& groups, std::string_view name);

// goroutine_groups_unordered a goroutine at a time, for summaries that are not held in
// one array (an archive's, read back in turn): add() each in id order with its index.
class GoroutineGrouping {
 public:
  void add(const GoroutineSummary& g, uint32_t k);
  // The groups by total execution time, most first (then by name).
  std::vector<GoroutineGroup> take();

 private:
  std::vector<GoroutineGroup> groups_;
  // Names are views into the store's string table, where equal strings are one string:
  // most goroutines find their group by the address of their name (the same address and
  // length: the same string), without hashing or comparing its bytes; goroutines in id
  // order often share the previous one's.
  std::unordered_map<std::string_view, size_t> by_name_;
  FlatMap<uint32_t> by_address_;
  const char* last_name_ = nullptr;
  size_t last_size_ = SIZE_MAX, last_ = 0;  // none yet
};

// Go's NonOverlappingStats with the names its pages show ("Execution time",
// "Sched wait time", "Syscall execution time", "Block time (syscall)", "Unknown time",
// "Block time (<reason>)"), "Execution time" first and the rest by name.
struct NamedDuration {
  std::string name;
  int64_t ns = 0;
};
std::vector<NamedDuration> non_overlapping_stats(const Summary& summary, const ExecStats& stats);

}  // namespace gotrace::analysis
