// A cursor over the input bytes that knows its file offset and reports errors the
// way Go's bufio/binary readers word them.
#pragma once

#include <cstdint>
#include <string>

#include "gotrace/error.h"
#include "varint.h"

namespace gotrace {

class ByteReader {
 public:
  ByteReader(const uint8_t* begin, const uint8_t* end, uint64_t base_offset)
      : begin_(begin), p_(begin), end_(end), base_(base_offset) {}

  bool at_end() const { return p_ >= end_; }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  uint64_t offset() const { return base_ + static_cast<uint64_t>(p_ - begin_); }
  const uint8_t* pos() const { return p_; }
  void skip(size_t n) { p_ += n; }

  // False at end of input.
  bool read_byte(uint8_t& b) {
    if (p_ >= end_) return false;
    b = *p_++;
    return true;
  }

  // Go's binary.ReadUvarint: "EOF" when nothing was left, "unexpected EOF" when the
  // varint was cut short, "varint overflows a 64-bit integer" on overflow.
  // Returns the empty string on success.
  const char* read_uvarint(uint64_t& v) {
    if (p_ >= end_) return "EOF";
    switch (gotrace::read_uvarint(p_, end_, v)) {
      case VarintStatus::Ok: return nullptr;
      case VarintStatus::Truncated: p_ = end_; return "unexpected EOF";
      case VarintStatus::Overflow: return "varint overflows a 64-bit integer";
    }
    return nullptr;
  }

 private:
  const uint8_t* begin_;
  const uint8_t* p_;
  const uint8_t* end_;
  uint64_t base_;
};

}  // namespace gotrace
