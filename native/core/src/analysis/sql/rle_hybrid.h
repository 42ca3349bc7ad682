// Parquet's RLE / bit-packing hybrid encoding, of definition levels (bit width 1) and
// dictionary indices: a run of 8 or more equal values as one repeated value, the rest
// bit-packed in groups of 8 (LSB first), as the format's readers expect.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/sql/bit_pack.h"

namespace gotrace::analysis::detail {

class RleHybridEncoder {
 public:
  RleHybridEncoder(std::string& out, int bit_width) : out_(out), width_(bit_width) {}

  // Appends `count` copies of `v`.
  void run(uint32_t v, size_t count) {
    const size_t fill = (8 - pending_.size() % 8) % 8;
    if (count < fill + 8) {
      pending_.insert(pending_.end(), count, v);
      return;
    }
    // Complete the bit-packed groups, then the rest as one repeated run.
    pending_.insert(pending_.end(), fill, v);
    flush_packed();
    varint(static_cast<uint64_t>(count - fill) << 1);
    for (int b = 0; b < (width_ + 7) / 8; b++) out_.push_back(static_cast<char>((v >> (8 * b)) & 0xFF));
  }

  // `n` values, all bit-packed in one run (no search for repeats: for values that seldom
  // repeat 8 times, such as dictionary indices and definition levels of a column with
  // scattered NULLs). Only at the start of an encoding.
  template <class Get>
  void packed(size_t n, Get&& get) {
    if (n == 0) return;
    const size_t groups = (n + 7) / 8;
    varint((groups << 1) | 1);
    const size_t at = out_.size();
    out_.resize(at + groups * static_cast<size_t>(width_));
    auto* p = reinterpret_cast<uint8_t*>(out_.data() + at);
    pack_bits(p, groups * 8, width_, [&](size_t i) { return i < n ? get(i) : 0; });
  }

  // Definition levels of rows with `null` flags (1 = NULL), all bit-packed in one run:
  // level 1 for a value, 0 for NULL, 8 rows to a byte. Only at the start of an encoding
  // of bit width 1.
  void packed_levels(const uint8_t* null, size_t n) {
    if (n == 0) return;
    const size_t groups = (n + 7) / 8;
    varint((groups << 1) | 1);
    const size_t at = out_.size();
    out_.resize(at + groups);
    auto* p = reinterpret_cast<uint8_t*>(out_.data() + at);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t x;
      std::memcpy(&x, null + i, 8);
      // Bytes of 0 or 1, flipped, gathered into the top byte: byte k to bit k.
      x ^= 0x0101010101010101ull;
      *p++ = static_cast<uint8_t>((x * 0x0102040810204080ull) >> 56);
    }
    if (i < n) {
      uint8_t last = 0;
      for (size_t k = 0; i + k < n; k++) last |= static_cast<uint8_t>((null[i + k] ^ 1) << k);
      *p = last;
    }
  }

  // Ends the encoding (the last group padded with zeros: readers take the count they
  // were told).
  void finish() {
    while (pending_.size() % 8) pending_.push_back(0);
    flush_packed();
  }

 private:
  void varint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void flush_packed() {
    if (pending_.empty()) return;
    varint(((pending_.size() / 8) << 1) | 1);
    uint64_t bits = 0;
    int have = 0;
    for (uint32_t v : pending_) {
      bits |= static_cast<uint64_t>(v) << have;
      have += width_;
      while (have >= 8) {
        out_.push_back(static_cast<char>(bits & 0xFF));
        bits >>= 8;
        have -= 8;
      }
    }
    pending_.clear();  // groups of 8 values end on a byte boundary: nothing left over
  }

  std::string& out_;
  int width_;
  std::vector<uint32_t> pending_;  // values to bit-pack: whole groups of 8 but the last
};

}  // namespace gotrace::analysis::detail
