// A result shaped as JavaScript receives it: objects (fields in order), arrays, numbers,
// strings, and columns that become typed arrays. The bindings convert it as it is, so
// that what a result holds is decided in the core.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace gotrace {

class Value {
 public:
  using Fields = std::vector<std::pair<std::string, Value>>;
  using Items = std::vector<Value>;
  using Strings = std::vector<std::string>;
  // Columns become Float64Array, Uint8Array, Int32Array and Uint32Array.
  using Data = std::variant<std::monostate, bool, double, std::string, Strings, std::vector<double>,
                            std::vector<uint8_t>, std::vector<int32_t>, std::vector<uint32_t>, Items, Fields>;

  Value() = default;  // null
  Value(bool b) : data_(b) {}
  Value(double d) : data_(d) {}
  Value(std::string s) : data_(std::move(s)) {}
  Value(const char* s) : data_(std::string(s)) {}
  Value(Strings s) : data_(std::move(s)) {}
  Value(std::vector<double> c) : data_(std::move(c)) {}
  Value(std::vector<uint8_t> c) : data_(std::move(c)) {}
  Value(std::vector<int32_t> c) : data_(std::move(c)) {}
  Value(std::vector<uint32_t> c) : data_(std::move(c)) {}
  Value(Items items) : data_(std::move(items)) {}

  static Value object() { return Value(Fields{}); }
  static Value array() { return Value(Items{}); }

  // An object's field, added in order; an array's next item.
  Value& set(std::string key, Value v) {
    std::get<Fields>(data_).emplace_back(std::move(key), std::move(v));
    return *this;
  }
  Value& push(Value v) {
    std::get<Items>(data_).push_back(std::move(v));
    return *this;
  }

  const Data& data() const { return data_; }

 private:
  explicit Value(Fields f) : data_(std::move(f)) {}
  Data data_;
};

// Integers (times, ids, event indices) as a column of doubles: exact below 2^53.
template <class T>
std::vector<double> f64_column(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

// Enum codes as a column of bytes.
template <class E>
std::vector<uint8_t> u8_column(const std::vector<E>& v) {
  std::vector<uint8_t> d(v.size());
  for (size_t i = 0; i < v.size(); i++) d[i] = static_cast<uint8_t>(v[i]);
  return d;
}

}  // namespace gotrace
