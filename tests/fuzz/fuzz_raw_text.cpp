// libFuzzer target: Go's raw text trace format (as in golden tests) into the binary
// format and through the reader.
#include <cstdint>
#include <string_view>

#include "gotrace/error.h"
#include "gotrace/raw_format.h"
#include "gotrace/reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    std::vector<uint8_t> bytes = gotrace::text_to_binary(text);
    gotrace::ReadResult r = gotrace::read_trace(bytes);
    // Whatever converted must convert back to the same binary.
    std::string again = gotrace::binary_to_text(bytes);
    if (gotrace::text_to_binary(again) != bytes) __builtin_trap();
  } catch (const gotrace::TraceError&) {
  }
  return 0;
}
