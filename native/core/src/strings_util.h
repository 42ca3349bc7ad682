// printf-style formatting into std::string (error messages keep Go's wording).
#pragma once

#include <cstdarg>
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

}  // namespace gotrace
