// The critical path of an interval of one goroutine: what its end waited on. Walking
// back from the end, the goroutine's own running, scheduling wait and syscalls are
// on the path; where it was blocked, the path follows the wake-up to the goroutine that
// woke it, at the moment it did, and goes on from there, until the start is reached.
// Waits that no goroutine ended (the network poller, timers, the runtime) stay on the
// goroutine that waited, named by Go's block reason, and so do waits that the runtime's
// own goroutines ended (a GC worker waking an assist). Every nanosecond of the interval is
// on the path exactly once.
//
// Names (reasons, functions) are views into the store's string table: a path is valid
// as long as the EventStore it was computed from.
#pragma once

#include <cstdint>
#include <optional>
#include <memory>
#include <unordered_map>
#include <string>
#include <string_view>
#include <vector>

#include "gotrace/analysis/summary.h"
#include "gotrace/event_store.h"
#include "gotrace/types.h"

namespace gotrace::analysis {

enum class PathState : uint8_t {
  Running,        // the goroutine ran
  Runnable,       // ready, waiting for a proc (scheduling latency)
  Syscall,        // in a system call
  Blocked,        // waiting on something no goroutine ended (reason says what)
  GCMarkAssist,   // running, but helping the GC mark
  GCSweep,        // running, but sweeping for the GC
  StopTheWorld,   // runnable while the world was stopped (reason: Go's STW kind)
  NotInTrace,     // before what the trace says of the goroutine
};
std::string_view path_state_name(PathState s);

struct PathSegment {
  GoID goroutine = kNoGoroutine;
  PathState state = PathState::Running;
  Time start = 0;
  Time end = 0;
  std::string_view reason;  // Blocked: Go's block reason; StopTheWorld: its kind
  // The stack that explains the segment: where a block, syscall or preemption began, or
  // where a run ended (the call that blocked, or woke the goroutine the path came from).
  StackID stack = 0;
  int64_t duration() const { return end - start; }
};

// Time on the path by one key (a category, a goroutine, a function).
struct PathTotal {
  std::string key;
  GoID goroutine = kNoGoroutine;  // for totals by goroutine
  int64_t ns = 0;
};

struct CriticalPath {
  GoID goroutine = kNoGoroutine;  // the goroutine whose interval it is
  Time from = 0;
  Time to = 0;
  std::vector<PathSegment> segments;  // in time order; they tile [from, to]
  size_t handoffs = 0;                // wake-ups followed from one goroutine to another
};

// What the walk needs of the whole trace: each goroutine's transitions, the ranges in
// which running time was GC work, and the stop-the-world ranges. One pass.
class CriticalPathIndex {
 public:
  CriticalPathIndex();
  CriticalPathIndex(CriticalPathIndex&&) noexcept;
  CriticalPathIndex& operator=(CriticalPathIndex&&) noexcept;
  ~CriticalPathIndex();

  // The index of the first event after time t (the position an interval ending at t
  // ends at).
  uint64_t position_after(Time t) const;

 private:
  friend CriticalPathIndex build_critical_path_index(const EventStore& store, const Summary& summary);
  friend CriticalPath critical_path(const CriticalPathIndex& index, GoID g, Time from, Time to, uint64_t end_event,
                                    bool follow);
  struct Data;
  std::unique_ptr<Data> d_;
};

// `summary` names the runtime's goroutines (their start functions).
CriticalPathIndex build_critical_path_index(const EventStore& store, const Summary& summary);

// The path of goroutine g over [from, to]. `end_event` is the store index of the event
// that ends the interval (a TaskEnd, a region's end), or kNoEvent to end it after every
// event at time `to`. Throws std::invalid_argument when g never appears in the trace or
// the interval is empty or reversed. With `follow` false the walk stays on g (every wait
// is g's own "blocked"): g's own account of the interval, as Go's summary counts it.
CriticalPath critical_path(const CriticalPathIndex& index, GoID g, Time from, Time to, uint64_t end_event = kNoEvent,
                           bool follow = true);

// The interval of a task (from its begin to its end, on the goroutine that ended it) and
// of a region; std::invalid_argument when it has no end in the trace.
struct PathInterval {
  GoID goroutine = kNoGoroutine;
  Time from = 0;
  Time to = 0;
  uint64_t end_event = kNoEvent;
};
PathInterval task_path_interval(const EventStore& store, const TaskSummary& task);
PathInterval region_path_interval(const Summary& summary, const RegionSummary& region);
// A goroutine's life in the trace: from its creation (or the trace's first event) to its
// end (or the trace's last event).
PathInterval goroutine_path_interval(const Summary& summary, const GoroutineSummary& g);

// A selection as the CLI and the package name it: kind "task" (`which`: its id),
// "region" (`which`: "NAME" or "NAME#N", the Nth region of the type to start, from 1) or
// "goroutine" (`which`: its id; `from`/`to` narrow its life when given). Throws
// std::invalid_argument with what is wrong (no such task, no end in the trace...).
PathInterval path_interval(const EventStore& store, const Summary& summary, std::string_view kind,
                           std::string_view which, std::optional<Time> from = std::nullopt,
                           std::optional<Time> to = std::nullopt);

// The frame named for a stack: the innermost one outside the runtime and the standard
// library's synchronisation and iteration internals ("" for no stack).
std::string_view path_function(const EventStore& store, StackID stack);

// Totals of a path: by category ("running", "blocked: chan receive", ...), by goroutine
// (key: its start function), and by category and function ("blocked: sync @
// main.(*Pool).get"). Largest first.
struct PathTotals {
  std::vector<PathTotal> by_category;
  std::vector<PathTotal> by_goroutine;
  std::vector<PathTotal> by_function;
};
std::string path_category(const PathSegment& s);
PathTotals path_totals(const EventStore& store, const Summary& summary, const CriticalPath& path);

// Many paths of one kind (every task of a type, every region of a type): the duration
// distribution of the instances and, per category and per function, the time on their
// paths summed and as a share of their total.
struct PathAggregate {
  std::string kind;  // "task" or "region"
  std::string name;
  std::optional<uint64_t> pc;  // the regions' pc, when they were selected by it
  size_t instances = 0;
  std::vector<int64_t> durations;  // ascending
  int64_t total_ns = 0;
  std::vector<PathTotal> by_category;  // filled by finish_aggregate
  std::vector<PathTotal> by_function;

  // Time by (state, reason, stack) while paths are added: names are made once, at the end.
  struct Key {
    PathState state;
    const char* reason;  // into the store's string table
    size_t reason_size;
    StackID stack;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return std::hash<const void*>()(k.reason) * 31 + (static_cast<size_t>(k.stack) << 4) + static_cast<size_t>(k.state);
    }
  };
  std::unordered_map<Key, int64_t, KeyHash> pending;
};
// Adds `path` to `aggregate`; finish_aggregate then names and sorts the totals.
void add_to_aggregate(PathAggregate& aggregate, const CriticalPath& path);
void finish_aggregate(PathAggregate& aggregate, const EventStore& store);

// Which instances of a type aggregate_paths sums.
struct PathTypeSelection {
  std::string kind;  // "task" or "region"
  std::string name;
  // Regions: only those begun at this pc (of the types that share a name, the one Go's
  // region pages tell apart by its pc; RegionTypeStats::pc).
  std::optional<uint64_t> pc;
  int64_t min_ns = 0, max_ns = INT64_MAX;  // durations in [min_ns, max_ns): a histogram's bucket
  double slowest_percent = 100;            // of those, the slowest (100: all)
};

// The paths of the tasks or regions of a type that ended in the trace, as `which` selects
// them, summed. Throws when none qualifies.
PathAggregate aggregate_paths(const CriticalPathIndex& index, const EventStore& store, const Summary& summary,
                              const PathTypeSelection& which);

}  // namespace gotrace::analysis
