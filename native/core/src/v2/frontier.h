// The threads whose next event may advance, as a binary min-heap on that event's time
// (Go's frontier in ReadEvent). Entries past the heap's end are sentinels with the
// greatest time, so sifting down needs no bounds checks: this runs once per event.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "gotrace/types.h"

namespace gotrace::v2 {

template <class Item>
class Frontier {
 public:
  // Empties the heap and makes room for `capacity` entries.
  void reset(size_t capacity) {
    n_ = 0;
    h_.assign(2 * capacity + 3, Entry{kSentinel, nullptr});
    runner_up_ = kSentinel;
  }
  bool empty() const { return n_ == 0; }
  // The earliest thread (the top), and its time: the greatest time when the heap is
  // empty (its sentinel).
  Item* top() const { return h_[0].item; }
  Time top_time() const { return h_[0].t; }

  void push(Time t, Item* item) {
    h_[n_] = Entry{t, item};
    sift_up(n_++);
    refresh_runner_up();
  }
  // The top's time became t (its thread moved on to its next event).
  // A thread often has the next few events of all: then the top stays, unsifted.
  [[gnu::always_inline]] void update_top(Time t) {
    h_[0].t = t;
    if (t <= runner_up_) return;
    sift_down(0);
    refresh_runner_up();
  }
  void pop_top() {
    h_[0] = h_[--n_];
    h_[n_] = Entry{kSentinel, nullptr};
    sift_down(0);
    refresh_runner_up();
  }

 private:
  static constexpr Time kSentinel = INT64_MAX;
  struct Entry {
    Time t;
    Item* item;
  };

  void refresh_runner_up() { runner_up_ = std::min(h_[1].t, h_[2].t); }

  void sift_up(size_t i) {
    while (i > 0 && h_[(i - 1) / 2].t > h_[i].t) {
      std::swap(h_[(i - 1) / 2], h_[i]);
      i = (i - 1) / 2;
    }
  }
  // Go's heapSiftDown with min3: the smallest of a node and its children, the node on
  // ties (a sentinel never wins: its time is not less than any).
  [[gnu::always_inline]] void sift_down(size_t i) {
    Entry* h = h_.data();
    for (;;) {
      size_t m = i, l = 2 * i + 1, r = l + 1;
      if (h[l].t < h[m].t) m = l;
      if (h[r].t < h[m].t) m = r;
      if (m == i) return;
      std::swap(h[i], h[m]);
      i = m;
    }
  }

  std::vector<Entry> h_;
  size_t n_ = 0;
  Time runner_up_ = kSentinel;  // the earlier of the top's children: the top stays while not later
};

}  // namespace gotrace::v2
