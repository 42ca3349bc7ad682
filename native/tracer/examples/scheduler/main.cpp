// example-scheduler TRACE_FILE: runs the coroutine workload (scheduler_example.h) on the
// work-stealing scheduler under the tracer and writes its trace to TRACE_FILE.
#include <cstdio>
#include <string>

#include "gotrace/tracer/tracer.h"
#include "scheduler_example.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: example-scheduler TRACE_FILE\n");
    return 2;
  }
  namespace trace = gotrace::tracer;
  std::string error;
  auto sink = trace::file_sink(argv[1], &error);
  if (!sink) {
    std::fprintf(stderr, "example-scheduler: %s\n", error.c_str());
    return 1;
  }
  trace::Options options;
  options.generation_period = std::chrono::milliseconds(100);  // several generations
  options.cpu_profile_hz = 1000;
  if (!trace::start(std::move(sink), options, &error)) {
    std::fprintf(stderr, "example-scheduler: %s\n", error.c_str());
    return 1;
  }
  scheduler_example::Config config;
  scheduler_example::Result r = scheduler_example::run(config);
  trace::Stats stats = trace::stop();
  bool ok = r.sum == r.tally && r.fanout == uint64_t(config.fanout) && r.pongs == uint64_t(config.pingpong);
  std::printf("jobs %llu, sum of squares %llu (%s), fan-out %llu, ping-pong %llu\n", (unsigned long long)r.jobs,
              (unsigned long long)r.sum, ok ? "consistent" : "INCONSISTENT", (unsigned long long)r.fanout,
              (unsigned long long)r.pongs);
  std::printf("trace: %llu generations, %llu events, %llu bytes (%.2f bytes/event), %llu CPU samples, %llu dropped\n",
              (unsigned long long)stats.generations, (unsigned long long)stats.events, (unsigned long long)stats.bytes,
              stats.events ? double(stats.bytes) / double(stats.events) : 0.0, (unsigned long long)stats.cpu_samples,
              (unsigned long long)stats.events_dropped);
  return ok && stats.events_dropped == 0 && !stats.sink_failed ? 0 : 1;
}
