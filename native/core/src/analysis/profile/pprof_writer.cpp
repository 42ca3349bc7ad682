#include "gotrace/analysis/pprof_writer.h"

#include <map>
#include <string>

#include "gotrace/encode/gzip.h"
#include "gotrace/encode/protobuf_writer.h"

namespace gotrace::analysis {
namespace {

// profile.proto field numbers.
namespace field {
constexpr uint32_t kSampleType = 1, kSample = 2, kLocation = 4, kFunction = 5, kStringTable = 6, kPeriodType = 11,
                   kPeriod = 12;
constexpr uint32_t kValueTypeType = 1, kValueTypeUnit = 2;
constexpr uint32_t kSampleLocationId = 1, kSampleValue = 2;
constexpr uint32_t kLocationId = 1, kLocationAddress = 3, kLocationLine = 4;
constexpr uint32_t kLineFunctionId = 1, kLineLine = 2;
constexpr uint32_t kFunctionId = 1, kFunctionName = 2, kFunctionSystemName = 3, kFunctionFilename = 4;
}  // namespace field

// profile.proto's string_table: index 0 is "", messages refer to strings by index.
class StringTable {
 public:
  int64_t id(std::string_view s) {
    auto it = ids_.find(s);
    if (it != ids_.end()) return it->second;
    int64_t id = static_cast<int64_t>(strings_.size());
    strings_.emplace_back(s);
    ids_.emplace(strings_.back(), id);
    return id;
  }
  const std::vector<std::string>& strings() const { return strings_; }

 private:
  std::vector<std::string> strings_{""};
  std::map<std::string, int64_t, std::less<>> ids_{{"", 0}};
};

ProtobufWriter value_type(StringTable& strings, std::string_view type, std::string_view unit) {
  ProtobufWriter m;
  m.int64_field(field::kValueTypeType, strings.id(type));
  m.int64_field(field::kValueTypeUnit, strings.id(unit));
  return m;
}

}  // namespace

std::vector<uint8_t> encode_pprof(const PprofProfile& p) {
  StringTable strings;
  ProtobufWriter out;
  out.message_field(field::kSampleType, value_type(strings, "contentions", "count"));
  out.message_field(field::kSampleType, value_type(strings, "delay", "nanoseconds"));
  for (const PprofSample& s : p.samples) {
    ProtobufWriter m;
    m.packed_uint64_field(field::kSampleLocationId, s.location_ids);
    const int64_t values[2] = {s.count, s.nanoseconds};
    m.packed_int64_field(field::kSampleValue, values);
    out.message_field(field::kSample, m);
  }
  for (const PprofLocation& loc : p.locations) {
    ProtobufWriter line;
    line.varint_field(field::kLineFunctionId, loc.function_id);
    if (loc.line != 0) line.int64_field(field::kLineLine, loc.line);
    ProtobufWriter m;
    m.varint_field(field::kLocationId, loc.id);
    if (loc.address != 0) m.varint_field(field::kLocationAddress, loc.address);
    m.message_field(field::kLocationLine, line);
    out.message_field(field::kLocation, m);
  }
  for (const PprofFunction& fn : p.functions) {
    ProtobufWriter m;
    m.varint_field(field::kFunctionId, fn.id);
    if (int64_t name = strings.id(fn.name)) {
      m.int64_field(field::kFunctionName, name);
      m.int64_field(field::kFunctionSystemName, name);  // Go's BuildProfile: SystemName = Name
    }
    if (int64_t file = strings.id(fn.filename)) m.int64_field(field::kFunctionFilename, file);
    out.message_field(field::kFunction, m);
  }
  ProtobufWriter period_type = value_type(strings, "trace", "count");
  for (const std::string& s : strings.strings()) out.string_field(field::kStringTable, s);
  out.message_field(field::kPeriodType, period_type);
  out.int64_field(field::kPeriod, 1);
  return out.take();
}

std::vector<uint8_t> write_pprof(const PprofProfile& profile) { return gzip(encode_pprof(profile)); }

}  // namespace gotrace::analysis
