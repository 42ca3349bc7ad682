#include "json_parse.h"

#include <cmath>
#include <cstdlib>

namespace gotrace::test {

class JsonParser {
 public:
  explicit JsonParser(std::string_view s) : s_(s) {}

  Json document() {
    Json v = value(0);
    ws();
    if (i_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("json: " + why + " at offset " + std::to_string(i_));
  }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) i_++;
  }
  bool eat(char c) {
    ws();
    if (i_ < s_.size() && s_[i_] == c) {
      i_++;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  void literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) fail("bad literal");
    i_ += word.size();
  }

  Json value(int depth) {
    if (depth > 256) fail("too deep");
    ws();
    if (i_ >= s_.size()) fail("unexpected end");
    Json v;
    switch (s_[i_]) {
      case 'n':
        literal("null");
        return v;
      case 't':
        literal("true");
        v.type_ = Json::Type::Bool;
        v.bool_ = true;
        return v;
      case 'f':
        literal("false");
        v.type_ = Json::Type::Bool;
        return v;
      case '"':
        v.type_ = Json::Type::String;
        v.string_ = string();
        return v;
      case '[':
        i_++;
        v.type_ = Json::Type::Array;
        if (eat(']')) return v;
        do v.elements_.push_back(value(depth + 1));
        while (eat(','));
        expect(']');
        return v;
      case '{':
        i_++;
        v.type_ = Json::Type::Object;
        if (eat('}')) return v;
        do {
          ws();
          if (i_ >= s_.size() || s_[i_] != '"') fail("expected a key");
          std::string key = string();
          expect(':');
          v.members_.emplace_back(std::move(key), value(depth + 1));
        } while (eat(','));
        expect('}');
        return v;
      default:
        return number();
    }
  }

  Json number() {
    size_t start = i_;
    bool negative = false;
    if (s_[i_] == '-') {
      negative = true;
      i_++;
    }
    size_t digits = i_;
    uint64_t magnitude = 0;
    bool fits = true;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
      uint64_t d = static_cast<uint64_t>(s_[i_] - '0');
      if (magnitude > (UINT64_MAX - d) / 10) fits = false;
      magnitude = magnitude * 10 + d;
      i_++;
    }
    if (i_ == digits) fail("bad number");
    bool integer = true;
    if (i_ < s_.size() && s_[i_] == '.') {
      integer = false;
      i_++;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') i_++;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      integer = false;
      i_++;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) i_++;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') i_++;
    }
    Json v;
    v.type_ = Json::Type::Number;
    std::string text(s_.substr(start, i_ - start));
    v.number_ = std::strtod(text.c_str(), nullptr);
    v.integer_ = integer && fits && (!negative || magnitude <= uint64_t{1} << 63);
    v.negative_ = negative;
    v.magnitude_ = magnitude;
    return v;
  }

  unsigned hex4() {
    if (i_ + 4 > s_.size()) fail("bad \\u escape");
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
      char c = s_[i_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<unsigned>(c - 'A' + 10);
      else fail("bad \\u escape");
    }
    return v;
  }

  static void utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | cp >> 6);
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | cp >> 12);
      out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | cp >> 18);
      out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
      out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string string() {
    i_++;  // the opening quote
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      char c = s_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated escape");
      switch (char e = s_[i_++]) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(i_, 2) == "\\u") {
            size_t save = i_;
            i_ += 2;
            unsigned lo = hex4();
            if (lo >= 0xDC00 && lo < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else {
              i_ = save;
            }
          }
          utf8(out, cp);
          break;
        }
        default:
          (void)e;
          fail("bad escape");
      }
    }
  }

  std::string_view s_;
  size_t i_ = 0;
};

Json Json::parse(std::string_view text) { return JsonParser(text).document(); }

bool Json::boolean() const {
  if (type_ != Type::Bool) throw std::runtime_error("json: not a boolean");
  return bool_;
}

double Json::number() const {
  if (type_ != Type::Number) throw std::runtime_error("json: not a number");
  return number_;
}

int64_t Json::int64() const {
  if (!is_integer() || (!negative_ && magnitude_ > static_cast<uint64_t>(INT64_MAX)))
    throw std::runtime_error("json: not an int64");
  return negative_ ? static_cast<int64_t>(0 - magnitude_) : static_cast<int64_t>(magnitude_);
}

uint64_t Json::uint64() const {
  if (!is_integer() || (negative_ && magnitude_ != 0)) throw std::runtime_error("json: not a uint64");
  return magnitude_;
}

const std::string& Json::string() const {
  if (type_ != Type::String) throw std::runtime_error("json: not a string");
  return string_;
}

size_t Json::size() const {
  if (type_ == Type::Array) return elements_.size();
  if (type_ == Type::Object) return members_.size();
  throw std::runtime_error("json: not an array or object");
}

const Json& Json::operator[](size_t i) const {
  if (type_ != Type::Array) throw std::runtime_error("json: not an array");
  if (i >= elements_.size()) throw std::runtime_error("json: index out of range");
  return elements_[i];
}

const std::vector<Json>& Json::elements() const {
  if (type_ != Type::Array) throw std::runtime_error("json: not an array");
  return elements_;
}

const std::vector<std::pair<std::string, Json>>& Json::members() const {
  if (type_ != Type::Object) throw std::runtime_error("json: not an object");
  return members_;
}

bool Json::has(std::string_view key) const {
  if (type_ != Type::Object) return false;
  for (auto& [k, v] : members_)
    if (k == key) return true;
  return false;
}

const Json& Json::operator[](std::string_view key) const {
  if (type_ != Type::Object) throw std::runtime_error("json: not an object (looking for " + std::string(key) + ")");
  for (auto& [k, v] : members_)
    if (k == key) return v;
  throw std::runtime_error("json: no member " + std::string(key));
}

}  // namespace gotrace::test
