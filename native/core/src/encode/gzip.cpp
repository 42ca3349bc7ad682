#include "gotrace/encode/gzip.h"

#include <algorithm>
#include <array>

namespace gotrace::analysis {
namespace {

constexpr std::array<uint32_t, 256> make_crc_table() {
  std::array<uint32_t, 256> t{};
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[i] = c;
  }
  return t;
}
constexpr std::array<uint32_t, 256> kCrcTable = make_crc_table();

// Bits go out least significant first; Huffman codes are stored reversed so that they
// read most significant first, as RFC 1951 §3.1.1 wants.
class BitWriter {
 public:
  explicit BitWriter(std::vector<uint8_t>& out) : out_(out) {}
  void bits(uint32_t value, int n) {
    acc_ |= static_cast<uint64_t>(value) << count_;
    count_ += n;
    while (count_ >= 8) {
      out_.push_back(static_cast<uint8_t>(acc_));
      acc_ >>= 8;
      count_ -= 8;
    }
  }
  void code(uint32_t code, int n) {
    uint32_t r = 0;
    for (int i = 0; i < n; i++) r |= ((code >> i) & 1) << (n - 1 - i);
    bits(r, n);
  }
  void flush() {
    if (count_ > 0) bits(0, 8 - count_);
  }

 private:
  std::vector<uint8_t>& out_;
  uint64_t acc_ = 0;
  int count_ = 0;
};

// RFC 1951 §3.2.5: length codes 257..285 and distance codes 0..29.
constexpr uint16_t kLengthBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr uint8_t kLengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr uint16_t kDistBase[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
                                    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr uint8_t kDistExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

// §3.2.6: the fixed literal/length code.
void put_literal(BitWriter& w, unsigned v) {
  if (v < 144) w.code(0x30 + v, 8);
  else if (v < 256) w.code(0x190 + (v - 144), 9);
  else if (v < 280) w.code(v - 256, 7);
  else w.code(0xC0 + (v - 280), 8);
}

void put_match(BitWriter& w, unsigned length, unsigned distance) {
  int l = 28;
  while (kLengthBase[l] > length) l--;
  put_literal(w, 257 + l);
  w.bits(length - kLengthBase[l], kLengthExtra[l]);
  int d = 29;
  while (kDistBase[d] > distance) d--;
  w.code(d, 5);
  w.bits(distance - kDistBase[d], kDistExtra[d]);
}

constexpr size_t kWindow = 32768;
constexpr unsigned kMinMatch = 3, kMaxMatch = 258;
constexpr int kHashBits = 15;
constexpr int kMaxChain = 64;

uint32_t hash3(const uint8_t* p) {
  uint32_t v = p[0] | p[1] << 8 | p[2] << 16;
  return (v * 2654435761u) >> (32 - kHashBits);
}

// One fixed-Huffman block holding the whole input, greedy LZ77 over hash chains.
std::vector<uint8_t> deflate_fixed(std::span<const uint8_t> in) {
  std::vector<uint8_t> out;
  BitWriter w(out);
  w.bits(1, 1);  // BFINAL
  w.bits(1, 2);  // BTYPE = fixed Huffman
  std::vector<int32_t> head(size_t{1} << kHashBits, -1);
  std::vector<int32_t> prev(kWindow, -1);
  const size_t n = in.size();
  auto insert = [&](size_t pos) {
    if (pos + kMinMatch > n) return;
    uint32_t h = hash3(&in[pos]);
    prev[pos % kWindow] = head[h];
    head[h] = static_cast<int32_t>(pos);
  };
  size_t i = 0;
  while (i < n) {
    unsigned best_len = 0, best_dist = 0;
    if (i + kMinMatch <= n) {
      const size_t limit = std::min<size_t>(kMaxMatch, n - i);
      int32_t cand = head[hash3(&in[i])];
      for (int chain = 0; cand >= 0 && chain < kMaxChain; chain++) {
        size_t c = static_cast<size_t>(cand);
        if (i - c > kWindow - 1) break;
        size_t len = 0;
        while (len < limit && in[c + len] == in[i + len]) len++;
        if (len > best_len) {
          best_len = static_cast<unsigned>(len);
          best_dist = static_cast<unsigned>(i - c);
          if (len == limit) break;
        }
        int32_t next = prev[c % kWindow];
        if (next >= cand) break;  // the slot was reused by a newer position
        cand = next;
      }
    }
    if (best_len >= kMinMatch) {
      put_match(w, best_len, best_dist);
      for (size_t k = 0; k < best_len; k++) insert(i + k);
      i += best_len;
    } else {
      put_literal(w, in[i]);
      insert(i);
      i++;
    }
  }
  put_literal(w, 256);  // end of block
  w.flush();
  return out;
}

// Stored blocks (§3.2.4): at most 65535 bytes each.
std::vector<uint8_t> deflate_stored(std::span<const uint8_t> in) {
  std::vector<uint8_t> out;
  size_t pos = 0;
  do {
    size_t len = std::min<size_t>(65535, in.size() - pos);
    bool last = pos + len == in.size();
    out.push_back(last ? 1 : 0);  // BFINAL, BTYPE = 00, then padding to the byte
    out.push_back(static_cast<uint8_t>(len));
    out.push_back(static_cast<uint8_t>(len >> 8));
    out.push_back(static_cast<uint8_t>(~len));
    out.push_back(static_cast<uint8_t>(~len >> 8));
    out.insert(out.end(), in.begin() + static_cast<std::ptrdiff_t>(pos),
               in.begin() + static_cast<std::ptrdiff_t>(pos + len));
    pos += len;
  } while (pos < in.size());
  return out;
}

void put_le32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; i++) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

}  // namespace

uint32_t crc32(std::span<const uint8_t> data, uint32_t crc) {
  crc = ~crc;
  for (uint8_t b : data) crc = kCrcTable[(crc ^ b) & 0xff] ^ (crc >> 8);
  return ~crc;
}

std::vector<uint8_t> deflate(std::span<const uint8_t> data) {
  std::vector<uint8_t> fixed = deflate_fixed(data);
  // Fixed codes spend 9 bits on bytes >= 144: random-looking data grows. Stored blocks
  // cost 5 bytes per 64 KiB.
  size_t stored_size = data.size() + 5 * (data.size() / 65535 + 1);
  if (fixed.size() <= stored_size) return fixed;
  return deflate_stored(data);
}

std::vector<uint8_t> gzip(std::span<const uint8_t> data) {
  // ID1 ID2, CM = deflate, no flags, no mtime, no extra flags, OS = unknown.
  std::vector<uint8_t> out = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255};
  std::vector<uint8_t> body = deflate(data);
  out.insert(out.end(), body.begin(), body.end());
  put_le32(out, crc32(data));
  put_le32(out, static_cast<uint32_t>(data.size()));  // ISIZE: the length mod 2^32
  return out;
}

}  // namespace gotrace::analysis
