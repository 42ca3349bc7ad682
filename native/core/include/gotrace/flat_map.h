// Open-addressing hash containers for integer keys (goroutine, proc, thread and task
// ids) and an id index for interning. Linear probing, power-of-two capacity,
// backward-shift deletion: no tombstones, so lookups stay short after many deletes.
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace gotrace {

inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

inline uint64_t hash_bytes(const void* data, size_t n, uint64_t seed = 0x9e3779b97f4a7c15ULL) {
  // FNV-1a over 8-byte words, then a final mix: fast for the short strings of traces.
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t h = seed ^ (n * 0x100000001b3ULL);
  while (n >= 8) {
    uint64_t w = 0;
    for (int i = 0; i < 8; i++) w |= uint64_t(p[i]) << (8 * i);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  uint64_t w = 0;
  for (size_t i = 0; i < n; i++) w |= uint64_t(p[i]) << (8 * i);
  h = (h ^ w) * 0x100000001b3ULL;
  return mix64(h);
}

// Map from a 64-bit key to V. References are invalidated by insertion and erasure.
template <class V>
class FlatMap {
 public:
  FlatMap() = default;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  V* find(uint64_t key) {
    if (size_ == 0) return nullptr;
    size_t i = mix64(key) & mask_;
    while (used_[i]) {
      if (keys_[i] == key) return &vals_[i];
      i = (i + 1) & mask_;
    }
    return nullptr;
  }
  const V* find(uint64_t key) const { return const_cast<FlatMap*>(this)->find(key); }
  bool contains(uint64_t key) const { return find(key) != nullptr; }

  // Inserts key with a default V if absent; returns (value, inserted).
  std::pair<V*, bool> try_emplace(uint64_t key) {
    if ((size_ + 1) * 4 > keys_.size() * 3) grow();
    size_t i = mix64(key) & mask_;
    while (used_[i]) {
      if (keys_[i] == key) return {&vals_[i], false};
      i = (i + 1) & mask_;
    }
    used_[i] = 1;
    keys_[i] = key;
    vals_[i] = V{};
    size_++;
    return {&vals_[i], true};
  }
  V& operator[](uint64_t key) { return *try_emplace(key).first; }

  bool erase(uint64_t key) {
    if (size_ == 0) return false;
    size_t i = mix64(key) & mask_;
    while (used_[i]) {
      if (keys_[i] == key) {
        erase_slot(i);
        return true;
      }
      i = (i + 1) & mask_;
    }
    return false;
  }

  template <class F>
  void for_each(F&& f) {
    for (size_t i = 0; i < keys_.size(); i++)
      if (used_[i]) f(keys_[i], vals_[i]);
  }
  template <class F>
  void for_each(F&& f) const {
    for (size_t i = 0; i < keys_.size(); i++)
      if (used_[i]) f(keys_[i], vals_[i]);
  }

  void clear() {
    keys_.clear();
    vals_.clear();
    used_.clear();
    size_ = 0;
    mask_ = 0;
  }

  size_t bytes_reserved() const { return keys_.capacity() * (sizeof(uint64_t) + sizeof(V) + 1); }

 private:
  void erase_slot(size_t i) {
    used_[i] = 0;
    vals_[i] = V{};
    size_--;
    size_t j = i;
    for (;;) {
      j = (j + 1) & mask_;
      if (!used_[j]) return;
      size_t home = mix64(keys_[j]) & mask_;
      // Move j back into the hole at i if its home is not in (i, j].
      bool between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (between) continue;
      keys_[i] = keys_[j];
      vals_[i] = std::move(vals_[j]);
      used_[i] = 1;
      used_[j] = 0;
      vals_[j] = V{};
      i = j;
    }
  }

  void grow() {
    size_t cap = keys_.empty() ? 16 : keys_.size() * 2;
    std::vector<uint64_t> keys(cap);
    std::vector<V> vals(cap);
    std::vector<uint8_t> used(cap);
    size_t mask = cap - 1;
    for (size_t i = 0; i < keys_.size(); i++) {
      if (!used_[i]) continue;
      size_t j = mix64(keys_[i]) & mask;
      while (used[j]) j = (j + 1) & mask;
      used[j] = 1;
      keys[j] = keys_[i];
      vals[j] = std::move(vals_[i]);
    }
    keys_.swap(keys);
    vals_.swap(vals);
    used_.swap(used);
    mask_ = mask;
  }

  std::vector<uint64_t> keys_;
  std::vector<V> vals_;
  std::vector<uint8_t> used_;
  size_t size_ = 0;
  size_t mask_ = 0;
};

// Maps content hashes to dense ids (1-based) for interning; the caller owns the content
// and supplies the equality test.
class IdIndex {
 public:
  template <class Eq>
  uint32_t find(uint64_t h, Eq&& eq) const {
    if (slots_.empty()) return 0;
    size_t i = h & mask_;
    uint32_t tag = static_cast<uint32_t>(h >> 32);
    while (slots_[i].id) {
      if (slots_[i].tag == tag && eq(slots_[i].id)) return slots_[i].id;
      i = (i + 1) & mask_;
    }
    return 0;
  }

  void insert(uint64_t h, uint32_t id) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    place(h, id);
    hashes_.push_back(h);
    size_++;
  }

  size_t bytes_reserved() const { return slots_.capacity() * sizeof(Slot) + hashes_.capacity() * 8; }

  // Forgets the ids inserted after the first `count` (a read taken back), in place.
  void truncate(size_t count) {
    if (count >= size_) return;
    hashes_.resize(count);
    size_ = count;
    std::fill(slots_.begin(), slots_.end(), Slot{});
    for (size_t k = 0; k < hashes_.size(); k++) place(hashes_[k], ids_base_ + static_cast<uint32_t>(k));
  }

 private:
  struct Slot {
    uint32_t id = 0;
    uint32_t tag = 0;
  };
  void place(uint64_t h, uint32_t id) {
    size_t i = h & mask_;
    while (slots_[i].id) i = (i + 1) & mask_;
    slots_[i] = {id, static_cast<uint32_t>(h >> 32)};
  }
  void grow() {
    size_t cap = slots_.empty() ? 64 : slots_.size() * 2;
    slots_.assign(cap, Slot{});
    mask_ = cap - 1;
    // hashes_[k] belongs to id k+first; ids are inserted in increasing order.
    for (size_t k = 0; k < hashes_.size(); k++) place(hashes_[k], ids_base_ + static_cast<uint32_t>(k));
  }

 public:
  // Ids must be inserted as consecutive integers starting from `first`.
  explicit IdIndex(uint32_t first = 1) : ids_base_(first) {}

 private:
  std::vector<Slot> slots_;
  std::vector<uint64_t> hashes_;
  size_t size_ = 0;
  size_t mask_ = 0;
  uint32_t ids_base_;
};

}  // namespace gotrace
