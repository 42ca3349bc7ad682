// Ports of Go's time.Duration.String and time.ParseDuration.
#include "gotrace/analysis/go_duration.h"

#include <cstring>

namespace gotrace::analysis {
namespace {

// Go's fmtFrac: the fraction of v / 10^prec, trailing zeros omitted, written backwards
// ending at buf[w]; returns the new start and v / 10^prec.
size_t fmt_frac(char* buf, size_t w, uint64_t& v, int prec) {
  bool print = false;
  for (int i = 0; i < prec; i++) {
    uint64_t digit = v % 10;
    print = print || digit != 0;
    if (print) buf[--w] = static_cast<char>('0' + digit);
    v /= 10;
  }
  if (print) buf[--w] = '.';
  return w;
}

size_t fmt_int(char* buf, size_t w, uint64_t v) {
  if (v == 0) {
    buf[--w] = '0';
  } else {
    while (v > 0) {
      buf[--w] = static_cast<char>('0' + v % 10);
      v /= 10;
    }
  }
  return w;
}

}  // namespace

std::string go_duration_string(int64_t d) {
  char buf[32];
  size_t w = sizeof buf;
  uint64_t u = static_cast<uint64_t>(d);
  const bool neg = d < 0;
  if (neg) u = -u;
  constexpr uint64_t kSecond = 1'000'000'000;
  if (u < kSecond) {
    // Below a second: ns, µs or ms, so that 0.001s is "1ms".
    int prec = 0;
    buf[--w] = 's';
    w--;
    if (u == 0) {
      buf[w] = '0';
      return std::string(buf + w, sizeof buf - w);
    } else if (u < 1'000) {
      prec = 0;
      buf[w] = 'n';
    } else if (u < 1'000'000) {
      prec = 3;
      w--;  // U+00B5 MICRO SIGN, two bytes
      std::memcpy(buf + w, "\xC2\xB5", 2);
    } else {
      prec = 6;
      buf[w] = 'm';
    }
    w = fmt_frac(buf, w, u, prec);
    w = fmt_int(buf, w, u);
  } else {
    buf[--w] = 's';
    w = fmt_frac(buf, w, u, 9);
    // u is now whole seconds.
    w = fmt_int(buf, w, u % 60);
    u /= 60;
    if (u > 0) {
      buf[--w] = 'm';
      w = fmt_int(buf, w, u % 60);
      u /= 60;
      if (u > 0) {
        buf[--w] = 'h';
        w = fmt_int(buf, w, u);
      }
    }
  }
  if (neg) buf[--w] = '-';
  return std::string(buf + w, sizeof buf - w);
}

std::optional<int64_t> parse_go_duration(std::string_view s) {
  // [-+]?([0-9]*(\.[0-9]*)?[a-z]+)+
  constexpr uint64_t kLimit = uint64_t{1} << 63;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return 0;
  if (s.empty()) return std::nullopt;
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  uint64_t d = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || is_digit(s[0]))) return std::nullopt;
    // The integer part.
    uint64_t v = 0;
    size_t i = 0;
    for (; i < s.size() && is_digit(s[i]); i++) {
      if (v > kLimit / 10) return std::nullopt;
      v = v * 10 + static_cast<uint64_t>(s[i] - '0');
      if (v > kLimit) return std::nullopt;
    }
    const bool pre = i > 0;
    s.remove_prefix(i);
    // The fraction.
    uint64_t f = 0;
    double scale = 1;
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      bool overflow = false;
      size_t k = 0;
      for (; k < s.size() && is_digit(s[k]); k++) {
        if (overflow) continue;
        if (f > (kLimit - 1) / 10) {
          overflow = true;
          continue;
        }
        uint64_t y = f * 10 + static_cast<uint64_t>(s[k] - '0');
        if (y > kLimit) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = k > 0;
      s.remove_prefix(k);
    }
    if (!pre && !post) return std::nullopt;  // no digits, e.g. ".s"
    // The unit.
    size_t u = 0;
    while (u < s.size() && s[u] != '.' && !is_digit(s[u])) u++;
    if (u == 0) return std::nullopt;
    std::string_view unit_name = s.substr(0, u);
    s.remove_prefix(u);
    uint64_t unit;
    if (unit_name == "ns") {
      unit = 1;
    } else if (unit_name == "us" || unit_name == "\xC2\xB5s" || unit_name == "\xCE\xBCs") {
      unit = 1'000;
    } else if (unit_name == "ms") {
      unit = 1'000'000;
    } else if (unit_name == "s") {
      unit = 1'000'000'000;
    } else if (unit_name == "m") {
      unit = 60'000'000'000;
    } else if (unit_name == "h") {
      unit = 3'600'000'000'000;
    } else {
      return std::nullopt;
    }
    if (v > kLimit / unit) return std::nullopt;
    v *= unit;
    if (f > 0) {
      v += static_cast<uint64_t>(static_cast<double>(f) * (static_cast<double>(unit) / scale));
      if (v > kLimit) return std::nullopt;
    }
    d += v;
    if (d > kLimit) return std::nullopt;
  }
  if (neg) return static_cast<int64_t>(0 - d);
  if (d > kLimit - 1) return std::nullopt;
  return static_cast<int64_t>(d);
}

}  // namespace gotrace::analysis
