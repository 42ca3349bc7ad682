// Go's reader golden tests (../shared/corpus/golden/*.test): each trace, in Go's text
// format, must reach the expected verdict — SUCCESS, or FAILURE with an error matching
// Go's regular expression.
#include <catch2/catch.hpp>

#include <filesystem>
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
      ReadResult r = read_trace(text_to_binary(g.trace));
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
