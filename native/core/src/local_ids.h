// Maps the ids a generation uses locally (string and stack ids on the wire) to the
// store's global ids. Small dense ids go to a vector, the rest to a hash map, so a
// hostile id like 2^63 costs no memory.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gotrace/flat_map.h"

namespace gotrace {

class LocalIds {
 public:
  static constexpr uint32_t kMissing = ~uint32_t{0};

  // Returns false if the id is already present.
  bool insert(uint64_t local, uint32_t global) {
    if (get(local) != kMissing) return false;
    // Grow the dense part only as far as the number of ids justifies.
    if (local >= dense_.size() && local < 2 * count_ + 4096) {
      dense_.resize(std::max<size_t>(local + 1, std::min<size_t>(dense_.size() * 2, 2 * count_ + 4096)), kMissing);
      dense_size_ = dense_.size();
    }
    if (local < dense_.size()) {
      dense_[local] = global;
    } else {
      *sparse_.try_emplace(local).first = global;
    }
    count_++;
    return true;
  }

  // Inlined where events resolve their ids; the hash map is the rare case.
  [[gnu::always_inline]] uint32_t get(uint64_t local) const {
    if (local < dense_size_ && dense_[local] != kMissing) return dense_[local];
    return get_sparse(local);
  }
  [[gnu::noinline]] uint32_t get_sparse(uint64_t local) const {
    if (sparse_.empty()) return kMissing;
    const uint32_t* v = sparse_.find(local);
    return v ? *v : kMissing;
  }

  bool contains(uint64_t local) const { return get(local) != kMissing; }
  size_t size() const { return count_; }

  template <class F>
  void for_each(F&& f) const {
    for (size_t i = 0; i < dense_.size(); i++)
      if (dense_[i] != kMissing) f(uint64_t(i), dense_[i]);
    sparse_.for_each([&](uint64_t k, uint32_t v) { f(k, v); });
  }

 private:
  std::vector<uint32_t> dense_;
  size_t dense_size_ = 0;  // dense_.size(), kept where the per-event lookup reads one word
  FlatMap<uint32_t> sparse_;
  size_t count_ = 0;
};

}  // namespace gotrace
