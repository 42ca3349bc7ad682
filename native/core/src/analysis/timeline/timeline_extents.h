// A short goroutine lane as one rectangle. Most goroutines live briefly: their lanes hold
// a few entries, and a zoomed-out view draws each of them as the one rectangle of the
// pixel it lies in. A folded group's activity sums those rectangles over hundreds of
// thousands of goroutines; read from the lanes, each costs a few cache misses into the
// events. Kept here, each is 32 bytes read in order.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "gotrace/event_store.h"

namespace gotrace::analysis::detail {

// Per goroutine lane shorter than a block (LaneSet::kBlock entries): its non-gap slices
// from the first's start (back-dated as a query back-dates it) to the last's end, where
// the last begins, and their time in each of GoroutineFamily's states. A view in which
// every one of them is narrower than a pixel and begins in the same pixel draws exactly
// this rectangle.
struct LaneExtents {
  static constexpr uint32_t kNone = ~uint32_t{0};
  static constexpr size_t kStates = 4;  // GoroutineFamily::kStates
  std::vector<Time> start;
  std::vector<uint32_t> span;        // end - start; kNone: no extent (long lane, no slice, 2^32 ns or more)
  std::vector<uint32_t> last;        // the last slice's start - start
  std::vector<uint32_t> state_time;  // kStates per lane
  size_t bytes_reserved() const {
    return start.capacity() * 8 + (span.capacity() + last.capacity() + state_time.capacity()) * 4;
  }
};

// Fed the goroutine lanes' entries in event order, alongside the lanes themselves.
class LaneExtentBuild {
 public:
  explicit LaneExtentBuild(uint32_t lanes) : lanes_(lanes) {}
  // Entry `event` of `lane`, read from its chunk's columns.
  void add(const EventStore::ChunkColumns& col, uint32_t lane, uint32_t event, Time trace_start);
  // Ends each lane's last slice at the trace's end, as queries do.
  LaneExtents finish(Time trace_end);

 private:
  // A lane's state in one place: entries come to lanes in no order, one cache line each.
  struct Lane {
    Time open = 0;   // where its latest entry's slice began
    Time start = 0;  // its first non-gap slice's start
    Time last = 0;   // its last non-gap slice's start so far
    Time end = 0;    // and end
    std::array<uint32_t, LaneExtents::kStates> time{};
    int8_t slot = -1;   // its latest entry's state slot (kGap: none)
    uint8_t seen = 0;   // its entries, up to a block (a block: no extent)
    bool busy = false;  // a non-gap slice closed
  };
  void close(Lane& l, Time end);
  std::vector<Lane> lanes_;
};

}  // namespace gotrace::analysis::detail
