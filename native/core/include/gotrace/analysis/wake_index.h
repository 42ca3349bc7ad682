// Every wake-up edge of the trace (the unsampled WakeEdges of timeline_query.h), chained
// by the goroutine woken and by the goroutine that woke it: who woke a goroutine and whom
// it woke, over any time range, without walking every proc's track (a long-lived
// goroutine's lifetime holds most of the trace's starts).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "gotrace/analysis/timeline.h"
#include "gotrace/analysis/timeline_query.h"
#include "gotrace/id_map.h"

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
  size_t edges() const { return edges_.size(); }

  // An edge: the store indices of the woken goroutine's GoStart and of the event that
  // made it runnable, and the edge before it (in start order; kNone: none) into the same
  // goroutine and from the same one. Each goroutine's edges are a chain from its latest,
  // made as the edges are found: no grouping afterwards (on a large trace that would be
  // tens of MB more memory, and a pass over it).
  static constexpr uint32_t kNone = ~0u;
  struct Edge {
    uint32_t start, wake;
    uint32_t previous_into, previous_from;
  };

 private:
  friend class WakeIndexBuild;
  const EventStore* store_ = nullptr;
  std::vector<Edge> edges_;  // in start order
  IdMap<uint32_t, kNone> latest_into_, latest_from_;  // goroutine -> its latest edge of each chain
};

// One pass over the events (no timeline index needed).
WakeIndex build_wake_index(const EventStore& store);

// build_wake_index a piece at a time, for a caller with other work to do between pieces
// (the web worker answers requests): step() reads the next `events` events, and is true
// once the index is complete; take() gives it (doing what is left), once.
class WakeIndexBuild {
 public:
  // `events_by_type`, if given, is the store's count of events of each type
  // (TraceStats::events_by_type): the edges then take their memory at once.
  explicit WakeIndexBuild(const EventStore& store, const std::array<uint64_t, 256>* events_by_type = nullptr);
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
