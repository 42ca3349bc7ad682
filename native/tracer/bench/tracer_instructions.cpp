// tracer-instructions WORKLOAD on|off N: runs N operations of a scheduler workload on one
// worker, traced or not, for an instruction count under callgrind
// (scripts/tracer-instructions.sh compares runs to get the tracer's instructions per
// operation). One worker keeps the runs deterministic. Workloads:
//   jobs      N empty jobs spawned by one job (the benchmark's short jobs, without work):
//             each is a creation with its stack, a start and an end;
//   pingpong  N round trips between two jobs over unbuffered channels.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "gotrace/tracer/tracer.h"
#include "scheduler/scheduler_example.h"

namespace trace = gotrace::tracer;

namespace {

std::unique_ptr<trace::Sink> discard() {
  return trace::callback_sink([](std::span<const uint8_t>) { return true; });
}

sched::Job empty_job() { co_return; }

sched::Job spawner(int n) {
  for (int i = 0; i < n; i++) {
    sched::Scheduler::current()->spawn(empty_job(), "job");
    if (i % 64 == 63) co_await sched::yield();
  }
}

void jobs(int n) {
  sched::Scheduler s(1);
  s.spawn(spawner(n), "spawner");
  s.wait();
}

void pingpong(int n) {
  scheduler_example::Config c;
  c.workers = 1;
  c.numbers = 0;
  c.squarers = 0;
  c.fanout = 0;
  c.pingpong = n;
  scheduler_example::run(c);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || (std::strcmp(argv[1], "jobs") != 0 && std::strcmp(argv[1], "pingpong") != 0) ||
      (std::strcmp(argv[2], "on") != 0 && std::strcmp(argv[2], "off") != 0)) {
    std::fprintf(stderr, "usage: tracer-instructions jobs|pingpong on|off N\n");
    return 2;
  }
  bool traced = std::strcmp(argv[2], "on") == 0;
  int n = std::atoi(argv[3]);
  // Both ways, the first trace (which loads the symbolizer) is over before the workload.
  trace::start(discard());
  { trace::Region r("warm-up"); }
  trace::stop();
  if (traced) trace::start(discard());
  if (std::strcmp(argv[1], "jobs") == 0) jobs(n);
  else pingpong(n);
  if (traced) trace::stop();
  return 0;
}
