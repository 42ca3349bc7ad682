#include "scratch.h"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>
#include <stdexcept>

namespace gotrace::test {

namespace {

struct Scratch {
  std::mutex mu;
  std::string dir;
  pid_t owner = 0;  // the process that made it: a forked child's exit leaves it alone
  bool keep = false;
  ~Scratch() {
    std::error_code ignored;
    if (!dir.empty() && !keep && getpid() == owner) std::filesystem::remove_all(dir, ignored);
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
    s.owner = getpid();
  }
  return (std::filesystem::path(s.dir) / name).string();
}

void keep_scratch() {
  std::lock_guard lock(scratch().mu);
  scratch().keep = true;
}

}  // namespace gotrace::test
