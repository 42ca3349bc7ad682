#include "gotrace/encode/protobuf_writer.h"

namespace gotrace::analysis {
namespace {

constexpr uint32_t kVarint = 0, kLengthDelimited = 2;

size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    n++;
  }
  return n;
}

}  // namespace

void ProtobufWriter::varint(uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<uint8_t>(v));
}

void ProtobufWriter::varint_field(uint32_t field, uint64_t v) {
  tag(field, kVarint);
  varint(v);
}

void ProtobufWriter::bytes_field(uint32_t field, std::span<const uint8_t> data) {
  tag(field, kLengthDelimited);
  varint(data.size());
  out_.insert(out_.end(), data.begin(), data.end());
}

void ProtobufWriter::string_field(uint32_t field, std::string_view s) {
  bytes_field(field, {reinterpret_cast<const uint8_t*>(s.data()), s.size()});
}

void ProtobufWriter::packed_uint64_field(uint32_t field, std::span<const uint64_t> values) {
  if (values.empty()) return;
  size_t len = 0;
  for (uint64_t v : values) len += varint_size(v);
  tag(field, kLengthDelimited);
  varint(len);
  for (uint64_t v : values) varint(v);
}

void ProtobufWriter::packed_int64_field(uint32_t field, std::span<const int64_t> values) {
  if (values.empty()) return;
  size_t len = 0;
  for (int64_t v : values) len += varint_size(static_cast<uint64_t>(v));
  tag(field, kLengthDelimited);
  varint(len);
  for (int64_t v : values) varint(static_cast<uint64_t>(v));
}

}  // namespace gotrace::analysis
