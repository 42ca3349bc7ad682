// `gotrace dump --go=1.23` of every v2 corpus trace equals Go 1.23's own dump (go tool trace -d=1),
// compared in the canonical form that tolerates Go's run-to-run order of tied events.
#include <catch2/catch.hpp>

#include "corpus.h"
#include "gotrace/reader.h"

using namespace gotrace;
using namespace gotrace::test;

TEST_CASE("v2 dumps equal Go 1.23's reference dumps", "[v2][corpus]") {
  auto names = corpus_traces({"go122-*", "go123-*"});
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

TEST_CASE("the dump is deterministic", "[v2]") {
  auto bytes = read_bytes(corpus_path("go123-stress.trace"));
  std::string a = dump_text(read_trace(bytes));
  std::string b = dump_text(read_trace(bytes));
  CHECK(a == b);
}
