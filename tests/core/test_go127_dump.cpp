// `gotrace dump` against Go 1.27's `go tool trace -d=parsed` on every corpus trace:
// the traces of Go 1.24 and 1.27 (corpus/newest, NAME.trace.godump.*) and every older
// one (corpus/go, NAME.trace.go127dump.*), compared in the canonical form that
// tolerates Go's run-to-run order of tied events. Go's listing is its standard output;
// where Go failed, its error is in the .err file beside it, and ours must begin with it.
#include <catch2/catch.hpp>

#include <filesystem>

#include "corpus.h"
#include "gotrace/event_format.h"
#include "gotrace/reader.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// Go 1.27 reads Go 1.11 traces and later; gotrace converts the older ones too, so
// Go's refusal of those is no listing to compare.
bool go_refuses_version(const std::string& go_error) {
  for (int minor = 5; minor <= 10; minor++) {
    if (go_error == "unknown or unsupported trace version go 1." + std::to_string(minor)) return true;
  }
  return false;
}

void check_against_go127(const std::string& trace, const std::string& reference_base) {
  // Where the corpus has both, the hash: go123-stacks.trace.go127dump.zst holds Go 1.23's
  // listing, not Go 1.27's (its hash is Go 1.27's, as `tracedump` prints it again).
  ReferenceListing go = reference_hash(reference_base);
  if (!go.found) go = reference_listing(reference_base);
  const std::string err_path = reference_base + ".err";
  const std::string go_error = file_exists(err_path) ? first_line(read_text(err_path)) : "";
  if (go_refuses_version(go_error)) return;
  REQUIRE(go.found);
  ReadResult r = read_go127(read_bytes(trace));
  std::string ours;
  for (size_t i = 0; i < r.store.size(); i++) {
    append_go_event_string(ours, r.store, i, GoListing::Go127);
    ours += '\n';
  }
  CHECK(canonical_difference(ours, go) == "");
  if (go_error.empty()) {
    INFO((r.error ? r.error->what() : ""));
    CHECK(r.ok());
  } else {
    REQUIRE_FALSE(r.ok());
    INFO("ours: " << r.error->what() << "\nGo's: " << go_error);
    CHECK(std::string(r.error->what()).rfind(go_error, 0) == 0);
  }
}

}  // namespace

TEST_CASE("dumps of Go 1.24 and 1.27 traces equal Go 1.27's listings", "[v2][corpus][go127]") {
  auto traces = every_trace_path("newest");
  REQUIRE(traces.size() >= 40);
  for (const auto& trace : traces) {
    DYNAMIC_SECTION(std::filesystem::path(trace).filename().string()) { check_against_go127(trace, trace + ".godump"); }
  }
}

TEST_CASE("dumps of older traces equal Go 1.27's listings", "[v1][v2][corpus][go127]") {
  auto traces = every_trace_path("go");
  REQUIRE(traces.size() >= 40);
  for (const auto& trace : traces) {
    DYNAMIC_SECTION(std::filesystem::path(trace).filename().string()) {
      check_against_go127(trace, trace + ".go127dump");
    }
  }
}

TEST_CASE("dump prints Go 1.27's listing, and Go 1.23's with --go=1.23", "[v2][cli][go127]") {
  const std::string trace = newest_path("go127-annotations.default.trace");
  std::string out;
  CHECK(run_command(cli_path() + " dump " + trace, &out) == 0);
  CHECK(canonical_difference(out, reference_listing(trace + ".godump")) == "");
  CHECK(out.rfind("M=-1 P=-1 G=-1 Sync Time=468193127488 N=1 Trace=468193138432 Mono=468193138453 "
                  "Wall=2026-11-27T04:11:05.996086443Z\n",
                  0) == 0);
  out.clear();
  const std::string old = corpus_path("go123-annotations.trace");
  CHECK(run_command(cli_path() + " dump --go=1.23 " + old, &out) == 0);
  CHECK(canonical_difference(out, reference_listing(old + ".go123dump")) == "");
  CHECK(run_command(cli_path() + " dump --go=1.22 " + old + " 2>/dev/null") != 0);
}
