// Maps resource ids (goroutines, procs) to slots. Go numbers goroutines and procs
// from 0 upwards, so ids below a bound justified by the number of insertions live in
// a plain vector; anything else (a hostile 2^63) goes to a hash map.
#pragma once

#include <cstdint>
#include <vector>

#include "gotrace/flat_map.h"

namespace gotrace {

class ResourceIndex {
 public:
  static constexpr uint32_t kNone = ~uint32_t{0};

  uint32_t find(int64_t id) const {
    auto u = static_cast<uint64_t>(id);
    if (u < dense_size_) return dense_[u];
    if (sparse_.empty()) return kNone;
    const uint32_t* v = sparse_.find(u);
    return v ? *v : kNone;
  }

  void insert(int64_t id, uint32_t slot) {
    auto u = static_cast<uint64_t>(id);
    inserted_++;
    if (u >= dense_.size() && u < 2 * inserted_ + 65536) {
      size_t want = std::max<size_t>(u + 1, dense_.size() * 2);
      dense_.resize(std::min<size_t>(want, 2 * inserted_ + 65536), kNone);
      dense_size_ = dense_.size();
      // Ids the map took while they were out of range now fall in the vector, which is
      // where find() looks for them: move them there.
      if (!sparse_.empty()) {
        std::vector<uint64_t> moved;
        sparse_.for_each([&](uint64_t k, uint32_t v) {
          if (k < dense_.size()) {
            dense_[k] = v;
            moved.push_back(k);
          }
        });
        for (uint64_t k : moved) sparse_.erase(k);
      }
    }
    if (u < dense_.size()) {
      dense_[u] = slot;
    } else {
      sparse_[u] = slot;
    }
  }

  void erase(int64_t id) {
    auto u = static_cast<uint64_t>(id);
    if (u < dense_.size()) {
      dense_[u] = kNone;
    } else {
      sparse_.erase(u);
    }
  }

  template <class F>
  void for_each(F&& f) const {
    for (size_t i = 0; i < dense_.size(); i++)
      if (dense_[i] != kNone) f(static_cast<int64_t>(i), dense_[i]);
    sparse_.for_each([&](uint64_t k, uint32_t v) { f(static_cast<int64_t>(k), v); });
  }

 private:
  std::vector<uint32_t> dense_;
  size_t dense_size_ = 0;  // dense_.size(), kept where the per-event lookup reads one word
  FlatMap<uint32_t> sparse_;
  uint64_t inserted_ = 0;
};

}  // namespace gotrace
