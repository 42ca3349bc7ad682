// Per-goroutine (or per-P) state of the v1 passes, keyed by the trace's own IDs. IDs are
// mostly small, dense numbers: those below a limit index a vector directly; any other
// ID (a hostile 2^63, a fake P) goes to a hash map beside it. With the limit tied to the
// number of events, memory stays proportional to the trace whatever the IDs are.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gotrace/flat_map.h"

namespace gotrace::v1 {

template <class T>
class IdMap {
 public:
  explicit IdMap(size_t dense_limit = 4096) : limit_(std::max<size_t>(dense_limit, 64)) {}

  // The entry for `id`, created as T{} if absent. The reference lasts until the next
  // call that creates an entry.
  T& operator[](uint64_t id) {
    if (id < size_) [[likely]]
      return data_[id];
    if (id < limit_) {
      dense_.resize(std::min<size_t>(limit_, std::max<size_t>(id + 1, 2 * dense_.size())));
      data_ = dense_.data();
      size_ = dense_.size();
      return data_[id];
    }
    return sparse_[id];
  }
  // The entry for `id`, or nullptr if it was never created.
  const T* find(uint64_t id) const {
    if (id < size_) [[likely]]
      return &data_[id];
    return sparse_.find(id);
  }

 private:
  size_t limit_;
  T* data_ = nullptr;  // dense_'s storage and size, kept at hand for the common case
  size_t size_ = 0;
  std::vector<T> dense_;
  FlatMap<T> sparse_;
};

}  // namespace gotrace::v1
