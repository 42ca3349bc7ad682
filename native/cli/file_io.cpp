#include "file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace gotrace::cli {

std::vector<uint8_t> read_file(const std::string& path) {
  FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  std::vector<uint8_t> data;
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.insert(data.end(), buf, buf + n);
  const bool failed = std::ferror(f);
  const int why = errno;  // (a directory: EISDIR)
  if (f != stdin) std::fclose(f);
  if (failed) throw std::runtime_error("cannot read " + path + ": " + std::strerror(why));
  return data;
}

void write_file(const std::string& path, const void* data, size_t size) {
  FILE* f = path == "-" ? stdout : std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot create " + path + ": " + std::strerror(errno));
  bool ok = std::fwrite(data, 1, size, f) == size;
  if (f != stdout) ok = std::fclose(f) == 0 && ok;
  if (!ok) throw std::runtime_error("cannot write " + path);
}

}  // namespace gotrace::cli
