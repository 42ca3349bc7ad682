// Level of detail for spans that nest or overlap (regions, tasks): spans at least a
// pixel wide come back exactly, narrower ones merge per pixel and row.
#pragma once

#include <algorithm>
#include <vector>

#include "gotrace/analysis/timeline_query.h"
#include "timeline_data.h"

namespace gotrace::analysis::detail {

// `describe(event)` gives the (task, name) of the span that event begins or ends; it is
// asked only for what is emitted.
template <class Describe>
class SpanMerger {
 public:
  SpanMerger(const TimelineView& v, SpanRects& out, Describe describe)
      : v_(v), out_(out), px_(v), describe_(describe) {}

  // A span [start, end) on a row, known by one of its events; `merge_rows`: narrow
  // spans of all rows share one rectangle per pixel (on the lowest row).
  void add(Time start, Time end, uint32_t row, uint32_t event, bool merge_rows) {
    if (end < v_.from || start >= v_.to || (end == v_.from && end != start)) return;
    Time a = std::max(start, v_.from), b = std::min(end, v_.to);
    if (!px_.narrow(b - a)) {
      emit(a, b, row, 1, event);
      return;
    }
    const int64_t p = px_.of(a);
    const uint32_t key = merge_rows ? 0 : row;
    if (key >= open_.size()) open_.resize(key + 1);
    Group& g = open_[key];
    if (g.count > 0 && g.bucket != p) flush(g);
    if (g.count == 0) g = Group{p, a, b, row, 0, -1, 0};
    g.end = std::max(g.end, b);
    g.row = std::min(g.row, row);
    g.count++;
    if (b - a > g.longest) {
      g.longest = b - a;
      g.event = event;
    }
  }
  void finish() {
    for (Group& g : open_) flush(g);
  }

 private:
  struct Group {
    int64_t bucket = 0;
    Time start = 0, end = 0;
    uint32_t row = 0, count = 0;
    Time longest = -1;
    uint32_t event = 0;  // of the longest span
  };
  void flush(Group& g) {
    if (g.count == 0) return;
    emit(g.start, g.end, g.row, g.count, g.event);
    g.count = 0;
  }
  void emit(Time a, Time b, uint32_t row, uint32_t count, uint32_t event) {
    const auto [task, name] = describe_(event);
    out_.start.push_back(a);
    out_.end.push_back(b);
    out_.row.push_back(row);
    out_.count.push_back(count);
    out_.task.push_back(task);
    out_.name.push_back(name);
  }

  const TimelineView& v_;
  SpanRects& out_;
  const Pixels px_;
  Describe describe_;
  std::vector<Group> open_;
};

}  // namespace gotrace::analysis::detail
