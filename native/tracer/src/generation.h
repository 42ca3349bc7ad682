// Ending a generation (Go's traceAdvance). With the control lock held:
//  1. note every goroutine and proc with no status in the generation yet;
//  2. move to the next generation (or to 0: tracing stops);
//  3. take each thread's batch of the old generation once its write flag is clear —
//     after that no thread can write to it;
//  4. write the statuses still missing, in a batch of no thread;
//  5. add the CPU samples, the sync batch (Go 1.23: the frequency batch), the stacks
//     (symbolized now) and the strings;
//  6. hand the finished generation to the output.
#pragma once

#include <cstdint>

#include "gotrace/tracer/tracer.h"

namespace gotrace::tracer::detail {

void advance_generation(bool stop_trace);

// Trace time and wall time at the start of generation `gen`.
ClockSnapshot take_clock_snapshot(uint64_t gen);

// Moves the CPU samples taken so far in the current generation into its trace data
// (every 100 ms, so the per-thread rings stay small).
void collect_cpu_samples(uint64_t gen);

}  // namespace gotrace::tracer::detail
