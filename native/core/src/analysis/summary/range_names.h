// Dense ids for the names of ranges ("stop-the-world (GC mark termination)", "GC mark
// assist", ...), so that the analyses key their per-range state by a small integer
// instead of building Go's range name string for every range event.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "gotrace/event_store.h"
#include "gotrace/event_view.h"
#include "gotrace/flat_map.h"

namespace gotrace::analysis::detail {

struct RangeRef {
  uint32_t name = 0;  // id in RangeNames
  ResourceID scope;
};

class RangeNames {
 public:
  // The range of event i, which must be of kind RangeBegin, RangeActive or RangeEnd.
  // Same name and scope as EventView::range(), without building the name each time.
  RangeRef get(const EventStore& s, size_t i);
  // get()'s answer for the two most frequent ranges, from the event's context alone: a GC
  // sweep (on its proc, `sweep`) or mark assist (on its goroutine) begun or ended there.
  RangeRef sweep_or_assist(bool sweep, const Context& ctx) {
    return sweep ? RangeRef{sweep_name(), {ResourceKind::Proc, ctx.p}}
                 : RangeRef{assist_name(), {ResourceKind::Goroutine, ctx.g}};
  }

  const std::string& name(uint32_t id) const { return names_[id]; }
  size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }

  // The classes of ranges the MMU counts as GC work (Go's isGCSTW, isGCMarkAssist,
  // isGCSweep).
  bool is_gc_stw(uint32_t id) const { return class_[id] == kGCSTW; }
  bool is_mark_assist(uint32_t id) const { return class_[id] == kMarkAssist; }
  bool is_sweep(uint32_t id) const { return class_[id] == kSweep; }

 private:
  enum Class : uint8_t { kOther, kGCSTW, kMarkAssist, kSweep };
  uint32_t intern(const std::string& name);
  uint32_t sweep_name() { return sweep_ != kUnset ? sweep_ : (sweep_ = intern("GC incremental sweep")); }
  uint32_t assist_name() { return assist_ != kUnset ? assist_ : (assist_ = intern("GC mark assist")); }

  std::vector<std::string> names_;
  std::vector<uint8_t> class_;
  std::unordered_map<std::string, uint32_t> by_name_;
  FlatMap<uint32_t> stw_by_kind_;  // STW kind string id -> name id
  static constexpr uint32_t kUnset = ~0u;
  uint32_t gc_ = kUnset, sweep_ = kUnset, assist_ = kUnset;
};

}  // namespace gotrace::analysis::detail
