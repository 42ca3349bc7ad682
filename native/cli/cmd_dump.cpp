// gotrace dump: the ordered event stream in the exact text of `go tool trace -d=parsed`
// (Go 1.27), or with --go=1.23 of Go 1.23's `go tool trace -d=1`.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "command.h"
#include "file_io.h"
#include "mapped_file.h"
#include "gotrace/event_format.h"
#include "gotrace/reader.h"
#include "gotrace/streamed_read.h"
#include "gotrace/v1_legacy.h"
#include "output.h"

namespace gotrace::cli {
namespace {

// --legacy: Go 1.21's own ordered list of a v1 trace, in the reference listing format.
int run_dump_legacy(const std::vector<uint8_t>& bytes) {
  v1::LegacyList list = v1::read_legacy(bytes);
  std::string buf;
  buf.reserve(1 << 20);
  v1::append_legacy_dump_header(buf, list);
  for (size_t i = 0; i < list.size(); i++) {
    list.append_line(buf, i);
    buf += '\n';
    if (buf.size() >= (1 << 20)) {
      std::fwrite(buf.data(), 1, buf.size(), stdout);
      buf.clear();
    }
  }
  std::fwrite(buf.data(), 1, buf.size(), stdout);
  std::fflush(stdout);
  return list.ok() ? 0 : 1;
}

int run_dump(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  if (args.flag("legacy")) return run_dump_legacy(read_file(args.positional()[0]));
  const std::string go = args.value("go", "1.27");
  if (go != "1.27" && go != "1.23") throw std::runtime_error("--go: expected 1.27 or 1.23, got " + go);
  const GoListing listing = go == "1.23" ? GoListing::Go123 : GoListing::Go127;
  ReadOptions options;
  options.syncs = listing == GoListing::Go123 ? SyncPlacement::Go123 : SyncPlacement::Go127;
  // Streamed: each generation is printed as soon as it is ordered, then released, so a
  // trace of any size is listed in the memory of about one generation.
  MappedFile file(args.positional()[0]);
  std::string buf;
  buf.reserve(1 << 20);
  ReadResult r;
  read_streamed(
      file.bytes(), r,
      [&](const EventStore& s, size_t from, size_t to) {
        for (size_t i = from; i < to; i++) {
          append_go_event_string(buf, s, i, listing);
          buf += '\n';
          if (buf.size() >= (1 << 20)) {
            std::fwrite(buf.data(), 1, buf.size(), stdout);
            buf.clear();
          }
        }
        release_read_bytes(file, s);
      },
      options);
  std::fwrite(buf.data(), 1, buf.size(), stdout);
  return finish(r);
}

Register reg({
    "dump",
    "print the ordered events exactly as `go tool trace -d=parsed` does",
    "Usage: gotrace dump [--go=1.27|1.23] [--legacy] FILE\n\n"
    "Prints every event of the trace, ordered and validated as Go's own parser does, in the\n"
    "text of Go's Event.String() (the output of Go 1.27's `go tool trace -d=parsed FILE`).\n"
    "On an invalid trace it prints the events read before the problem, then the error on\n"
    "stderr, and exits with status 1.\n\n"
    "  --go=1.23  as Go 1.23 printed it (`go tool trace -d=1 FILE`): its text, and its\n"
    "             Syncs (one after each generation, none in an old-format trace)\n"
    "  --legacy   for an old-format trace (Go 1.5-1.21): Go 1.21's own ordered event list\n"
    "             before conversion, one event a line after a 'version 10NN' line; for a\n"
    "             trace Go 1.21 rejected, 'version 0' and 'error: MESSAGE' (exit status 1)\n",
    {"go"},
    {"go", "legacy"},
    run_dump,
});

}  // namespace
}  // namespace gotrace::cli
