// The grouping of cmd/trace/goroutines.go (Go 1.23).
#include "gotrace/analysis/goroutines.h"

#include <algorithm>
#include <map>

#include "gotrace/event_slices.h"
#include "gotrace/go_int.h"

namespace gotrace::analysis {
namespace {

template <class Entries>
void add_entries(Entries& to, std::span<const StatEntry> from) {
  for (const StatEntry& e : from) {
    auto it = std::find_if(to.begin(), to.end(), [&](const StatEntry& t) { return t.name == e.name; });
    if (it != to.end()) {
      it->ns = wrap_add(it->ns, e.ns);
    } else {
      to.push_back(e);
    }
  }
}

}  // namespace

void GoroutineGrouping::add(const GoroutineSummary& g, uint32_t k) {
  size_t at;
  if (g.name.data() == last_name_ && g.name.size() == last_size_) {
    at = last_;
  } else if (const uint32_t* a = by_address_.find(reinterpret_cast<uintptr_t>(g.name.data()));
             a && groups_[*a].name.size() == g.name.size()) {
    at = *a;
  } else {
    auto [it, inserted] = by_name_.try_emplace(g.name, groups_.size());
    if (inserted) {
      groups_.emplace_back();
      groups_.back().name = g.name;
    }
    at = it->second;
    by_address_[reinterpret_cast<uintptr_t>(g.name.data())] = static_cast<uint32_t>(at);
  }
  last_name_ = g.name.data();
  last_size_ = g.name.size();
  last_ = at;
  GoroutineGroup& group = groups_[at];
  group.count++;
  ExecStats& t = group.totals;
  t.exec = wrap_add(t.exec, g.stats.exec);
  t.sched_wait = wrap_add(t.sched_wait, g.stats.sched_wait);
  t.syscall = wrap_add(t.syscall, g.stats.syscall);
  t.syscall_block = wrap_add(t.syscall_block, g.stats.syscall_block);
  t.total = wrap_add(t.total, g.stats.total);
  add_entries(t.block, g.stats.block);
  add_entries(t.ranges, g.stats.ranges);
  group.members.push_back(k);
}

std::vector<GoroutineGroup> GoroutineGrouping::take() {
  std::sort(groups_.begin(), groups_.end(), [](const GoroutineGroup& a, const GoroutineGroup& b) {
    return a.totals.exec != b.totals.exec ? a.totals.exec > b.totals.exec : a.name < b.name;
  });
  return std::move(groups_);
}

std::vector<GoroutineGroup> goroutine_groups_unordered(const Summary& summary) {
  GoroutineGrouping grouping;
  // In slices: a loop entered once stays in WebAssembly's baseline code (event_slices.h).
  for_each_event_slice(summary.goroutines.size(), [&](size_t from, size_t to) {
    for (auto k = static_cast<uint32_t>(from); k < to; k++) grouping.add(summary.goroutines[k], k);
  }, kRecordSlice);
  return grouping.take();
}

std::optional<size_t> find_group(const std::vector<GoroutineGroup>& groups, std::string_view name) {
  for (size_t k = 0; k < groups.size(); k++)
    if (groups[k].name == name) return k;
  return std::nullopt;
}

void order_members(const Summary& summary, GoroutineGroup& group) {
  if (group.goroutines.size() == group.members.size()) return;  // ordered already
  // Longest first, then by id: the summaries are in id order, so by index.
  std::vector<std::pair<int64_t, uint32_t>> by_total;
  by_total.reserve(group.members.size());
  for (uint32_t k : group.members) by_total.push_back({summary.goroutines[k].stats.total, k});
  std::sort(by_total.begin(), by_total.end(), [](auto& a, auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  group.goroutines.resize(by_total.size());
  for (size_t i = 0; i < by_total.size(); i++) {
    group.members[i] = by_total[i].second;
    group.goroutines[i] = summary.goroutines[by_total[i].second].id;
  }
}

std::vector<GoroutineGroup> goroutine_groups(const Summary& summary) {
  std::vector<GoroutineGroup> groups = goroutine_groups_unordered(summary);
  for (GoroutineGroup& group : groups) order_members(summary, group);
  return groups;
}

std::vector<NamedDuration> non_overlapping_stats(const Summary& summary, const ExecStats& s) {
  // A map, as in Go: a block reason "syscall" adds to "Block time (syscall)".
  std::map<std::string, int64_t> stats = {
      {"Execution time", s.exec},
      {"Sched wait time", s.sched_wait},
      {"Syscall execution time", s.syscall},
      {"Block time (syscall)", s.syscall_block},
      {"Unknown time", s.unknown()},
  };
  for (const StatEntry& e : s.block) {
    int64_t& ns = stats["Block time (" + std::string(summary.block_reasons[e.name]) + ")"];
    ns = wrap_add(ns, e.ns);
  }
  std::vector<NamedDuration> out;
  out.push_back({"Execution time", stats["Execution time"]});
  for (auto& [name, ns] : stats)
    if (name != "Execution time") out.push_back({name, ns});
  return out;
}

}  // namespace gotrace::analysis
