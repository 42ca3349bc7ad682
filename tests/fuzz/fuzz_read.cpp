// libFuzzer target: the binary reader (v1 and v2) and everything that prints or
// summarizes what it read. The first input byte picks the header, so the fuzzer spends
// its time in the event encodings rather than rediscovering "go 1.23 trace".
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gotrace/event_format.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"

namespace {

constexpr const char* kHeaders[] = {
    "go 1.5 trace", "go 1.7 trace", "go 1.8 trace",  "go 1.9 trace",  "go 1.10 trace", "go 1.11 trace",
    "go 1.19 trace", "go 1.21 trace", "go 1.22 trace", "go 1.23 trace", "go 1.25 trace", "go 1.26 trace",
};
constexpr size_t kNumHeaders = sizeof kHeaders / sizeof kHeaders[0];

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> input;
  if (size > 0 && data[0] < kNumHeaders) {
    // A selector byte: a canonical header, then the body.
    input.assign(16, 0);
    std::memcpy(input.data(), kHeaders[data[0]], std::strlen(kHeaders[data[0]]));
    input.insert(input.end(), data + 1, data + size);
  } else {
    input.assign(data, data + size);  // a whole file, header included (the seeds)
  }
  gotrace::ReadResult r = gotrace::read_trace(input);
  std::string text;
  for (size_t i = 0; i < r.store.size(); i++) {
    text.clear();
    gotrace::append_go_event_string(text, r.store, i);
  }
  gotrace::stats_json(gotrace::compute_stats(r));
  return 0;
}
