// Lanes: for each track, the increasing indices of the events where its state changes.
// A lane holds no times or states of its own — those are read from the events — so the
// cost is the index alone, delta-coded: blocks of 64 entries, each block an absolute
// event index and 63 LEB128 deltas (one or two bytes for most). Blocks give binary
// search and a place to hang level-of-detail summaries (timeline_data.h).
//
// Built in one pass (LaneSetBuilder): a lane's open block waits in a 64-entry staging
// slot and is written out when full, or when the lane is retired (its goroutine ended),
// so staging holds only the lanes still alive.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace gotrace::analysis::detail {

class LaneSet {
 public:
  static constexpr uint32_t kBlock = 64;

  uint32_t lanes() const { return static_cast<uint32_t>(entry_begin_.size() - 1); }
  uint32_t size(uint32_t lane) const { return entry_begin_[lane + 1] - entry_begin_[lane]; }
  uint32_t blocks(uint32_t lane) const { return block_begin_[lane + 1] - block_begin_[lane]; }
  // The event of entry k * kBlock.
  uint32_t block_event(uint32_t lane, uint32_t k) const { return block_base_[block_begin_[lane] + k]; }
  size_t total_entries() const { return entry_begin_.back(); }
  size_t bytes_reserved() const;

  // Reads a lane's entries in order, from the start of a block.
  class Reader {
   public:
    Reader(const LaneSet& set, uint32_t lane, uint32_t block = 0);
    bool done() const { return j_ >= n_; }
    uint32_t index() const { return j_; }  // entry index within the lane
    uint32_t event() const { return event_; }
    void next();
    // Moves to the start of block k (>= the current block).
    void seek_block(uint32_t k);

   private:
    const LaneSet* set_;
    uint32_t first_block_, n_, j_ = 0, event_ = 0;
    size_t pos_ = 0;
  };

  // A reader positioned at entry j.
  Reader at(uint32_t lane, uint32_t j) const;
  // The first entry whose event is >= `event` (size(lane) if none).
  uint32_t lower_bound(uint32_t lane, uint32_t event) const;
  // The event of entry j (decodes from its block's start).
  uint32_t event_at(uint32_t lane, uint32_t j) const;

 private:
  friend class LaneSetBuilder;
  std::vector<uint32_t> entry_begin_{0};  // per lane, prefix sums of entry counts
  std::vector<uint32_t> block_begin_{0};  // per lane, prefix sums of block counts
  std::vector<uint32_t> block_base_;      // per block: the event of its first entry
  std::vector<uint32_t> block_pos_;       // per block: where its deltas start in bytes_
  std::vector<uint8_t> bytes_;
};

class LaneSetBuilder {
 public:
  // Appends an event to a lane; lanes are numbered from 0 as they appear, and a lane's
  // events increase.
  void add(uint32_t lane, uint32_t event);
  // The lane expects no more entries: its open block is written out (and read back in,
  // should an entry come after all).
  void retire(uint32_t lane);
  // `order[lane] = final lane number` renumbers the lanes (empty: keep); lanes never
  // seen may be named up to `lanes` (they stay empty).
  LaneSet finish(uint32_t lanes, std::span<const uint32_t> order = {});

 private:
  static constexpr uint32_t kNone = ~uint32_t{0};
  struct Lane {
    uint32_t count = 0;
    uint32_t slot = kNone;   // staging slot of its open block
    uint32_t tail = kNone;   // its last block, when written out before it was full
  };
  struct Block {
    uint32_t lane, base, pos;
    uint8_t entries;  // 0: superseded (reopened and written again)
  };
  void write_block(uint32_t lane, Lane& l);

  std::vector<Lane> lanes_;
  std::vector<uint32_t> staging_;  // kBlock events per slot
  std::vector<uint32_t> free_slots_;
  std::vector<Block> blocks_;
  std::vector<uint8_t> bytes_;
};

}  // namespace gotrace::analysis::detail
