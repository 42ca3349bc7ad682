// Go's container/heap, step for step. The MMU refines bands and keeps its worst windows
// in heaps; which of several equal elements comes out first decides which windows Go
// reports, so std::push_heap and friends (a different algorithm) would not do.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace gotrace::analysis::detail {

// less(a, b) is Go's h.Less(i, j) on the elements.
template <class T, class Less>
class GoHeap {
 public:
  explicit GoHeap(Less less = Less{}) : less_(less) {}

  std::vector<T>& items() { return h_; }
  const std::vector<T>& items() const { return h_; }
  size_t size() const { return h_.size(); }
  bool empty() const { return h_.empty(); }
  const T& top() const { return h_[0]; }

  void init() {
    size_t n = h_.size();
    for (ptrdiff_t i = static_cast<ptrdiff_t>(n) / 2 - 1; i >= 0; i--) down(static_cast<size_t>(i), n);
  }
  void push(T x) {
    h_.push_back(std::move(x));
    up(h_.size() - 1);
  }
  T pop() {
    size_t n = h_.size() - 1;
    std::swap(h_[0], h_[n]);
    down(0, n);
    T x = std::move(h_.back());
    h_.pop_back();
    return x;
  }
  T remove(size_t i) {
    size_t n = h_.size() - 1;
    if (n != i) {
      std::swap(h_[i], h_[n]);
      if (!down(i, n)) up(i);
    }
    T x = std::move(h_.back());
    h_.pop_back();
    return x;
  }

 private:
  void up(size_t j) {
    while (j > 0) {
      size_t i = (j - 1) / 2;  // parent
      if (i == j || !less_(h_[j], h_[i])) break;
      std::swap(h_[i], h_[j]);
      j = i;
    }
  }
  bool down(size_t i0, size_t n) {
    size_t i = i0;
    for (;;) {
      size_t j1 = 2 * i + 1;
      if (j1 >= n) break;
      size_t j = j1;  // left child
      if (size_t j2 = j1 + 1; j2 < n && less_(h_[j2], h_[j1])) j = j2;
      if (!less_(h_[j], h_[i])) break;
      std::swap(h_[i], h_[j]);
      i = j;
    }
    return i > i0;
  }

  std::vector<T> h_;
  Less less_;
};

}  // namespace gotrace::analysis::detail
