// example-threads TRACE_FILE: runs the threaded pipeline (threads_example.h) under the
// tracer and writes its trace to TRACE_FILE.
#include <cstdio>
#include <string>

#include "threads_example.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: example-threads TRACE_FILE\n");
    return 2;
  }
  namespace trace = gotrace::tracer;
  std::string error;
  auto sink = trace::file_sink(argv[1], &error);
  if (!sink) {
    std::fprintf(stderr, "example-threads: %s\n", error.c_str());
    return 1;
  }
  trace::Options options;
  options.generation_period = std::chrono::milliseconds(100);  // several generations
  options.cpu_profile_hz = 1000;
  if (!trace::start(std::move(sink), options, &error)) {
    std::fprintf(stderr, "example-threads: %s\n", error.c_str());
    return 1;
  }
  threads_example::Config config;
  threads_example::Result result = threads_example::run(config);
  trace::Stats stats = trace::stop();
  std::printf("items %llu, checksum %016llx, logger read %llu bytes\n", (unsigned long long)result.items,
              (unsigned long long)result.checksum, (unsigned long long)result.reports);
  std::printf("trace: %llu generations, %llu events, %llu bytes (%.2f bytes/event), %llu CPU samples, %llu dropped\n",
              (unsigned long long)stats.generations, (unsigned long long)stats.events, (unsigned long long)stats.bytes,
              stats.events ? double(stats.bytes) / double(stats.events) : 0.0, (unsigned long long)stats.cpu_samples,
              (unsigned long long)stats.events_dropped);
  return stats.events_dropped == 0 && !stats.sink_failed ? 0 : 1;
}
