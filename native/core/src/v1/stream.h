// The merged stream of a v1 trace, and reading it back in Go's final order.
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include "trace.h"

namespace gotrace::v1 {

// The Local events exist only for ordering; merged, they are the plain ones. Arguments
// stay in their slots (a former GoSysExitLocal has its real time in `seq`).
inline uint8_t merged_type(uint8_t type) {
  static constexpr std::array<uint8_t, 64> kMerged = [] {
    std::array<uint8_t, 64> t{};
    for (int i = 0; i < 64; i++) t[i] = static_cast<uint8_t>(i);
    t[EvGoStartLocal] = EvGoStart;
    t[EvGoUnblockLocal] = EvGoUnblock;
    t[EvGoSysExitLocal] = EvGoSysExit;
    return t;
  }();
  return kMerged[type & 63];
}

struct Stream {
  // The records in final order (syscall exits moved to their real time included), with
  // flags beside each index.
  static constexpr uint32_t kMoved = 1u << 31;          // the merge's mark of an exit that moves; gone here
  static constexpr uint32_t kSyscallBlocks = 1u << 30;  // a GoSysCall whose goroutine's next event is GoSysBlock
  static constexpr uint32_t kIndexMask = kSyscallBlocks - 1;
  std::vector<uint32_t> order;

  size_t size() const { return order.size(); }
};

// Yields the events of a stream in final order: Local types renamed, times in ticks.
class StreamReader {
 public:
  StreamReader(const Trace& t, const Stream& s) : t_(t), s_(s) {}

  // The time of the first event, in ticks (0 if there is none).
  int64_t first_ticks() const {
    return s_.order.empty() ? 0 : t_.recs[s_.order[0] & Stream::kIndexMask].ts;
  }

  // `blocks`: for a GoSysCall, whether the goroutine's next event is its GoSysBlock (the
  // syscall blocked). `message`: a UserLog's message.
  bool next(Event& ev, bool& blocks, std::string_view& message) {
    if (pos_ == s_.order.size()) return false;
    const uint32_t entry = s_.order[pos_++];
    t_.event(entry & Stream::kIndexMask, ev);
    ev.type = merged_type(ev.type);
    blocks = entry & Stream::kSyscallBlocks;
    message = ev.type == EvUserLog && ev.args[2] < t_.messages.size() ? t_.messages[ev.args[2]] : std::string_view();
    return true;
  }

 private:
  const Trace& t_;
  const Stream& s_;
  size_t pos_ = 0;  // in s_.order
};

}  // namespace gotrace::v1
