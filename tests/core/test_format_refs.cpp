// The sources cite docs/FORMAT.md by section ("FORMAT.md §2.11", "§2.9 of FORMAT.md"):
// every section cited is one the document has.
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "corpus.h"

namespace fs = std::filesystem;
using namespace gotrace::test;

TEST_CASE("every FORMAT.md section the tree cites is in docs/FORMAT.md", "[docs]") {
  const fs::path root = GOTRACE_SOURCE_DIR;
  std::set<std::string> sections;
  const std::regex heading(R"(^#+ (\d+(?:\.\d+)*)\.? )");
  std::string doc = read_text((root / "docs" / "FORMAT.md").string());
  for (size_t at = 0; at < doc.size();) {
    size_t end = doc.find('\n', at);
    if (end == std::string::npos) end = doc.size();
    std::smatch m;
    const std::string line = doc.substr(at, end - at);
    if (std::regex_search(line, m, heading)) sections.insert(m[1]);
    at = end + 1;
  }
  REQUIRE(sections.count("2.11") == 1);

  const std::regex cite(R"(FORMAT\.md §(\d+(?:\.\d+)*)|§(\d+(?:\.\d+)*) of FORMAT\.md)");
  const std::set<std::string> kinds = {".cpp", ".h", ".js", ".jsx", ".mjs", ".ts", ".md", ".sh", ".py", ".txt"};
  size_t cited = 0;
  for (const char* dir : {"native", "wasm-bindings", "web/src", "tests", "docs", "scripts", "tools"}) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
      const fs::path& p = entry.path();
      if (!entry.is_regular_file() || !kinds.count(p.extension().string())) continue;
      if (p.string().find("/corpus/") != std::string::npos || p.string().find("node_modules") != std::string::npos)
        continue;
      const std::string text = read_text(p.string());
      for (std::sregex_iterator it(text.begin(), text.end(), cite), last; it != last; ++it) {
        const std::string section = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
        cited++;
        INFO(p.string() << " cites FORMAT.md §" << section);
        CHECK(sections.count(section) == 1);
      }
    }
  }
  CHECK(cited > 30);  // the sources do cite it: the walk found them
}
