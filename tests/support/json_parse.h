// A small JSON reader for tests: parses a whole document into a tree (no dependencies).
// Numbers keep their exact integer value when they are integers that fit in 64 bits.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gotrace::test {

class Json {
 public:
  enum class Type { Null, Bool, Number, String, Array, Object };

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::Null; }
  bool is_number() const { return type_ == Type::Number; }
  bool is_string() const { return type_ == Type::String; }
  bool is_array() const { return type_ == Type::Array; }
  bool is_object() const { return type_ == Type::Object; }

  bool boolean() const;
  double number() const;
  // The exact integer (throws unless the number is one that fits in int64 or uint64).
  int64_t int64() const;
  uint64_t uint64() const;
  bool is_integer() const { return type_ == Type::Number && integer_; }
  const std::string& string() const;

  // Arrays.
  size_t size() const;  // elements of an array, members of an object
  const Json& operator[](size_t i) const;
  const Json& operator[](int i) const { return (*this)[static_cast<size_t>(i)]; }  // x[0] is not a key
  const std::vector<Json>& elements() const;

  // Objects: members in document order.
  const std::vector<std::pair<std::string, Json>>& members() const;
  bool has(std::string_view key) const;
  const Json& operator[](std::string_view key) const;  // throws if absent
  const Json& operator[](const char* key) const { return (*this)[std::string_view(key)]; }

  static Json parse(std::string_view text);  // throws std::runtime_error with the offset

 private:
  friend class JsonParser;
  Type type_ = Type::Null;
  bool bool_ = false;
  bool integer_ = false;
  bool negative_ = false;
  uint64_t magnitude_ = 0;  // |value| for integers
  double number_ = 0;
  std::string string_;
  std::vector<Json> elements_;
  std::vector<std::pair<std::string, Json>> members_;
};

}  // namespace gotrace::test
