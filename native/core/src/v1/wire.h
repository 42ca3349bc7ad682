// The v1 value encoding (FORMAT.md §3.2, §3.7 "Encoding differences"): base-128 varints
// as each of Go's parsers reads them, and which event types are timed.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "gotrace/v1_spec.h"
#include "varint.h"

namespace gotrace::v1 {

// One value. Go 1.21 reads up to ten 7-bit groups without an overflow check; Go 1.23
// uses encoding/binary's rules.
inline bool read_value(const uint8_t*& p, const uint8_t* end, uint64_t& v, bool go121) {
  if (p < end && *p < 0x80) {
    v = *p++;
    return true;
  }
  if (!go121) return read_uvarint(p, end, v) == VarintStatus::Ok;
  uint64_t x = 0;
  const uint8_t* q = p;
  for (unsigned i = 0; i < 10 && q < end; i++) {
    uint8_t b = *q++;
    x |= uint64_t(b & 0x7f) << (7 * i);
    if (b < 0x80) {
      v = x;
      p = q;
      return true;
    }
  }
  return false;
}

// Decodes a varint of at most 8 bytes, reading the 8 bytes at q (which must all be
// readable) at once, without a branch per byte. Returns its length, 0 if it is longer.
inline unsigned decode_short_varint(const uint8_t* q, uint64_t& v) {
  uint64_t w;
  std::memcpy(&w, q, 8);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  // Most values (time deltas, goroutines, stacks) take one or two bytes.
  if ((w & 0x80) == 0) {
    v = w & 0x7f;
    return 1;
  }
  if ((w & 0x8000) == 0) {
    v = (w & 0x7f) | ((w >> 1) & 0x3f80);
    return 2;
  }
  uint64_t ends = ~w & 0x8080808080808080ULL;  // bytes whose high bit says "last"
  if (ends == 0) return 0;
  unsigned len = (static_cast<unsigned>(std::countr_zero(ends)) >> 3) + 1;
  uint64_t x = len == 8 ? w : w & ((uint64_t{1} << (8 * len)) - 1);
  // Close up the 7-bit groups: pairs of bytes, then of 14-bit groups, then of 28-bit ones.
  x = (x & 0x007f007f007f007fULL) | ((x & 0x7f007f007f007f00ULL) >> 1);
  x = (x & 0x00003fff00003fffULL) | ((x & 0x3fff00003fff0000ULL) >> 2);
  x = (x & 0x000000000fffffffULL) | ((x & 0x0fffffff00000000ULL) >> 4);
  v = x;
  return len;
}

// Whether an event of this type is one of the merged, timed events.
inline bool is_timed(uint8_t type) {
  switch (type) {
    case EvNone:
    case EvBatch:
    case EvFrequency:
    case EvStack:
    case EvTimerGoroutine:
    case EvString:
    case EvCPUSample:  // timed, but merged from its own sorted list
      return false;
  }
  return type < EvCount;
}

}  // namespace gotrace::v1
