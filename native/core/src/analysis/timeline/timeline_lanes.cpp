#include "timeline_lanes.h"

#include <algorithm>
#include <stdexcept>

namespace gotrace::analysis::detail {
namespace {

uint32_t read_varint(const std::vector<uint8_t>& bytes, size_t& pos) {
  uint32_t v = 0;
  for (int shift = 0;; shift += 7) {
    uint8_t b = bytes[pos++];
    v |= uint32_t(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
}

}  // namespace

size_t LaneSet::bytes_reserved() const {
  return (entry_begin_.capacity() + block_begin_.capacity() + block_base_.capacity() + block_pos_.capacity()) *
             sizeof(uint32_t) +
         bytes_.capacity();
}

LaneSet::Reader::Reader(const LaneSet& set, uint32_t lane, uint32_t block)
    : set_(&set), first_block_(set.block_begin_[lane]), n_(set.size(lane)) {
  j_ = block * kBlock;
  if (j_ < n_) {
    event_ = set.block_base_[first_block_ + block];
    pos_ = set.block_pos_[first_block_ + block];
  }
}

void LaneSet::Reader::next() {
  j_++;
  if (j_ >= n_) return;
  if (j_ % kBlock == 0) {
    uint32_t b = first_block_ + j_ / kBlock;
    event_ = set_->block_base_[b];
    pos_ = set_->block_pos_[b];
  } else {
    event_ += read_varint(set_->bytes_, pos_);
  }
}

void LaneSet::Reader::seek_block(uint32_t k) {
  j_ = k * kBlock;
  if (j_ >= n_) return;
  event_ = set_->block_base_[first_block_ + k];
  pos_ = set_->block_pos_[first_block_ + k];
}

uint32_t LaneSet::lower_bound(uint32_t lane, uint32_t event) const {
  const uint32_t nb = blocks(lane);
  if (nb == 0) return 0;
  auto first = block_base_.begin() + block_begin_[lane];
  // The last block whose first event is <= event.
  auto it = std::upper_bound(first, first + nb, event);
  if (it == first) return 0;
  uint32_t k = static_cast<uint32_t>(it - first) - 1;
  for (Reader r(*this, lane, k); !r.done(); r.next()) {
    if (r.event() >= event) return r.index();
    if (r.index() % kBlock == kBlock - 1) return r.index() + 1;  // the next block starts above
  }
  return size(lane);
}

LaneSet::Reader LaneSet::at(uint32_t lane, uint32_t j) const {
  Reader r(*this, lane, j / kBlock);
  while (r.index() < j && !r.done()) r.next();
  return r;
}

uint32_t LaneSet::event_at(uint32_t lane, uint32_t j) const { return at(lane, j).event(); }

void LaneSetBuilder::add(uint32_t lane, uint32_t event) {
  if (lane >= lanes_.size()) lanes_.resize(lane + 1);
  Lane& l = lanes_[lane];
  const uint32_t in_block = l.count % LaneSet::kBlock;
  if (l.slot == kNone) {
    if (free_slots_.empty()) {
      free_slots_.push_back(static_cast<uint32_t>(staging_.size() / LaneSet::kBlock));
      staging_.resize(staging_.size() + LaneSet::kBlock);
    }
    l.slot = free_slots_.back();
    free_slots_.pop_back();
    if (in_block != 0) {
      // Reopen the block written out when the lane was retired.
      Block& b = blocks_[l.tail];
      uint32_t* stage = &staging_[size_t{l.slot} * LaneSet::kBlock];
      stage[0] = b.base;
      size_t pos = b.pos;
      for (uint32_t k = 1; k < b.entries; k++) stage[k] = stage[k - 1] + read_varint(bytes_, pos);
      b.entries = 0;
      l.tail = kNone;
    }
  }
  staging_[size_t{l.slot} * LaneSet::kBlock + in_block] = event;
  l.count++;
  if (l.count % LaneSet::kBlock == 0) write_block(lane, l);
}

void LaneSetBuilder::retire(uint32_t lane) {
  if (lane < lanes_.size() && lanes_[lane].slot != kNone) write_block(lane, lanes_[lane]);
}

void LaneSetBuilder::write_block(uint32_t lane, Lane& l) {
  const uint32_t n = l.count % LaneSet::kBlock == 0 ? LaneSet::kBlock : l.count % LaneSet::kBlock;
  const uint32_t* stage = &staging_[size_t{l.slot} * LaneSet::kBlock];
  if (bytes_.size() > UINT32_MAX - 5 * LaneSet::kBlock) throw std::length_error("timeline lanes over 4 GiB");
  Block b{lane, stage[0], static_cast<uint32_t>(bytes_.size()), static_cast<uint8_t>(n)};
  // Room for the longest encoding first, then plain stores (no capacity check per byte).
  const size_t at = bytes_.size();
  bytes_.resize(at + 5 * size_t{n});
  uint8_t* out = bytes_.data() + at;
  for (uint32_t k = 1; k < n; k++) {
    uint32_t d = stage[k] - stage[k - 1];
    while (d >= 0x80) {
      *out++ = static_cast<uint8_t>(d | 0x80);
      d >>= 7;
    }
    *out++ = static_cast<uint8_t>(d);
  }
  bytes_.resize(static_cast<size_t>(out - bytes_.data()));
  if (n < LaneSet::kBlock) l.tail = static_cast<uint32_t>(blocks_.size());
  blocks_.push_back(b);
  free_slots_.push_back(l.slot);
  l.slot = kNone;
}

LaneSet LaneSetBuilder::finish(uint32_t lanes, std::span<const uint32_t> order) {
  if (lanes_.size() > lanes) throw std::logic_error("lane count below the lanes seen");
  for (uint32_t l = 0; l < lanes_.size(); l++) retire(l);
  lanes_.resize(lanes);
  staging_ = {};
  free_slots_ = {};
  auto final_lane = [&](uint32_t l) { return order.empty() ? l : order[l]; };

  LaneSet s;
  s.entry_begin_.assign(lanes + 1, 0);
  s.block_begin_.assign(lanes + 1, 0);
  for (uint32_t l = 0; l < lanes; l++) {
    const uint32_t f = final_lane(l);
    s.entry_begin_[f + 1] = lanes_[l].count;
    s.block_begin_[f + 1] = (lanes_[l].count + LaneSet::kBlock - 1) / LaneSet::kBlock;
  }
  uint64_t entries = 0;
  for (uint32_t f = 0; f < lanes; f++) {
    entries += s.entry_begin_[f + 1];
    if (entries > UINT32_MAX) throw std::length_error("timeline lanes over 4 GiB entries");
    s.entry_begin_[f + 1] = static_cast<uint32_t>(entries);
    s.block_begin_[f + 1] += s.block_begin_[f];
  }
  // Blocks were written lane by lane in order: place each after its lane's earlier ones.
  s.block_base_.assign(s.block_begin_.back(), 0);
  s.block_pos_.assign(s.block_begin_.back(), 0);
  std::vector<uint32_t> next(s.block_begin_.begin(), s.block_begin_.end() - 1);
  for (const Block& b : blocks_) {
    if (b.entries == 0) continue;
    const uint32_t k = next[final_lane(b.lane)]++;
    s.block_base_[k] = b.base;
    s.block_pos_[k] = b.pos;
  }
  s.bytes_ = std::move(bytes_);
  s.bytes_.shrink_to_fit();
  blocks_ = {};
  lanes_ = {};
  return s;
}

}  // namespace gotrace::analysis::detail
