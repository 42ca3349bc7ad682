// What the goroutine, task and region views read of a streamed read's events, kept as
// the events go by and are released (StreamedSummary): each region start's stack and
// each task log's fields, by event index. Kept compact, for traces of millions of logs:
// varints, each field a difference from the fact before, in blocks of 64 facts that a
// lookup finds by their first event and reads from their start (~12 bytes a log and ~5 a
// stack, where the structs took 48 and 16).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gotrace/analysis/summary_events.h"
#include "gotrace/event_store.h"

namespace gotrace::analysis::detail {

// Facts of N fields each, by event index, added in increasing event order.
template <size_t N>
class FactStream {
 public:
  using Fact = std::array<uint64_t, N>;
  void add(uint64_t event, const Fact& fact);
  // The fact of `event`, if kept.
  bool find(uint64_t event, Fact& out) const;
  size_t bytes() const;

 private:
  static constexpr size_t kPerBlock = 64;
  static constexpr size_t kChunkBytes = size_t{1} << 20;
  // Blocks lie whole in a chunk (a block takes at most kPerBlock * (N + 1) * 10 bytes).
  static constexpr size_t kBlockMaxBytes = kPerBlock * (N + 1) * 10;
  struct Block {
    uint64_t first_event;
    uint32_t chunk, offset;
  };
  std::vector<Block> blocks_;
  std::vector<std::vector<uint8_t>> chunks_;
  size_t in_block_ = kPerBlock;  // facts in the last block
  uint64_t last_event_ = 0;
  Fact last_{};
};

class KeptEvents final : public SummaryEvents {
 public:
  explicit KeptEvents(const EventStore& store) : store_(&store) {}
  // From the store, which holds events [from, to) now.
  void keep_stack(uint64_t event);
  void keep_log(uint64_t event);
  StackID stack(uint64_t event) const override;
  LogFields log(uint64_t event) const override;
  size_t bytes() const { return stacks_.bytes() + logs_.bytes(); }

 private:
  const EventStore* store_;
  FactStream<1> stacks_;  // the stack
  FactStream<4> logs_;    // time, goroutine, category and message string ids
};

}  // namespace gotrace::analysis::detail
