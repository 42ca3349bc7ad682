// The fuzz targets' input: a first byte below the number of headers picks a canonical
// header (padded to 16 bytes) and the rest is the body, so that the fuzzer spends its
// time in the event encodings rather than rediscovering "go 1.23 trace"; any other input
// is a whole file, header included (the seeds).
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace gotrace::fuzz {

inline std::vector<uint8_t> with_selected_header(const uint8_t* data, size_t size,
                                                 std::span<const char* const> headers) {
  std::vector<uint8_t> input;
  if (size > 0 && data[0] < headers.size()) {
    input.assign(16, 0);
    std::memcpy(input.data(), headers[data[0]], std::strlen(headers[data[0]]));
    input.insert(input.end(), data + 1, data + size);
  } else {
    input.assign(data, data + size);
  }
  return input;
}

}  // namespace gotrace::fuzz
