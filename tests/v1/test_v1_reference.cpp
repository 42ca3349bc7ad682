// Old-format traces against Go's own readings of them: `gotrace dump` against Go 1.23's
// `go tool trace -d=1` (1.11–1.21), and `gotrace dump --legacy` against Go 1.21's
// ordered event list (1.5–1.21). Compared in the canonical form that tolerates Go's
// run-to-run order of tied events.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "corpus.h"
#include "gotrace/reader.h"
#include "gotrace/v1_legacy.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

// Every old-format trace of the corpus with a Go 1.21 listing.
const std::vector<std::string> kAllV1 = {"go119-workload", "go121-workload", "*_1_5_*",  "*_1_7_*", "*_1_9_*",
                                         "*_1_10_*",       "*_1_11_*",       "*_1_19_*", "*_1_21_*"};

// The listing's error line says that Go 1.21 rejected the trace; the wording is ours.
std::string without_error_text(std::string listing) {
  size_t at = listing.find("\nerror: ");
  if (at != std::string::npos) {
    size_t end = listing.find('\n', at + 1);
    listing.replace(at + 1, (end == std::string::npos ? listing.size() : end) - at - 1, "error:");
  }
  return listing;
}

struct DumpDigest {
  std::string fnv;
  size_t lines = 0, bytes = 0;
  bool operator==(const DumpDigest&) const = default;
};

DumpDigest digest(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;
  size_t lines = 0;
  for (unsigned char c : text) {
    h = (h ^ c) * 0x100000001b3ull;
    lines += c == '\n';
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return {hex, lines, text.size()};
}

// data/go_insertion_order.txt: Go 1.23's dumps with its Ps scanned in first-batch order.
std::map<std::string, DumpDigest> go_insertion_order_digests() {
  std::ifstream in(std::string(GOTRACE_SOURCE_DIR) + "/tests/v1/data/go_insertion_order.txt");
  std::map<std::string, DumpDigest> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string name;
    DumpDigest d;
    f >> name >> d.fnv >> d.lines >> d.bytes;
    out[name] = d;
  }
  return out;
}

}  // namespace

TEST_CASE("v1 dumps equal Go 1.23's byte for byte, tied events included", "[v1][corpus]") {
  // Go's reader scans the Ps in its map's random order, and that order decides which of
  // two events with equal times comes first (then moves it by 1 ns). We scan them in
  // order of each P's first batch, one of the orders Go's map can give: the digests are
  // those of Go 1.23's dumps made with its Ps scanned in that order.
  auto expected = go_insertion_order_digests();
  auto names = corpus_traces({"go119-workload", "go121-workload", "*_1_11_*", "*_1_19_*", "*_1_21_*"});
  REQUIRE(names.size() == 14);
  REQUIRE(expected.size() == 14);
  for (const auto& name : names) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_go123(read_bytes(corpus_path(name + ".trace")));
      REQUIRE(r.ok());
      std::string ours = dump_text(r, GoListing::Go123);
      REQUIRE(expected.count(name));
      CHECK(digest(ours) == expected[name]);
    }
  }
}

TEST_CASE("v1 dumps equal Go 1.23's reference dumps", "[v1][corpus]") {
  auto names = corpus_traces({"go119-workload", "go121-workload", "*_1_11_*", "*_1_19_*", "*_1_21_*"});
  REQUIRE(names.size() == 14);
  for (const auto& name : names) {
    DYNAMIC_SECTION(name) {
      ReferenceListing go = reference_listing(corpus_path(name + ".trace.go123dump"));
      REQUIRE(go.found);
      ReadResult r = read_go123(read_bytes(corpus_path(name + ".trace")));
      CHECK(r.ok());
      CHECK(canonical_difference(dump_text(r, GoListing::Go123), go) == "");
    }
  }
}

TEST_CASE("legacy listings equal Go 1.21's", "[v1][legacy][corpus]") {
  auto names = corpus_traces(kAllV1);
  REQUIRE(names.size() == 27);
  for (const auto& name : names) {
    DYNAMIC_SECTION(name) {
      auto bytes = read_bytes(corpus_path(name + ".trace"));
      v1::LegacyList list = v1::read_legacy(bytes);
      std::string ours;
      v1::append_legacy_dump(ours, list);
      ReferenceListing go = reference_listing(corpus_path(name + ".trace.v1dump"));
      REQUIRE(go.found);
      if (go.text) {
        CHECK(list.ok() == (go.text->find("\nerror: ") == std::string::npos));
        go.text = without_error_text(*go.text);
      } else {
        CHECK(list.ok() == (go.exit_code == 0));  // hashes are kept for listings without an error only
      }
      CHECK(canonical_difference(without_error_text(ours), go) == "");
    }
  }
}

TEST_CASE("the legacy listing reports Go's broken-clock error", "[v1][legacy]") {
  auto bytes = read_bytes(corpus_path("stress_1_5_unordered.trace"));
  v1::LegacyList list = v1::read_legacy(bytes);
  REQUIRE_FALSE(list.ok());
  CHECK(list.version() == 0);
  CHECK(list.size() == 0);
  CHECK(list.error()->message() == "time stamps out of order");
  std::string text;
  v1::append_legacy_dump(text, list);
  CHECK(text == "version 0\nerror: time stamps out of order\n");

  ReadResult r = read_trace(bytes);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message() == "time stamps out of order");
  CHECK(r.store.size() == 0);
}

TEST_CASE("the legacy listing's lines and events agree", "[v1][legacy]") {
  auto bytes = read_bytes(corpus_path("user_task_region_1_11_good.trace"));
  v1::LegacyList list = v1::read_legacy(bytes);
  REQUIRE(list.ok());
  CHECK(list.version() == 1011);
  REQUIRE(list.size() == 37);
  // 78361 UserLog p=0 g=7 off=201 id=1 keyid=7 category=key0 message=0123456789abcdef stk=16
  bool found = false;
  for (size_t i = 0; i < list.size(); i++) {
    v1::LegacyEvent ev = list.event(i);
    if (ev.name != "UserLog") continue;
    found = true;
    CHECK(ev.ts == 78361);
    CHECK(ev.p == 0);
    CHECK(ev.g == 7);
    CHECK(ev.off == 201);
    CHECK(ev.stack == 16);
    std::string line;
    list.append_line(line, i);
    CHECK(line == "78361 UserLog p=0 g=7 off=201 id=1 keyid=7 category=key0 message=0123456789abcdef stk=16");
  }
  CHECK(found);
}

TEST_CASE("dump --legacy prints the listing", "[v1][legacy][cli]") {
  std::string out;
  int rc = run_command(cli_path() + " dump --legacy " + corpus_path("http_1_7_good.trace"), &out);
  CHECK(rc == 0);
  CHECK(out == read_zstd(corpus_path("http_1_7_good.trace.v1dump.zst")));
  out.clear();
  rc = run_command(cli_path() + " dump --legacy " + corpus_path("stress_1_5_unordered.trace"), &out);
  CHECK(rc == 1);
  CHECK(out == "version 0\nerror: time stamps out of order\n");
  out.clear();
  rc = run_command(cli_path() + " dump --legacy " + corpus_path("go123-stress-start-stop.trace"), &out);
  CHECK(rc == 1);
  CHECK(out.rfind("version 0\nerror: unsupported trace file version 1.23", 0) == 0);
}
