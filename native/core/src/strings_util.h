// Formatting into std::string: printf-style (error messages keep Go's wording) and numbers.
#pragma once

#include <charconv>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>

namespace gotrace {

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
inline std::string fmt(const char* f, ...) {
  va_list ap;
  va_start(ap, f);
  char buf[512];
  int n = vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  if (n < 0) return f;
  if (static_cast<size_t>(n) < sizeof buf) return std::string(buf, n);
  std::string out(n, '\0');
  va_start(ap, f);
  vsnprintf(out.data(), out.size() + 1, f, ap);
  va_end(ap);
  return out;
}

// A number in decimal (hex: base 16) at the end of `out`, as Go's strconv.Append* writes it.
inline void add_i64(std::string& out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

inline void add_u64(std::string& out, uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

inline void add_hex(std::string& out, uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  out.append(buf, r.ptr);
}

}  // namespace gotrace
