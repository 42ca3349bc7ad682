// The merged stream of a v1 trace, and reading it back in Go's final order.
#pragma once

#include <string_view>
#include <vector>

#include "v1_trace.h"

namespace gotrace::v1 {

struct Stream {
  // The records in merge order, with two flags beside each index. A syscall exit moved
  // to its real time is flagged at its merge position and comes again in `moved`.
  static constexpr uint32_t kMoved = 1u << 31;
  static constexpr uint32_t kSyscallBlocks = 1u << 30;  // a GoSysCall whose goroutine's next event is GoSysBlock
  static constexpr uint32_t kIndexMask = kSyscallBlocks - 1;
  std::vector<uint32_t> order;
  // Moved syscall exits, sorted by (real time, merge position).
  struct Moved {
    uint32_t index;
    uint32_t pos;
  };
  std::vector<Moved> moved;

  size_t size() const { return order.size(); }
};

// Yields the events of a stream in final order: Local types renamed, moved syscall exits
// at their real time, times in ticks.
class StreamReader {
 public:
  StreamReader(const Trace& t, const Stream& s) : t_(t), s_(s) {}

  // `blocks`: for a GoSysCall, whether the goroutine's next event is its GoSysBlock (the
  // syscall blocked). `message`: a UserLog's message.
  bool next(Event& ev, bool& blocks, std::string_view& message);

 private:
  void yield(uint32_t index, bool blocks_flag, Event& ev, bool& blocks, std::string_view& message) const;

  const Trace& t_;
  const Stream& s_;
  size_t pos_ = 0;    // in s_.order
  size_t moved_ = 0;  // in s_.moved
};

// The Local events exist only for ordering; merged, they are the plain ones. Arguments
// stay in their slots (a former GoSysExitLocal has its real time in `seq`).
inline uint8_t merged_type(uint8_t type) {
  switch (type) {
    case EvGoStartLocal:
      return EvGoStart;
    case EvGoUnblockLocal:
      return EvGoUnblock;
    case EvGoSysExitLocal:
      return EvGoSysExit;
  }
  return type;
}

}  // namespace gotrace::v1
