// gotrace stats: format, size, counts and time span of a trace.
#include <cstdio>
#include <stdexcept>

#include "command.h"
#include "file_io.h"
#include "mapped_file.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"
#include "streamed_beside.h"

namespace gotrace::cli {
namespace {

int run_stats(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  // Streamed: events are counted on a second core while the next are read, and
  // released, so memory stays that of about two generations however large the trace.
  MappedFile file(args.positional()[0]);
  StatsCounter counter;
  ReadResult r;
  ReadOptions options;
  options.on_generation = [&](EventStore& s) {
    release_read_bytes(file, s);
    return true;
  };
  read_streamed_beside(
      file.bytes(), r, [&](const EventStore& s, size_t from, size_t to) { counter.add(s, from, to); }, options);
  TraceStats st = counter.finish(r);
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
