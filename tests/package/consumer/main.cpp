// consumer TRACE OUT: reads TRACE with the installed core and prints its version, event
// count and goroutine count; then records a small trace to OUT with the installed
// tracer and reads that back too.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

#include "gotrace/reader.h"
#include "gotrace/stats.h"
#include "gotrace/tracer/tracer.h"
#include "gotrace/version.h"

static std::vector<uint8_t> read_file(const char* path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer TRACE OUT\n");
    return 2;
  }
  gotrace::ReadResult r = gotrace::read_trace(read_file(argv[1]));
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", r.error->what());
    return 1;
  }
  gotrace::TraceStats stats = gotrace::compute_stats(r);
  std::printf("gotrace %s\nevents %zu\ngoroutines %zu\n", gotrace::kVersion, r.store.size(),
              static_cast<size_t>(stats.goroutines));

  namespace trace = gotrace::tracer;
  trace::start(trace::file_sink(argv[2]));
  std::thread t([] { trace::Region region("consumer work"); });
  t.join();
  trace::stop();
  gotrace::ReadResult recorded = gotrace::read_trace(read_file(argv[2]));
  std::printf("recorded %s\n", recorded.ok() ? "ok" : recorded.error->what());
  return recorded.ok() ? 0 : 1;
}
