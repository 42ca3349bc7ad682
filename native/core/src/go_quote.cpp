#include "gotrace/go_quote.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

namespace gotrace {
namespace {

#include "go_isprint_tables.inc"

template <class T, size_t N, class V>
size_t lower_bound_index(const T (&a)[N], V x) {
  return static_cast<size_t>(std::lower_bound(std::begin(a), std::end(a), static_cast<T>(x)) - std::begin(a));
}

template <class T, size_t N, class V>
bool contains(const T (&a)[N], V x) {
  size_t i = lower_bound_index(a, x);
  return i < N && a[i] == static_cast<T>(x);
}

// Decodes one rune like Go's utf8.DecodeRuneInString; width 1 with ok=false for
// invalid input (including surrogates and overlong forms).
char32_t decode_rune(std::string_view s, size_t i, size_t& width, bool& ok) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  size_t n = s.size() - i;
  unsigned char c0 = b(0);
  ok = false;
  width = 1;
  if (c0 < 0x80) {
    ok = true;
    return c0;
  }
  auto cont = [&](size_t k) { return k < n && (b(k) & 0xC0) == 0x80; };
  if (c0 >= 0xC2 && c0 <= 0xDF && cont(1)) {
    width = 2;
    ok = true;
    return char32_t(c0 & 0x1F) << 6 | (b(1) & 0x3F);
  }
  if (c0 >= 0xE0 && c0 <= 0xEF && cont(1) && cont(2)) {
    char32_t r = char32_t(c0 & 0x0F) << 12 | char32_t(b(1) & 0x3F) << 6 | (b(2) & 0x3F);
    if (r < 0x800 || (r >= 0xD800 && r <= 0xDFFF)) return 0xFFFD;
    width = 3;
    ok = true;
    return r;
  }
  if (c0 >= 0xF0 && c0 <= 0xF4 && cont(1) && cont(2) && cont(3)) {
    char32_t r = char32_t(c0 & 0x07) << 18 | char32_t(b(1) & 0x3F) << 12 | char32_t(b(2) & 0x3F) << 6 | (b(3) & 0x3F);
    if (r < 0x10000 || r > 0x10FFFF) return 0xFFFD;
    width = 4;
    ok = true;
    return r;
  }
  return 0xFFFD;
}

constexpr char kHex[] = "0123456789abcdef";

}  // namespace

void append_utf8(std::string& out, char32_t r) {
  if (r < 0x80) {
    out += static_cast<char>(r);
  } else if (r < 0x800) {
    out += static_cast<char>(0xC0 | (r >> 6));
    out += static_cast<char>(0x80 | (r & 0x3F));
  } else if (r < 0x10000) {
    out += static_cast<char>(0xE0 | (r >> 12));
    out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (r & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (r >> 18));
    out += static_cast<char>(0x80 | ((r >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (r & 0x3F));
  }
}

bool go_is_print(char32_t r) {
  if (r <= 0xFF) {
    if (r >= 0x20 && r <= 0x7E) return true;
    if (r >= 0xA1 && r <= 0xFF) return r != 0xAD;
    return false;
  }
  if (r < 0x10000) {
    size_t i = lower_bound_index(kIsPrint16, r);
    constexpr size_t n = std::size(kIsPrint16);
    if (i >= n || r < kIsPrint16[i & ~size_t{1}] || kIsPrint16[i | 1] < r) return false;
    return !contains(kIsNotPrint16, r);
  }
  size_t i = lower_bound_index(kIsPrint32, r);
  constexpr size_t n = std::size(kIsPrint32);
  if (i >= n || r < kIsPrint32[i & ~size_t{1}] || kIsPrint32[i | 1] < r) return false;
  if (r >= 0x20000) return true;
  return !contains(kIsNotPrint32, r - 0x10000);
}

void append_go_quoted(std::string& out, std::string_view s) {
  out += '"';
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    // Fast path for plain printable ASCII.
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      out += static_cast<char>(c);
      i++;
      continue;
    }
    size_t width;
    bool ok;
    char32_t r = decode_rune(s, i, width, ok);
    if (!ok) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      i += 1;
      continue;
    }
    i += width;
    if (r == '"' || r == '\\') {
      out += '\\';
      out += static_cast<char>(r);
      continue;
    }
    if (go_is_print(r)) {
      append_utf8(out, r);
      continue;
    }
    switch (r) {
      case '\a': out += "\\a"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\v': out += "\\v"; continue;
    }
    if (r < ' ' || r == 0x7F) {
      out += "\\x";
      out += kHex[(r >> 4) & 15];
      out += kHex[r & 15];
    } else if (r > 0xFFFF) {
      out += "\\U";
      for (int shift = 28; shift >= 0; shift -= 4) out += kHex[(r >> shift) & 15];
    } else {
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(r >> shift) & 15];
    }
  }
  out += '"';
}

std::string go_quote(std::string_view s) {
  std::string out;
  append_go_quoted(out, s);
  return out;
}

}  // namespace gotrace
