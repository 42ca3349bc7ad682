// Parquet's DELTA_BINARY_PACKED encoding of 64-bit integers: the differences between
// consecutive values, less their block's smallest, bit-packed 32 at a time at the width
// the largest needs. The tables' integers are mostly counters, sorted times and ids that
// repeat (trace_id, event, time, thread...): a few bits each instead of 64.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "analysis/sql/bit_pack.h"
#include "varint.h"

namespace gotrace::analysis::detail {

// Returns the values' minimum and maximum (both 0 when n is 0), found on the way.
template <class Get>
std::pair<int64_t, int64_t> delta_binary_packed(std::string& out, size_t n, Get&& get) {
  constexpr size_t kBlock = 128, kMiniblocks = 4, kMini = kBlock / kMiniblocks;
  auto varint = [&](uint64_t v) { write_uvarint(out, v); };
  varint(kBlock);
  varint(kMiniblocks);
  varint(n);
  if (n == 0) {
    varint(0);
    return {0, 0};
  }
  uint64_t prev = static_cast<uint64_t>(get(0));
  int64_t lo = static_cast<int64_t>(prev), hi = lo;
  varint(zigzag(static_cast<int64_t>(prev)));
  uint64_t deltas[kBlock];
  for (size_t at = 1; at < n; at += kBlock) {
    const size_t count = std::min(kBlock, n - at);
    // Differences in two's complement, as int64 arithmetic wraps: readers add them back
    // the same way.
    int64_t min_delta = INT64_MAX;
    for (size_t i = 0; i < count; i++) {
      const int64_t x = get(at + i);
      lo = std::min(lo, x);
      hi = std::max(hi, x);
      const auto v = static_cast<uint64_t>(x);
      deltas[i] = v - prev;
      prev = v;
      min_delta = std::min(min_delta, static_cast<int64_t>(deltas[i]));
    }
    varint(zigzag(min_delta));
    int widths[kMiniblocks] = {};
    for (size_t m = 0; m * kMini < count; m++) {
      uint64_t any = 0;
      for (size_t i = m * kMini; i < std::min(count, (m + 1) * kMini); i++) {
        deltas[i] -= static_cast<uint64_t>(min_delta);
        any |= deltas[i];
      }
      widths[m] = static_cast<int>(std::bit_width(any));
    }
    for (int w : widths) out.push_back(static_cast<char>(w));
    for (size_t m = 0; m * kMini < count; m++) {
      const int w = widths[m];
      if (w == 0) continue;
      // 32 values (the last miniblock padded with zeros) LSB first: 4 * w bytes.
      const size_t first = m * kMini;
      for (size_t i = count; i < first + kMini; i++) deltas[i] = 0;
      const size_t start = out.size();
      out.resize(start + 4 * static_cast<size_t>(w));
      auto* p = reinterpret_cast<uint8_t*>(out.data() + start);
      if (w <= 32) {
        pack_bits(p, kMini, w, [&](size_t i) { return deltas[first + i]; });
      } else if (w <= 56) {
        uint64_t bits = 0;
        int have = 0;
        for (size_t i = first; i < first + kMini; i++) {
          bits |= deltas[i] << have;
          have += w;
          while (have >= 8) {
            *p++ = static_cast<uint8_t>(bits);
            bits >>= 8;
            have -= 8;
          }
        }
      } else {
        __extension__ using u128 = unsigned __int128;  // (a GCC and Clang extension)
        u128 bits = 0;
        int have = 0;
        for (size_t i = first; i < first + kMini; i++) {
          bits |= static_cast<u128>(deltas[i]) << have;
          have += w;
          while (have >= 8) {
            *p++ = static_cast<uint8_t>(bits);
            bits >>= 8;
            have -= 8;
          }
        }
      }
    }
  }
  return {lo, hi};
}

}  // namespace gotrace::analysis::detail
