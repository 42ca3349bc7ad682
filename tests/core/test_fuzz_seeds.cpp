// Go's fuzz seeds for its trace reader: each input gives events or a clean error, and
// what Go 1.27's reader gives: as many events (its Syncs included), and an error that
// begins with Go's.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

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

struct GoResult {
  size_t events;
  std::string error;  // empty when Go read it all
};

// What Go 1.27.4's reader gives on each seed (`tracedump SEED`: events, error).
const std::map<std::string, GoResult> kGo127 = {
    {"0cb1786dee0f090b", {1, "expected frequency or clock snapshot event, got 48"}},
    {"1e45307d5b2ec36d", {1, "expected frequency or clock snapshot event, got 48"}},
    {"2b05796f9b2fc48d", {1, "expected frequency or clock snapshot event, got 48"}},
    {"2b9be9aebe08d511", {1, "expected frequency or clock snapshot event, got 48"}},
    {"344331b314da0b08", {1, "expected frequency or clock snapshot event, got 48"}},
    {"365d7b5b633b3f97", {1, "expected frequency or clock snapshot event, got 48"}},
    {"4055b17cae1a3443", {1, "unexpected event type 36"}},
    {"4d9ddc909984e871", {1, "expected frequency or clock snapshot event, got 48"}},
    {"56f073e57903588c", {1, "expected frequency or clock snapshot event, got 48"}},
    {"9d6ee7d3ddf8d566", {1, "expected frequency or clock snapshot event, got 48"}},
    {"aeb749b6bc317b66", {1, "expected frequency or clock snapshot event, got 48"}},
    {"closing-unknown-region", {5, ""}},
    {"d478e18d2d6756b7", {1, "expected frequency or clock snapshot event, got 48"}},
    {"d91203cd397aa0bc", {1, "expected frequency or clock snapshot event, got 48"}},
    {"invalid-proc-state", {1, "invalid status for proc 0: 69"}},
    {"large-id", {2, ""}},
    {"malformed-timestamp", {0, "found invalid uvarint for timestamp"}},
};

}  // namespace

TEST_CASE("fuzz seeds give events or a clean error", "[v2][fuzz]") {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(fuzz_dir())) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 10);
  for (const auto& path : files) {
    DYNAMIC_SECTION(std::filesystem::path(path).filename().string()) {
      std::vector<uint8_t> input = decode_fuzz_seed(read_text(path));
      ReadResult r = read_go127(input);
      auto go = kGo127.find(std::filesystem::path(path).filename().string());
      REQUIRE(go != kGo127.end());
      CHECK(r.store.size() == go->second.events);
      if (go->second.error.empty()) {
        INFO((r.error ? r.error->what() : ""));
        CHECK(r.ok());
      } else {
        REQUIRE_FALSE(r.ok());
        INFO("ours: " << r.error->what());
        CHECK(std::string(r.error->what()).rfind(go->second.error, 0) == 0);
      }
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
