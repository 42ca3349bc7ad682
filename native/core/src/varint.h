// LEB128 decoding with the exact rules of Go's encoding/binary (Uvarint, ReadUvarint).
#pragma once

#include <cstddef>
#include <cstdint>

namespace gotrace {

enum class VarintStatus : uint8_t { Ok, Truncated, Overflow };

// Decodes one varint from [p, end). On success advances p. Non-minimal encodings are
// accepted; more than 10 bytes, or a 10th byte > 1, is an overflow.
inline VarintStatus read_uvarint(const uint8_t*& p, const uint8_t* end, uint64_t& out) {
  const uint8_t* q = p;
  if (q < end && *q < 0x80) {  // the common one-byte case
    out = *q;
    p = q + 1;
    return VarintStatus::Ok;
  }
  uint64_t x = 0;
  unsigned s = 0;
  for (int i = 0; q < end; i++, q++) {
    uint8_t b = *q;
    if (i == 10) return VarintStatus::Overflow;
    if (b < 0x80) {
      if (i == 9 && b > 1) return VarintStatus::Overflow;
      out = x | uint64_t(b) << s;
      p = q + 1;
      return VarintStatus::Ok;
    }
    x |= uint64_t(b & 0x7f) << s;
    s += 7;
  }
  return VarintStatus::Truncated;
}

// Appends the minimal encoding of v.
template <class Out>
inline void write_uvarint(Out& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}

// Signed values as unsigned ones of about their magnitude (Go's, protobuf's and Thrift's
// zigzag: 0, -1, 1, -2 ... as 0, 1, 2, 3 ...), for varints.
inline uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
inline int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

}  // namespace gotrace
