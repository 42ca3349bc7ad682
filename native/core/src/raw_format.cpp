#include "gotrace/raw_format.h"

#include <charconv>

#include "byte_reader.h"
#include "gotrace/error.h"
#include "gotrace/go_quote.h"
#include "gotrace/reader.h"
#include "gotrace/v2_spec.h"
#include "strings_util.h"
#include "varint.h"

namespace gotrace {
using namespace v2;

namespace {

constexpr std::string_view kFrameFields[4] = {"pc", "func", "file", "line"};

bool valid_raw_type(uint8_t t, int minor) {
  if (t == 0 || t >= kGo123TableSize) return false;
  const EventSpec& sp = spec(t);
  return sp.valid() && (sp.since <= 23 || minor >= sp.since);
}

[[noreturn]] void fail_at(std::string msg, uint64_t offset) {
  ErrorLocation where;
  where.offset = offset;
  throw TraceError(std::move(msg), where);
}

// ---- text tokens (Go's unicode.IsSpace and raw.readToken) --------------------------

bool is_go_space(std::string_view s, size_t i, size_t& width) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  width = 1;
  if (c < 0x80) return c == ' ' || (c >= '\t' && c <= '\r');
  char32_t r = 0;
  if ((c & 0xE0) == 0xC0 && i + 1 < s.size()) {
    r = char32_t(c & 0x1F) << 6 | (s[i + 1] & 0x3F);
    width = 2;
  } else if ((c & 0xF0) == 0xE0 && i + 2 < s.size()) {
    r = char32_t(c & 0x0F) << 12 | char32_t(s[i + 1] & 0x3F) << 6 | (s[i + 2] & 0x3F);
    width = 3;
  } else {
    return false;
  }
  bool space = r == 0x85 || r == 0xA0 || r == 0x1680 || (r >= 0x2000 && r <= 0x200A) || r == 0x2028 || r == 0x2029 ||
               r == 0x202F || r == 0x205F || r == 0x3000;
  if (!space) width = 1;
  return space;
}

// Splits off the next token; a '#' ends the line's tokens.
std::string_view read_token(std::string_view s, std::string_view& rest) {
  size_t i = 0, w;
  while (i < s.size()) {
    if (s[i] == '#') {
      rest = {};
      return {};
    }
    if (!is_go_space(s, i, w)) break;
    i += w;
  }
  if (i >= s.size()) {
    rest = {};
    return {};
  }
  size_t start = i;
  while (i < s.size() && s[i] != '#' && !is_go_space(s, i, w)) i++;
  rest = s.substr(i);
  return s.substr(start, i - start);
}

bool only_space(std::string_view s) {
  size_t w;
  for (size_t i = 0; i < s.size(); i += w) {
    if (!is_go_space(s, i, w)) return false;
  }
  return true;
}

class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {}
  // The next line with a token on it (blank lines and comments are skipped).
  bool next(std::string_view& line) {
    while (pos_ < text_.size()) {
      size_t nl = text_.find('\n', pos_);
      size_t end = nl == std::string_view::npos ? text_.size() : nl;
      line = text_.substr(pos_, end - pos_);
      pos_ = nl == std::string_view::npos ? text_.size() : nl + 1;
      number_++;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.size() >= 64 * 1024) fail("bufio.Scanner: token too long");
      std::string_view rest;
      if (!read_token(line, rest).empty()) return true;
    }
    return false;
  }
  [[noreturn]] void fail(const std::string& msg) const { throw TraceError(fmt("line %zu: %s", number_, msg.c_str())); }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  size_t number_ = 0;
};

void read_args(const Lines& lines, std::string_view s, const std::string_view* names, int n, std::vector<uint64_t>& out) {
  for (int i = 0; i < n; i++) {
    std::string_view rest;
    std::string_view tok = read_token(s, rest);
    if (tok.empty()) lines.fail("no argument");
    size_t eq = tok.find('=');
    if (eq == std::string_view::npos) lines.fail(fmt("malformed argument: %s", go_quote(tok).c_str()));
    std::string_view arg = tok.substr(0, eq), val = tok.substr(eq + 1);
    uint64_t v = 0;
    auto r = std::from_chars(val.data(), val.data() + val.size(), v, 10);
    if (val.empty() || r.ec != std::errc() || r.ptr != val.data() + val.size()) {
      lines.fail(fmt("failed to parse argument value %s for arg %s", go_quote(val).c_str(), go_quote(arg).c_str()));
    }
    if (arg != names[i]) {
      lines.fail(fmt("expected argument %s, but got %s", go_quote(names[i]).c_str(), go_quote(arg).c_str()));
    }
    out.push_back(v);
    s = rest;
  }
  if (!only_space(s)) lines.fail(fmt("encountered unexpected non-space at the end of an event: %s", go_quote(s).c_str()));
}

int parse_minor(std::string_view v, bool& ok) {
  int minor = 0;
  auto r = std::from_chars(v.data(), v.data() + v.size(), minor, 10);
  ok = !v.empty() && r.ec == std::errc() && r.ptr == v.data() + v.size();
  return minor;
}

}  // namespace

// ---- binary -------------------------------------------------------------------

int decode_raw_binary(std::span<const uint8_t> bytes, const RawEventSink& sink) {
  int minor = parse_header(bytes).go_minor;
  if (minor < 22) throw TraceError(fmt("the raw format is defined for Go 1.22+ traces, not Go 1.%d", minor));
  ByteReader r(bytes.data() + 16, bytes.data() + bytes.size(), 16);
  RawEvent ev;
  while (!r.at_end()) {
    uint64_t at = r.offset();
    uint8_t t;
    r.read_byte(t);
    if (!valid_raw_type(t, minor)) fail_at(fmt("invalid event type: %d", t), at);
    const EventSpec& sp = spec(t);
    ev.type = t;
    ev.args.clear();
    ev.data.clear();
    ev.has_data = sp.has_data;
    auto read = [&](uint64_t& v) {
      if (const char* err = r.read_uvarint(v)) fail_at(fmt("reading %s: %s", std::string(sp.name).c_str(), err), r.offset());
    };
    for (int i = 0; i < sp.nargs; i++) {
      uint64_t v;
      read(v);
      ev.args.push_back(v);
    }
    if (sp.is_stack) {
      uint64_t n = ev.args[1];
      // Each frame takes at least 4 bytes: a count the input cannot hold is an error.
      if (n > r.remaining() / 4) fail_at(fmt("stack with %llu frames exceeds the input", (unsigned long long)n), at);
      for (uint64_t i = 0; i < 4 * n; i++) {
        uint64_t v;
        read(v);
        ev.args.push_back(v);
      }
    }
    if (sp.has_data) {
      uint64_t len;
      read(len);
      if (len > r.remaining()) fail_at(fmt("data of %llu bytes exceeds the input", (unsigned long long)len), r.offset());
      ev.data.assign(reinterpret_cast<const char*>(r.pos()), len);
      r.skip(len);
    }
    sink(ev);
  }
  return minor;
}

std::vector<uint8_t> raw_binary_header(int go_minor) {
  std::string h = fmt("go 1.%d trace", go_minor);
  std::vector<uint8_t> out(h.begin(), h.end());
  out.resize(16, 0);
  return out;
}

void append_raw_binary(std::vector<uint8_t>& out, const RawEvent& ev) {
  out.push_back(ev.type);
  for (uint64_t a : ev.args) write_uvarint(out, a);
  if (spec(ev.type).has_data) {
    write_uvarint(out, ev.data.size());
    out.insert(out.end(), ev.data.begin(), ev.data.end());
  }
}

// ---- text ---------------------------------------------------------------------

std::string raw_text_header(int go_minor) { return fmt("Trace Go1.%d\n", go_minor); }

void append_raw_text(std::string& out, const RawEvent& ev) {
  const EventSpec& sp = spec(ev.type);
  out += sp.name;
  char buf[24];
  size_t nargs = std::min<size_t>(sp.nargs, ev.args.size());
  for (size_t i = 0; i < nargs; i++) {
    out += ' ';
    out += sp.args[i];
    out += '=';
    out.append(buf, std::to_chars(buf, buf + sizeof buf, ev.args[i]).ptr);
  }
  if (sp.is_stack) {
    for (size_t i = sp.nargs; i < ev.args.size(); i++) {
      size_t k = (i - sp.nargs) % 4;
      out += k == 0 ? "\n\t" : " ";
      out += kFrameFields[k];
      out += '=';
      out.append(buf, std::to_chars(buf, buf + sizeof buf, ev.args[i]).ptr);
    }
  }
  if (ev.has_data) {
    out += "\n\tdata=";
    append_go_quoted(out, ev.data);
  }
  out += '\n';
}

int parse_raw_text(std::string_view text, const RawEventSink& sink) {
  Lines lines(text);
  std::string_view line, rest;
  if (!lines.next(line)) throw TraceError("failed to parse header: empty input");
  if (read_token(line, rest) != "Trace") lines.fail("failed to parse header");
  std::string_view gover = read_token(rest, rest);
  if (gover.substr(0, 4) != "Go1.") lines.fail("failed to parse header Go version");
  bool ok;
  int minor = parse_minor(gover.substr(4), ok);
  if (!ok) lines.fail("failed to parse header Go version");
  if (minor != 22 && minor != 23 && minor != 25 && minor != 26) {
    lines.fail(fmt("unknown or unsupported Go version 1.%d", minor));
  }
  if (!only_space(rest)) {
    lines.fail(fmt("encountered unexpected non-space at the end of the header: %s", go_quote(rest).c_str()));
  }
  RawEvent ev;
  while (lines.next(line)) {
    std::string_view name = read_token(line, rest);
    uint8_t t;
    if (!type_by_name(name, t) || !valid_raw_type(t, minor)) {
      lines.fail(fmt("unidentified event: %s", std::string(name).c_str()));
    }
    const EventSpec& sp = spec(t);
    ev.type = t;
    ev.args.clear();
    ev.data.clear();
    ev.has_data = sp.has_data;
    read_args(lines, rest, sp.args.data(), sp.nargs, ev.args);
    if (sp.is_stack) {
      uint64_t n = ev.args[1];
      for (uint64_t i = 0; i < n; i++) {
        if (!lines.next(line)) lines.fail("unexpected EOF while reading stack");
        read_args(lines, line, kFrameFields, 4, ev.args);
      }
    }
    if (sp.has_data) {
      if (!lines.next(line)) lines.fail(fmt("unexpected EOF while reading data for %s", std::string(name).c_str()));
      size_t eq = line.find('=');
      std::string_view key = eq == std::string_view::npos ? line : line.substr(0, eq);
      while (!key.empty() && (key.front() == ' ' || key.front() == '\t')) key.remove_prefix(1);
      while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.remove_suffix(1);
      if (eq == std::string_view::npos || key != "data") lines.fail(fmt("malformed data: %s", go_quote(line).c_str()));
      std::string_view lit = line.substr(eq + 1);
      size_t w;
      while (!lit.empty() && is_go_space(lit, 0, w)) lit.remove_prefix(w);
      while (!lit.empty() && (lit.back() == ' ' || lit.back() == '\t' || lit.back() == '\r')) lit.remove_suffix(1);
      if (!go_unquote(lit, ev.data)) lines.fail(fmt("failed to parse data: %s: invalid syntax", go_quote(line).c_str()));
    }
    sink(ev);
  }
  return minor;
}

std::string binary_to_text(std::span<const uint8_t> bytes) {
  std::string out;
  int minor = decode_raw_binary(bytes, [&](const RawEvent& ev) { append_raw_text(out, ev); });
  return raw_text_header(minor) + out;
}

std::vector<uint8_t> text_to_binary(std::string_view text) {
  std::vector<uint8_t> body;
  int minor = parse_raw_text(text, [&](const RawEvent& ev) { append_raw_binary(body, ev); });
  std::vector<uint8_t> out = raw_binary_header(minor);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

// ---- Go string literals ---------------------------------------------------------

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool go_unquote(std::string_view in, std::string& out) {
  out.clear();
  if (in.size() < 2) return false;
  char q = in.front();
  if (q != in.back()) return false;
  std::string_view body = in.substr(1, in.size() - 2);
  if (q == '`') {
    if (body.find('`') != std::string_view::npos) return false;
    for (char c : body)
      if (c != '\r') out += c;  // Go drops carriage returns from raw strings
    return true;
  }
  if (q != '"' && q != '\'') return false;
  for (size_t i = 0; i < body.size();) {
    char c = body[i];
    if (c == q || c == '\n') return false;
    if (c != '\\') {
      out += c;
      i++;
      continue;
    }
    if (++i >= body.size()) return false;
    char e = body[i++];
    switch (e) {
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '\\': out += '\\'; break;
      case '\'':
      case '"':
        if (e != q) return false;
        out += e;
        break;
      case 'x': {
        if (i + 2 > body.size()) return false;
        int h = hex_value(body[i]), l = hex_value(body[i + 1]);
        if (h < 0 || l < 0) return false;
        out += static_cast<char>(h * 16 + l);
        i += 2;
        break;
      }
      case 'u':
      case 'U': {
        size_t n = e == 'u' ? 4 : 8;
        if (i + n > body.size()) return false;
        char32_t r = 0;
        for (size_t k = 0; k < n; k++) {
          int v = hex_value(body[i + k]);
          if (v < 0) return false;
          r = r * 16 + static_cast<char32_t>(v);
        }
        if (r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) return false;
        append_utf8(out, r);
        i += n;
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          if (i + 2 > body.size()) return false;
          int v = e - '0';
          for (int k = 0; k < 2; k++) {
            char d = body[i + k];
            if (d < '0' || d > '7') return false;
            v = v * 8 + (d - '0');
          }
          if (v > 255) return false;
          out += static_cast<char>(v);
          i += 2;
          break;
        }
        return false;
    }
  }
  // A character literal holds exactly one rune.
  if (q == '\'') {
    size_t n = out.size();
    if (n == 0 || n > 4) return false;
  }
  return true;
}

}  // namespace gotrace
