// Dense ids for strings seen during an analysis (block reasons, labels): per-goroutine
// state keys by a small integer, as Go's maps key by the string.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "gotrace/flat_map.h"

namespace gotrace::analysis::detail {

// The views must outlive the table (they point into the store's string table).
class StringIds {
 public:
  uint32_t get(std::string_view s) {
    // The views come from the store's string table, where equal strings are one
    // string: its address finds it without hashing the text.
    const auto addr = reinterpret_cast<uintptr_t>(s.data()) ^ (static_cast<uint64_t>(s.size()) << 48);
    if (const uint32_t* id = by_addr_.find(addr); id && strings_[*id] == s) return *id;
    uint32_t id = by_text(s);
    by_addr_[addr] = id;
    return id;
  }
  std::string_view str(uint32_t id) const { return strings_[id]; }
  const std::vector<std::string_view>& strings() const { return strings_; }

 private:
  uint32_t by_text(std::string_view s) {
    uint64_t h = hash_bytes(s.data(), s.size());
    auto [slot, inserted] = by_hash_.try_emplace(h);
    if (inserted) return *slot = add(s);
    if (strings_[*slot] == s) return *slot;
    // A hash collision between different strings: fall back to a scan.
    for (uint32_t id = 0; id < strings_.size(); id++)
      if (strings_[id] == s) return id;
    return add(s);
  }
  uint32_t add(std::string_view s) {
    strings_.push_back(s);
    return static_cast<uint32_t>(strings_.size() - 1);
  }
  std::vector<std::string_view> strings_;
  FlatMap<uint32_t> by_hash_;
  FlatMap<uint32_t> by_addr_;
};

}  // namespace gotrace::analysis::detail
