// Builds small v1 traces byte by byte for tests: the header, then events in the
// encoding of FORMAT.md §3.2 (1.7+) or §3.7 (1.5), inline or length-prefixed as the
// runtime would write them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace gotrace::test {

class V1Writer {
 public:
  explicit V1Writer(int minor) : minor_(minor) {
    char h[17] = {};
    std::snprintf(h, sizeof h, "go 1.%d trace", minor);
    bytes_.assign(h, h + 16);
  }

  // An event with these values after the type byte (dt first; 1.5: seq delta, then dt).
  V1Writer& ev(uint8_t type, std::initializer_list<uint64_t> vals) {
    size_t n = vals.size();
    size_t extra = minor_ < 7 ? 1 : 0;  // 1.5 does not count the sequence delta either
    if (n >= 1 + extra && n - 1 - extra < 3) {
      bytes_.push_back(static_cast<uint8_t>(type | (n - 1 - extra) << 6));
      for (uint64_t v : vals) put(bytes_, v);
    } else {
      std::vector<uint8_t> body;
      for (uint64_t v : vals) put(body, v);
      bytes_.push_back(static_cast<uint8_t>(type | 3 << 6));
      put(bytes_, body.size());
      bytes_.insert(bytes_.end(), body.begin(), body.end());
    }
    return *this;
  }
  // A length-prefixed event whatever its size (the runtime writes stacks this way).
  V1Writer& lp(uint8_t type, std::initializer_list<uint64_t> vals) {
    std::vector<uint8_t> body;
    for (uint64_t v : vals) put(body, v);
    bytes_.push_back(static_cast<uint8_t>(type | 3 << 6));
    put(bytes_, body.size());
    bytes_.insert(bytes_.end(), body.begin(), body.end());
    return *this;
  }
  V1Writer& string(uint64_t id, std::string_view s) {
    bytes_.push_back(37);
    put(bytes_, id);
    put(bytes_, s.size());
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    return *this;
  }
  // UserLog: length-prefixed values, then the message.
  V1Writer& user_log(std::initializer_list<uint64_t> vals, std::string_view message) {
    lp(48, vals);
    put(bytes_, message.size());
    bytes_.insert(bytes_.end(), message.begin(), message.end());
    return *this;
  }
  V1Writer& raw(std::initializer_list<uint8_t> b) {
    bytes_.insert(bytes_.end(), b.begin(), b.end());
    return *this;
  }

  const std::vector<uint8_t>& bytes() const { return bytes_; }

  static void put(std::vector<uint8_t>& out, uint64_t v) {
    while (v >= 0x80) {
      out.push_back(static_cast<uint8_t>(v | 0x80));
      v >>= 7;
    }
    out.push_back(static_cast<uint8_t>(v));
  }

 private:
  int minor_;
  std::vector<uint8_t> bytes_;
};

}  // namespace gotrace::test
