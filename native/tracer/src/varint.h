// Unsigned LEB128, as every number in the trace is written (FORMAT.md §2.2).
#pragma once

#include <cstddef>
#include <cstdint>

namespace gotrace::tracer::detail {

inline constexpr size_t kMaxVarint = 10;

inline uint8_t* put_uvarint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = uint8_t(v) | 0x80;
    v >>= 7;
  }
  *p++ = uint8_t(v);
  return p;
}

// Always 10 bytes: for a value that is only known after the bytes that follow it are
// written (a batch's size), like Go's varintAt.
inline void put_uvarint_padded(uint8_t* p, uint64_t v) {
  for (size_t i = 0; i < kMaxVarint - 1; i++) {
    *p++ = uint8_t(v) | 0x80;
    v >>= 7;
  }
  *p = uint8_t(v);
}

}  // namespace gotrace::tracer::detail
