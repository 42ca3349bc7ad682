// Every wake-up edge of the trace (the unsampled WakeEdges of timeline_query.h), grouped
// by the goroutine woken and by the goroutine that woke it: who woke a goroutine and whom
// it woke, over any time range, without walking every proc's track (a long-lived
// goroutine's lifetime holds most of the trace's starts).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "gotrace/analysis/timeline.h"
#include "gotrace/analysis/timeline_query.h"

namespace gotrace::analysis {

// One counterpart of a goroutine's wake-ups: how many edges, and the time of the first
// (in the order the woken goroutines started): for wokenBy the start, for woke the wake.
struct WakeCount {
  int64_t goroutine = 0;  // -1: no goroutine (the runtime)
  uint64_t count = 0;
  Time first = 0;
};

// Most edges first, then by goroutine.
struct WakeCounts {
  std::vector<WakeCount> woken_by;  // edges into the goroutine, by the waker
  std::vector<WakeCount> woke;      // edges from it into other goroutines, by the woken
};

// The same counts from edges a query gave (sampled or not).
WakeCounts count_wakeups(const WakeEdges& edges, int64_t g);

class WakeIndex {
 public:
  // The edges whose start (the woken goroutine's GoStart) is in [from, to): the same as
  // counting query_wake_edges(index, {from, to, ...}, no limit) for goroutine g.
  WakeCounts count(int64_t g, Time from, Time to) const;
  size_t edges() const { return into_.edges.size(); }

  // Edges grouped by a goroutine: group k (ids ascending) is edges[begin[k], end[k]), in
  // start order. An edge is (start, wake): the store indices of the woken goroutine's
  // GoStart and of the event that made it runnable.
  struct Grouped {
    std::vector<int64_t> ids;
    std::vector<uint32_t> begin, end;
    std::vector<std::pair<uint32_t, uint32_t>> edges;
  };

 private:
  friend class WakeIndexBuild;
  const EventStore* store_ = nullptr;
  Grouped into_, from_;
};

// One pass over the events (no timeline index needed).
WakeIndex build_wake_index(const EventStore& store);

// build_wake_index a piece at a time, for a caller with other work to do between pieces
// (the web worker answers requests): step() reads the next `events` events, or groups
// the edges once every event is read, and is true once the index is complete; take()
// gives it (doing what is left), once.
class WakeIndexBuild {
 public:
  explicit WakeIndexBuild(const EventStore& store);
  WakeIndexBuild(WakeIndexBuild&&) noexcept;
  WakeIndexBuild& operator=(WakeIndexBuild&&) noexcept;
  ~WakeIndexBuild();
  bool step(size_t events);
  WakeIndex take();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace gotrace::analysis
