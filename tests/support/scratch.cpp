#include "scratch.h"

#include <stdlib.h>

#include <filesystem>
#include <mutex>
#include <stdexcept>

namespace gotrace::test {

namespace {

struct Scratch {
  std::mutex mu;
  std::string dir;
  bool keep = false;
  ~Scratch() {
    std::error_code ignored;
    if (!dir.empty() && !keep) std::filesystem::remove_all(dir, ignored);
  }
};

Scratch& scratch() {
  static Scratch s;
  return s;
}

}  // namespace

std::string scratch_path(const std::string& name) {
  Scratch& s = scratch();
  std::lock_guard lock(s.mu);
  if (s.dir.empty()) {
    std::string pattern = (std::filesystem::temp_directory_path() / "gotrace-test-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot make a directory like " + pattern);
    s.dir = pattern;
  }
  return (std::filesystem::path(s.dir) / name).string();
}

void keep_scratch() {
  std::lock_guard lock(scratch().mu);
  scratch().keep = true;
}

}  // namespace gotrace::test
