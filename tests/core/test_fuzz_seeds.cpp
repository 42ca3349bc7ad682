// Go's fuzz seeds for its trace reader: each input gives events or a clean error.
#include <catch2/catch.hpp>

#include <filesystem>

#include "corpus.h"
#include "gotrace/event_format.h"
#include "gotrace/raw_format.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

// Go's fuzz corpus encoding: "go test fuzz v1" then `[]byte("...")`.
std::vector<uint8_t> decode_fuzz_seed(const std::string& text) {
  size_t start = text.find("[]byte(");
  REQUIRE(start != std::string::npos);
  size_t end = text.rfind(')');
  std::string lit = text.substr(start + 7, end - start - 7), bytes;
  REQUIRE(go_unquote(lit, bytes));
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

}  // namespace

TEST_CASE("fuzz seeds give events or a clean error", "[v2][fuzz]") {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(fuzz_dir())) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 10);
  for (const auto& path : files) {
    DYNAMIC_SECTION(std::filesystem::path(path).filename().string()) {
      std::vector<uint8_t> input = decode_fuzz_seed(read_text(path));
      ReadResult r = read_trace(input);
      if (!r.ok()) {
        std::string msg = r.error->what();
        INFO(msg);
        CHECK(!msg.empty());
        CHECK(msg.find('\0') == std::string::npos);
      }
      // Whatever was read can be printed and summarized.
      std::string text;
      for (size_t i = 0; i < r.store.size(); i++) append_go_event_string(text, r.store, i);
      TraceStats st = compute_stats(r);
      CHECK(st.events == r.store.size());
    }
  }
}
