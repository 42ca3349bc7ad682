#include "output.h"

#include <cstdio>
#include <string>

namespace gotrace::cli {

void print_json(const std::function<void(JsonWriter&)>& write) {
  std::string out;
  JsonWriter w(out, true);
  write(w);
  out += '\n';
  std::fwrite(out.data(), 1, out.size(), stdout);
}

int finish(const ReadResult& r) {
  std::fflush(stdout);
  if (r.ok()) return 0;
  std::fprintf(stderr, "%s\n", r.error->what());
  return 1;
}

}  // namespace gotrace::cli
