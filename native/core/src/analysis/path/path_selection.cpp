// What a critical path is asked of: a task, a region or a goroutine by the names the CLI
// and the package use, and every instance of a task or region type.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "gotrace/analysis/critical_path.h"
#include "gotrace/analysis/regions.h"

namespace gotrace::analysis {

namespace {

int64_t whole_number(std::string_view what, std::string_view v) {
  int64_t n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size()) {
    throw std::invalid_argument(std::string(what) + " wants a whole number, not '" + std::string(v) + "'");
  }
  return n;
}

// The regions of a type, by start.
std::vector<const RegionSummary*> regions_named(const Summary& s, std::string_view name) {
  std::vector<const RegionSummary*> out;
  for (const RegionSummary& r : s.regions) {
    if (r.name == name) out.push_back(&r);
  }
  std::stable_sort(out.begin(), out.end(), [](const RegionSummary* a, const RegionSummary* b) { return a->start < b->start; });
  return out;
}

}  // namespace

PathInterval path_interval(const EventStore& store, const Summary& summary, std::string_view kind,
                           std::string_view which, std::optional<Time> from, std::optional<Time> to) {
  if (kind != "goroutine" && (from || to)) throw std::invalid_argument("a range (from, to) goes with a goroutine");
  if (kind == "task") {
    const int64_t id = whole_number("a task", which);
    const TaskSummary* t = summary.task(static_cast<TaskID>(id));
    if (!t) throw std::invalid_argument("no task " + std::string(which) + " in the trace");
    return task_path_interval(store, *t);
  }
  if (kind == "region") {
    std::string_view name = which;
    size_t n = 1;
    if (const size_t hash = which.rfind('#'); hash != std::string_view::npos) {
      name = which.substr(0, hash);
      const int64_t k = whole_number("a region's #N", which.substr(hash + 1));
      if (k < 1) throw std::invalid_argument("a region's #N counts from 1");
      n = static_cast<size_t>(k);
    }
    const std::vector<const RegionSummary*> named = regions_named(summary, name);
    if (named.size() < n) {
      throw std::invalid_argument("the trace has " + std::to_string(named.size()) + " region(s) of type '" +
                                  std::string(name) + "'");
    }
    return region_path_interval(summary, *named[n - 1]);
  }
  if (kind == "goroutine") {
    const int64_t g = whole_number("a goroutine", which);
    const GoroutineSummary* gs = summary.goroutine(g);
    if (!gs) throw std::invalid_argument("no goroutine " + std::string(which) + " in the trace");
    PathInterval i = goroutine_path_interval(summary, *gs);
    if (from) i.from = *from;
    if (to) {
      i.to = *to;
      i.end_event = kNoEvent;
    }
    if (i.to < i.from) throw std::invalid_argument("the range ends before it starts");
    return i;
  }
  throw std::invalid_argument("a critical path is of a task, a region or a goroutine, not '" + std::string(kind) + "'");
}

PathAggregate aggregate_paths(const CriticalPathIndex& index, const EventStore& store, const Summary& summary,
                              const PathTypeSelection& which) {
  const std::string_view kind = which.kind, name = which.name;
  if (!(which.slowest_percent > 0 && which.slowest_percent <= 100))
    throw std::invalid_argument("the slowest percent is in (0, 100]");
  if (which.pc && kind != "region") throw std::invalid_argument("a pc selects among region types, not " + which.kind + " types");
  std::vector<PathInterval> all;
  if (kind == "task") {
    for (const TaskSummary& t : summary.tasks) {
      if (t.name == name && t.complete() && store.goroutine(t.end_event) != kNoGoroutine) {
        all.push_back(task_path_interval(store, t));
      }
    }
  } else if (kind == "region") {
    // The store holds every event here: the start events' stacks are its own.
    const StoreEvents events(store);
    const RegionsAtPc at{store, events, which.pc.value_or(0)};
    for (const RegionSummary* r : regions_named(summary, name)) {
      if (r->has_end() && (!which.pc || at(*r))) all.push_back(region_path_interval(summary, *r));
    }
  } else {
    throw std::invalid_argument("paths are summed over a task type or a region type, not '" + which.kind + "'");
  }
  std::erase_if(all, [&](const PathInterval& i) { return i.to - i.from < which.min_ns || i.to - i.from >= which.max_ns; });
  if (all.empty()) {
    char at[40] = "";
    if (which.pc) std::snprintf(at, sizeof at, " begun at 0x%llx", static_cast<unsigned long long>(*which.pc));
    throw std::invalid_argument("no " + which.kind + " of type '" + which.name + "'" + at + " ends in the trace" +
                                (which.min_ns > 0 || which.max_ns < INT64_MAX ? " with such a duration" : ""));
  }
  if (which.slowest_percent < 100) {
    std::stable_sort(all.begin(), all.end(),
                     [](const PathInterval& a, const PathInterval& b) { return a.to - a.from > b.to - b.from; });
    const auto keep = static_cast<size_t>(static_cast<double>(all.size()) * which.slowest_percent / 100.0 + 0.999999);
    all.resize(std::max<size_t>(1, keep));
  }
  PathAggregate a;
  a.kind = which.kind;
  a.name = which.name;
  a.pc = which.pc;
  for (const PathInterval& i : all) add_to_aggregate(a, critical_path(index, i.goroutine, i.from, i.to, i.end_event));
  finish_aggregate(a, store);
  return a;
}

}  // namespace gotrace::analysis
