// libFuzzer target: the binary reader (v1 and v2) and everything that prints or
// summarizes what it read. The first input byte may pick the header (header_selector.h).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gotrace/event_format.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"
#include "header_selector.h"

namespace {

constexpr const char* kHeaders[] = {
    "go 1.5 trace", "go 1.7 trace", "go 1.8 trace",  "go 1.9 trace",  "go 1.10 trace", "go 1.11 trace",
    "go 1.19 trace", "go 1.21 trace", "go 1.22 trace", "go 1.23 trace", "go 1.25 trace", "go 1.26 trace",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gotrace::ReadResult r = gotrace::read_trace(gotrace::fuzz::with_selected_header(data, size, kHeaders));
  std::string text;
  for (size_t i = 0; i < r.store.size(); i++) {
    text.clear();
    gotrace::append_go_event_string(text, r.store, i);
  }
  gotrace::stats_json(gotrace::compute_stats(r));
  return 0;
}
