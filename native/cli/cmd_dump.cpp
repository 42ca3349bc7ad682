// gotrace dump: the ordered event stream in the exact text of `go tool trace -d=1`.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "command.h"
#include "file_io.h"
#include "gotrace/event_format.h"
#include "gotrace/reader.h"

namespace gotrace::cli {
namespace {

int run_dump(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  std::vector<uint8_t> bytes = read_file(args.positional()[0]);
  ReadResult r = read_trace(bytes);
  std::string buf;
  buf.reserve(1 << 20);
  for (size_t i = 0; i < r.store.size(); i++) {
    append_go_event_string(buf, r.store, i);
    buf += '\n';
    if (buf.size() >= (1 << 20)) {
      std::fwrite(buf.data(), 1, buf.size(), stdout);
      buf.clear();
    }
  }
  std::fwrite(buf.data(), 1, buf.size(), stdout);
  std::fflush(stdout);
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", r.error->what());
    return 1;
  }
  return 0;
}

Register reg({
    "dump",
    "print the ordered events exactly as `go tool trace -d=1` does",
    "Usage: gotrace dump FILE\n\n"
    "Prints every event of the trace, ordered and validated as Go's own parser does, in the\n"
    "text of Go's Event.String() (the output of `go tool trace -d=1 FILE`). On an invalid\n"
    "trace it prints the events read before the problem, then the error on stderr, and\n"
    "exits with status 1.\n",
    {},
    {},
    run_dump,
});

}  // namespace
}  // namespace gotrace::cli
