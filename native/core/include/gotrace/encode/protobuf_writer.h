// The few pieces of the protocol buffers wire format that writing profile.proto needs:
// varints, tags, length-delimited fields and packed repeated integers.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace gotrace::analysis {

class ProtobufWriter {
 public:
  const std::vector<uint8_t>& bytes() const { return out_; }
  std::vector<uint8_t> take() { return std::move(out_); }

  // Scalars are written even when zero: callers skip defaults where the schema allows.
  void varint_field(uint32_t field, uint64_t v);
  void int64_field(uint32_t field, int64_t v) { varint_field(field, static_cast<uint64_t>(v)); }
  void bool_field(uint32_t field, bool v) { varint_field(field, v ? 1 : 0); }
  void bytes_field(uint32_t field, std::span<const uint8_t> data);
  void string_field(uint32_t field, std::string_view s);
  void message_field(uint32_t field, const ProtobufWriter& message) { bytes_field(field, message.bytes()); }
  void packed_uint64_field(uint32_t field, std::span<const uint64_t> values);
  void packed_int64_field(uint32_t field, std::span<const int64_t> values);

 private:
  void varint(uint64_t v);
  void tag(uint32_t field, uint32_t wire_type) { varint(uint64_t{field} << 3 | wire_type); }
  std::vector<uint8_t> out_;
};

}  // namespace gotrace::analysis
