// A map from goroutine (or task) ids to small values for the analyses' hot loops.
// Goroutine and task ids are small integers handed out nearly consecutively, so a plain
// array indexed by id finds an entry in one memory access where a hash map needs three
// (flags, keys, values); on a trace with half a million goroutines that is most of the
// analysis time. Ids outside [0, kDenseLimit) go to a FlatMap.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "gotrace/event_slices.h"
#include "gotrace/flat_map.h"

namespace gotrace {

// `empty` marks an absent entry in the array; it cannot be stored.
template <class V, V empty>
class IdMap {
 public:
  // Ids below this use the array, which grows (by doubling) only to the largest id
  // seen: 16M ids, at most 64 MB for 4-byte values, for a trace of a size in GB.
  static constexpr uint64_t kDenseLimit = uint64_t{1} << 24;

  V get(int64_t id) const {
    const auto k = static_cast<uint64_t>(id);
    if (k < dense_.size()) return dense_[k];
    if (k < kDenseLimit) return empty;
    const V* v = sparse_.find(k);
    return v ? *v : empty;
  }

  void set(int64_t id, V v) {
    const auto k = static_cast<uint64_t>(id);
    if (k < dense_.size()) {
      dense_[k] = v;
    } else {
      set_slow(k, v);
    }
  }

  size_t bytes_reserved() const { return dense_.capacity() * sizeof(V) + sparse_.bytes_reserved(); }

  void erase(int64_t id) {
    const auto k = static_cast<uint64_t>(id);
    if (k < kDenseLimit) {
      if (k < dense_.size()) dense_[k] = empty;
    } else {
      sparse_.erase(k);
    }
  }

  // Calls f(id, value) for every entry, in no particular order.
  template <class F>
  void for_each(F&& f) const {
    for (size_t k = 0; k < dense_.size(); k++)
      if (dense_[k] != empty) f(static_cast<int64_t>(k), dense_[k]);
    sparse_.for_each([&](uint64_t k, const V& v) { f(static_cast<int64_t>(k), v); });
  }

  // The same in increasing id order (as signed ids: the negative ones, kept among the
  // few outside the array, come first). The array is read in slices (event_slices.h).
  template <class F>
  void for_each_in_order(F&& f) const {
    std::vector<std::pair<int64_t, V>> others;
    sparse_.for_each([&](uint64_t k, const V& v) { others.push_back({static_cast<int64_t>(k), v}); });
    std::sort(others.begin(), others.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const auto non_negative = std::find_if(others.begin(), others.end(), [](const auto& e) { return e.first >= 0; });
    for (auto it = others.begin(); it != non_negative; ++it) f(it->first, it->second);
    for_each_event_slice(dense_.size(), [&](size_t from, size_t to) {
      for (size_t k = from; k < to; k++)
        if (dense_[k] != empty) f(static_cast<int64_t>(k), dense_[k]);
    });
    for (auto it = non_negative; it != others.end(); ++it) f(it->first, it->second);
  }

 private:
  // Growing the array, or an id beyond it: out of line, so that set() inlines.
  [[gnu::noinline]] void set_slow(uint64_t k, V v) {
    if (k < kDenseLimit) {
      size_t n = dense_.empty() ? 1024 : dense_.size();
      while (n <= k) n *= 2;
      dense_.resize(n, empty);
      dense_[k] = v;
    } else {
      sparse_[k] = v;
    }
  }

  std::vector<V> dense_;
  FlatMap<V> sparse_;
};

}  // namespace gotrace
