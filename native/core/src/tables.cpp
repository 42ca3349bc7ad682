#include "gotrace/tables.h"

#include <cstring>

namespace gotrace {

// ---- strings -------------------------------------------------------------------

StringTable::StringTable() : lookup_(std::make_shared<Lookup>()) { lookup_->views.push_back({"", 0}); }

void StringTable::swap(StringTable& o) noexcept {
  std::swap(lookup_, o.lookup_);
  std::swap(blocks_, o.blocks_);
  std::swap(large_, o.large_);
  std::swap(block_used_, o.block_used_);
  std::swap(large_bytes_, o.large_bytes_);
}

constexpr size_t kBlock = 64 << 10;

StringTable StringTable::copy_of(const StringTable& o) {
  StringTable t;
  t.lookup_ = o.lookup_;
  t.blocks_ = o.blocks_;
  t.large_ = o.large_;
  t.block_used_ = kBlock;  // never into o's last block: the next string begins a block of its own
  t.large_bytes_ = o.large_bytes_;
  return t;
}

const char* StringTable::store(std::string_view s) {
  if (s.size() > kBlock / 4) {  // large strings get a block of their own
    large_.push_back(std::shared_ptr<char[]>(new char[s.size()]));
    std::memcpy(large_.back().get(), s.data(), s.size());
    large_bytes_ += s.size();
    return large_.back().get();
  }
  if (blocks_.empty() || block_used_ + s.size() > kBlock) {
    blocks_.push_back(std::shared_ptr<char[]>(new char[kBlock]));
    block_used_ = 0;
  }
  char* dst = blocks_.back().get() + block_used_;
  std::memcpy(dst, s.data(), s.size());
  block_used_ += s.size();
  return dst;
}

StringID StringTable::intern(std::string_view s) {
  if (s.empty()) return 0;
  uint64_t h = hash_bytes(s.data(), s.size());
  StringID id = lookup_->index.find(h, [&](uint32_t cand) { return get(cand) == s; });
  if (id) return id;
  if (lookup_.use_count() > 1) lookup_ = std::make_shared<Lookup>(*lookup_);  // a copy's own from here
  id = static_cast<StringID>(lookup_->views.size());
  lookup_->views.push_back({store(s), static_cast<uint32_t>(s.size())});
  lookup_->index.insert(h, id);
  return id;
}

void StringTable::truncate(size_t size) {
  if (size >= this->size()) return;
  if (lookup_.use_count() > 1) lookup_ = std::make_shared<Lookup>(*lookup_);  // a copy's own from here
  lookup_->views.resize(size);
  lookup_->index.truncate(size - 1);  // the index has every id but 0
}

size_t StringTable::bytes_reserved() const {
  return lookup_->views.capacity() * sizeof(View) + lookup_->index.bytes_reserved() + blocks_.size() * (64 << 10) + large_bytes_;
}

// ---- stacks --------------------------------------------------------------------

StackTable::StackTable() {
  frames_.push_back(Frame{});
  offsets_.push_back(0);
  offsets_.push_back(0);  // stack 0: no frames
}

FrameID StackTable::intern_frame(const Frame& f) {
  uint64_t h = mix64(f.pc ^ mix64(f.line + (uint64_t(f.func) << 32 | f.file)));
  FrameID id = frame_index_.find(h, [&](uint32_t cand) { return frames_[cand] == f; });
  if (id) return id;
  id = static_cast<FrameID>(frames_.size());
  frames_.push_back(f);
  frame_index_.insert(h, id);
  return id;
}

StackID StackTable::intern(std::span<const FrameID> frames) {
  uint64_t h = hash_bytes(frames.data(), frames.size() * sizeof(FrameID), 0x5bd1e995);
  auto same = [&](uint32_t cand) {
    auto have = this->frames(cand);
    return have.size() == frames.size() && std::equal(have.begin(), have.end(), frames.begin());
  };
  StackID id = stack_index_.find(h, same);
  if (id) return id;
  id = static_cast<StackID>(offsets_.size() - 1);
  frame_ids_.insert(frame_ids_.end(), frames.begin(), frames.end());
  offsets_.push_back(static_cast<uint32_t>(frame_ids_.size()));
  stack_index_.insert(h, id);
  return id;
}

void StackTable::truncate(size_t size, size_t frame_count) {
  if (size < this->size()) {
    offsets_.resize(size + 1);
    frame_ids_.resize(offsets_.back());
    stack_index_.truncate(size - 1);  // the index has every id but 0
  }
  if (frame_count < frames_.size()) {
    frames_.resize(frame_count);
    frame_index_.truncate(frame_count - 1);
  }
}

size_t StackTable::bytes_reserved() const {
  return frames_.capacity() * sizeof(Frame) + frame_index_.bytes_reserved() + frame_ids_.capacity() * sizeof(FrameID) +
         offsets_.capacity() * sizeof(uint32_t) + stack_index_.bytes_reserved();
}

}  // namespace gotrace
