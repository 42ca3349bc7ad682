// gotrace bench: how fast the reader reads a trace, and how much memory its events take.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "command.h"
#include "file_io.h"
#include "gotrace/reader.h"

namespace gotrace::cli {
namespace {

long peak_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

int run_bench(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  int reps = std::stoi(args.value("n", "5"));
  if (reps < 1) throw std::runtime_error("-n must be at least 1");
  std::vector<uint8_t> bytes = read_file(args.positional()[0]);
  double best = 1e300, total = 0;
  size_t events = 0, store_bytes = 0, column_bytes = 0, contexts = 0;
  std::string error;
  for (int i = 0; i < reps; i++) {
    auto t0 = std::chrono::steady_clock::now();
    ReadResult r = read_trace(bytes);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, s);
    total += s;
    events = r.store.size();
    store_bytes = r.store.bytes_reserved();
    column_bytes = r.store.column_bytes();
    contexts = r.store.thread_procs().size();
    if (r.error) error = r.error->what();
  }
  double mb = static_cast<double>(bytes.size()) / 1e6;
  std::printf("file            %s\n", args.positional()[0].c_str());
  std::printf("bytes           %zu\n", bytes.size());
  std::printf("events          %zu\n", events);
  std::printf("runs            %d (best %.4f s, mean %.4f s)\n", reps, best, total / reps);
  std::printf("events/s        %.0f (best run)\n", static_cast<double>(events) / best);
  std::printf("MB/s            %.1f (best run)\n", mb / best);
  std::printf("peak RSS        %.1f MB\n", static_cast<double>(peak_rss_kb()) / 1024.0);
  std::printf("store           %.1f MB: %.2f bytes/event (columns alone %.2f)\n", static_cast<double>(store_bytes) / 1e6,
              events ? static_cast<double>(store_bytes) / static_cast<double>(events) : 0.0,
              events ? static_cast<double>(column_bytes) / static_cast<double>(events) : 0.0);
  if (!error.empty()) std::printf("error           %s\n", error.c_str());
  std::printf("thread/procs    %zu\n", contexts);
  return 0;
}

Register reg({
    "bench",
    "measure how fast the reader reads a trace and the memory its events take",
    "Usage: gotrace bench [-n RUNS] FILE\n\n"
    "Reads the file RUNS times (default 5) and prints the events, events/s and MB/s of the\n"
    "best run, the process's peak RSS, and the resident bytes per event of the event store\n"
    "(columns, side table, interned strings and stacks).\n",
    {"n"},
    {"n"},
    run_bench,
});

}  // namespace
}  // namespace gotrace::cli
