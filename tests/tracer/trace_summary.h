// What the tracer tests check in a trace, gathered through gotrace's reader and Go's event
// model (EventView): goroutines and their names, block reasons, tasks, regions, logs.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "gotrace/reader.h"

namespace gotrace::tracer_test {

struct TraceSummary {
  bool ok = false;
  std::string error;
  // Every event read, Sync events included: Go 1.27's, one leading each generation and
  // a final one.
  size_t events = 0;
  size_t generations = 0;
  std::set<int64_t> threads;
  std::set<int64_t> procs;
  std::set<int64_t> goroutines;
  std::map<std::string, int> goroutine_names;  // by root frame of the first transition stack
  std::map<std::string, int> block_reasons;    // Running -> Waiting
  std::map<std::string, int> stop_reasons;     // Running -> Runnable
  int created = 0;        // NotExist -> Runnable/Waiting
  int ended = 0;          // -> NotExist
  int syscalls = 0;       // Running -> Syscall
  int cpu_samples = 0;
  std::map<std::string, int> tasks;            // TaskBegin types
  int task_ends = 0;
  std::map<std::string, int> regions;          // RegionBegin types
  int region_ends = 0;
  std::map<std::string, int> log_categories;
  std::vector<std::string> log_messages;
  std::set<std::string> stack_functions;       // every function in any stack
  // What Go 1.27's validator checks besides the events.
  int go_minor = 0;            // the header's version
  int frames = 0;              // frames in the stack table
  int incomplete_frames = 0;   // of them, missing a function, file, PC or line
  int clock_snapshots = 0;     // generations with a clock snapshot
  int bad_clock_snapshots = 0; // of them, with a zero or non-increasing time
};

TraceSummary summarize(std::span<const uint8_t> trace);

// Go's oracle tools, when installed. For a Go 1.23 trace: Go 1.23's validator accepts it
// and `go tool trace -d=1` reads it to the end; for a Go 1.26 trace: Go 1.27's
// `tracedump -validate` reads and validates it. True (and *output empty) if they pass.
bool go_oracle_available(int go_minor);
bool go_oracle_accepts(const std::string& path, std::string* output);

// Traces once (per process) with a stack, so the symbolizer has loaded the debug
// information before a test whose generations must not be held up by that (slow under
// the sanitizers).
void warm_up_tracer();

}  // namespace gotrace::tracer_test
