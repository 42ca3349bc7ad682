// Thrift's compact protocol, the little of it Parquet's metadata (page headers, the
// footer) needs: structs of integer, string, list and struct fields, written in
// increasing field order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "varint.h"

namespace gotrace::analysis::detail {

class ThriftWriter {
 public:
  enum Type : uint8_t { I16 = 4, I32 = 5, I64 = 6, Binary = 8, List = 9, Struct = 12 };

  explicit ThriftWriter(std::string& out) : out_(out) { last_.push_back(0); }

  void i32(int16_t id, int32_t v) {
    field(id, I32);
    varint(zigzag(v));
  }
  void i16(int16_t id, int16_t v) {
    field(id, I16);
    varint(zigzag(v));
  }
  void i64(int16_t id, int64_t v) {
    field(id, I64);
    varint(zigzag(v));
  }
  void binary(int16_t id, std::string_view s) {
    field(id, Binary);
    string(s);
  }
  // A struct field: its fields follow, then end().
  void begin(int16_t id) {
    field(id, Struct);
    last_.push_back(0);
  }
  // A list field of `size` elements of `type`: then list_i32/list_binary per element, or
  // element()...end() per struct element.
  void list(int16_t id, Type type, size_t size) {
    field(id, List);
    if (size < 15) {
      out_.push_back(static_cast<char>((size << 4) | type));
    } else {
      out_.push_back(static_cast<char>(0xF0 | type));
      varint(size);
    }
  }
  void list_i32(int32_t v) { varint(zigzag(v)); }
  void list_binary(std::string_view s) { string(s); }
  void element() { last_.push_back(0); }  // a struct element of a list
  // Ends the innermost struct (or the outermost, the message itself).
  void end() {
    out_.push_back(0);
    last_.pop_back();
  }

 private:
  void varint(uint64_t v) { write_uvarint(out_, v); }
  void string(std::string_view s) {
    varint(s.size());
    out_.append(s);
  }
  void field(int16_t id, Type type) {
    const int delta = id - last_.back();
    if (delta > 0 && delta <= 15) {
      out_.push_back(static_cast<char>((delta << 4) | type));
    } else {
      out_.push_back(static_cast<char>(type));
      varint(zigzag(id));
    }
    last_.back() = id;
  }

  std::string& out_;
  std::vector<int16_t> last_;  // the last field id of each open struct
};

}  // namespace gotrace::analysis::detail
