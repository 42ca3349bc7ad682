// Bit-packing as Parquet's encodings lay values out: each value in `width` bits, LSB
// first, one after another. Written 32 bits at a time rather than a byte at a time (a
// byte loop per value was most of the time of encoding a large table's integers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gotrace::analysis::detail {

// Packs get(0) .. get(count - 1), each below 2^width (width <= 32), at p; returns the end.
// `count * width` should be a multiple of 8: the last byte is written whole.
template <class Get>
uint8_t* pack_bits(uint8_t* p, size_t count, int width, Get&& get) {
  uint64_t bits = 0;
  int have = 0;
  for (size_t i = 0; i < count; i++) {
    bits |= static_cast<uint64_t>(get(i)) << have;
    have += width;
    if (have >= 32) {
      const auto word = static_cast<uint32_t>(bits);
      std::memcpy(p, &word, 4);  // little-endian, as every machine the core runs on
      p += 4;
      bits >>= 32;
      have -= 32;
    }
  }
  for (; have > 0; have -= 8) {
    *p++ = static_cast<uint8_t>(bits);
    bits >>= 8;
  }
  return p;
}

}  // namespace gotrace::analysis::detail
