// Go's reader golden tests (../shared/corpus/golden/*.test): each trace, in Go's text
// format, must reach the expected verdict — SUCCESS, or FAILURE with an error matching
// Go's regular expression — and give what Go 1.27's reader gives: as many events (its
// Syncs included), and an error that begins with Go's.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <regex>

#include "corpus.h"
#include "gotrace/raw_format.h"
#include "gotrace/reader.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

struct Golden {
  std::string expect;  // first line of the expect file
  std::string trace;
};

// A txtar archive with exactly two files: expect, then trace.
Golden parse_txtar(const std::string& text) {
  Golden g;
  std::string* current = nullptr;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    if (line.rfind("-- ", 0) == 0 && line.size() >= 6 && line.compare(line.size() - 3, 3, " --") == 0) {
      std::string name = line.substr(3, line.size() - 6);
      current = name == "expect" ? &g.expect : name == "trace" ? &g.trace : nullptr;
      continue;
    }
    if (current) *current += line + "\n";
  }
  g.expect = g.expect.substr(0, g.expect.find('\n'));
  return g;
}

struct GoResult {
  size_t events;
  std::string error;  // empty when Go read it all
};

// What Go 1.27.4's reader gives on each golden test (`tracetest FILE.test`).
const std::map<std::string, GoResult> kGo127 = {
    {"go122-annotations-stress", {574, ""}},
    {"go122-annotations", {90, ""}},
    {"go122-confuse-seq-across-generations", {15, ""}},
    {"go122-create-syscall-reuse-thread-id", {14, ""}},
    {"go122-create-syscall-with-p", {10, "expected a proc but didn't have one"}},
    {"go122-fail-first-gen-first", {1, "expected a proc but didn't have one"}},
    {"go122-gc-stress", {3834, ""}},
    {"go122-go-create-without-running-g", {6, ""}},
    {"go122-syscall-steal-proc-ambiguous", {11, ""}},
    {"go122-syscall-steal-proc-gen-boundary-bare-m", {7, ""}},
    {"go122-syscall-steal-proc-gen-boundary-reacquire-new-proc-bare-m", {8, ""}},
    {"go122-syscall-steal-proc-gen-boundary-reacquire-new-proc", {10, ""}},
    {"go122-syscall-steal-proc-gen-boundary", {9, ""}},
    {"go122-syscall-steal-proc-reacquire-new-proc-bare-m", {9, ""}},
    {"go122-syscall-steal-proc-reacquire-new-proc", {11, ""}},
    {"go122-syscall-steal-proc-self", {8, ""}},
    {"go122-syscall-steal-proc-simple-bare-m", {7, ""}},
    {"go122-syscall-steal-proc-simple", {9, ""}},
    {"go122-syscall-steal-proc-sitting-in-syscall", {5, ""}},
    {"go122-task-across-generations", {9, ""}},
    {"go123-sync", {6, ""}},
    {"go125-sync", {6, ""}},
};

}  // namespace

TEST_CASE("golden tests reach Go's verdict", "[v2][golden]") {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(golden_dir())) {
    if (e.path().extension() == ".test") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 20);
  for (const auto& path : files) {
    DYNAMIC_SECTION(std::filesystem::path(path).filename().string()) {
      Golden g = parse_txtar(read_text(path));
      ReadResult r = read_go127(text_to_binary(g.trace));
      auto go = kGo127.find(std::filesystem::path(path).stem().string());
      REQUIRE(go != kGo127.end());
      CHECK(r.store.size() == go->second.events);
      if (!go->second.error.empty()) {
        REQUIRE_FALSE(r.ok());
        INFO("ours: " << r.error->what());
        CHECK(std::string(r.error->what()).rfind(go->second.error, 0) == 0);
      }
      if (g.expect == "SUCCESS") {
        INFO((r.error ? r.error->what() : ""));
        CHECK(r.ok());
      } else {
        REQUIRE(g.expect.rfind("FAILURE ", 0) == 0);
        std::string pattern;
        REQUIRE(go_unquote(g.expect.substr(8), pattern));
        REQUIRE_FALSE(r.ok());
        INFO("error: " << r.error->what() << "\npattern: " << pattern);
        CHECK(std::regex_search(std::string(r.error->what()), std::regex(pattern)));
      }
    }
  }
}

TEST_CASE("a golden test lists as Go 1.27 lists it, its leading Sync moving the first event", "[v2][golden][go127]") {
  // Go 1.27.4's listing (tracedump) of go122-syscall-steal-proc-ambiguous: the Sync takes
  // the generation's earliest time, 1, so every event comes 1 ns later than in Go 1.23's.
  Golden g = parse_txtar(read_text(golden_dir() + "/go122-syscall-steal-proc-ambiguous.test"));
  ReadResult r = read_go127(text_to_binary(g.trace));
  REQUIRE(r.ok());
  CHECK(dump_text(r) ==
        "M=-1 P=-1 G=-1 Sync Time=1 N=1\n"
        "M=0 P=-1 G=-1 StateTransition Time=2 ProcID=0 Undetermined->Running Reason=\"\"\n"
        "M=0 P=0 G=-1 StateTransition Time=3 GoID=1 Undetermined->Running Reason=\"\"\n"
        "M=0 P=0 G=1 StateTransition Time=4 GoID=1 Running->Syscall Reason=\"\"\n"
        "M=0 P=0 G=1 StateTransition Time=5 GoID=1 Syscall->Running Reason=\"\"\n"
        "M=0 P=0 G=1 StateTransition Time=6 GoID=1 Running->Syscall Reason=\"\"\n"
        "M=1 P=-1 G=-1 StateTransition Time=7 ProcID=2 Undetermined->Running Reason=\"\"\n"
        "M=1 P=2 G=-1 StateTransition Time=8 GoID=2 Undetermined->Running Reason=\"\"\n"
        "M=1 P=2 G=2 StateTransition Time=9 ProcID=0 Running->Idle Reason=\"\"\n"
        "M=0 P=-1 G=1 StateTransition Time=10 GoID=1 Syscall->Runnable Reason=\"\"\n"
        "M=-1 P=-1 G=-1 Sync Time=11 N=2\n");
  ReadResult old = read_go123(text_to_binary(g.trace));
  CHECK(dump_text(old, GoListing::Go123).rfind("M=0 P=-1 G=-1 StateTransition Time=1 Resource=Proc(0)", 0) == 0);
}
