// kind_of_type as a table, for the analyses' loops over every event.
#pragma once

#include <array>
#include <cstdint>

#include "gotrace/event_view.h"

namespace gotrace::analysis::detail {

inline const std::array<EventKind, 256>& event_kinds() {
  static const std::array<EventKind, 256> kinds = [] {
    std::array<EventKind, 256> k{};
    for (int t = 0; t < 256; t++) k[static_cast<size_t>(t)] = kind_of_type(static_cast<uint8_t>(t));
    return k;
  }();
  return kinds;
}

}  // namespace gotrace::analysis::detail
