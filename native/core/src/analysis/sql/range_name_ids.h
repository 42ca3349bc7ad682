// Range events' names, numbered 0, 1, ... in order of first sight, from what a name
// depends on: the event's type, and a stop-the-world's kind (a string). Each name is made
// once, where EventView::range() makes it anew for each of a trace's million ranges.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "gotrace/event_view.h"

namespace gotrace::analysis::detail {

class RangeNameIds {
 public:
  explicit RangeNameIds(const EventStore& s) : s_(s) { by_type_.fill(-1); }

  // The number of range event i's name.
  int32_t id(size_t i) {
    const uint8_t type = s_.type(i);
    if (type == v2::EvSTWBegin || type == v2::EvSTWEnd) {
      auto [it, added] = by_stw_kind_.try_emplace(s_.a(i), 0);
      if (added) it->second = number(i);
      return it->second;
    }
    int32_t& id = by_type_[type];
    if (id < 0) id = number(i);
    return id;
  }
  const std::string& name(int32_t id) const { return names_[static_cast<size_t>(id)]; }
  size_t size() const { return names_.size(); }

 private:
  int32_t number(size_t i) {
    auto [it, added] = by_name_.try_emplace(EventView(s_, i).range().name, static_cast<int32_t>(names_.size()));
    if (added) names_.push_back(it->first);
    return it->second;
  }

  const EventStore& s_;
  std::array<int32_t, 256> by_type_;
  std::unordered_map<uint32_t, int32_t> by_stw_kind_;  // by the kind's string id
  std::unordered_map<std::string, int32_t> by_name_;
  std::vector<std::string> names_;
};

}  // namespace gotrace::analysis::detail
