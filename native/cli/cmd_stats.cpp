// gotrace stats: format, size, counts and time span of a trace.
#include <cstdio>
#include <stdexcept>

#include "command.h"
#include "file_io.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"

namespace gotrace::cli {
namespace {

int run_stats(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  ReadResult r = read_trace(read_file(args.positional()[0]));
  TraceStats st = compute_stats(r);
  std::string out = args.flag("json") ? stats_json(st) : stats_text(st);
  std::fwrite(out.data(), 1, out.size(), stdout);
  // A partial trace still has stats; say so through the exit status.
  return r.ok() ? 0 : 1;
}

Register reg({
    "stats",
    "format version, generations, events by kind, goroutines, procs, threads, time span",
    "Usage: gotrace stats [--json] FILE\n\n"
    "Prints the trace's format version, size, generations, events by kind, the number of\n"
    "goroutines, procs, threads and GC cycles, and its time span. A trace that cannot be\n"
    "read to the end still gets its stats (of what was read) and the error; the exit\n"
    "status is then 1.\n\n"
    "  --json   print one JSON object (the same object the npm package's stats() returns)\n",
    {},
    {"json"},
    run_stats,
});

}  // namespace
}  // namespace gotrace::cli
