// The fence between a thread's write flag and its read of the generation (a Dekker pair
// with the advancer, which stores the generation and then reads every flag). A full
// fence on every event costs a locked instruction (~20 cycles); instead, where the
// kernel offers membarrier(2), the traced threads only keep the compiler from reordering
// and the advancer, once per generation, makes every running thread of the process
// execute a full barrier (the asymmetric fence of userspace RCU). Without membarrier,
// both sides use ordinary sequentially consistent operations.
#pragma once

#include <atomic>

namespace gotrace::tracer::detail {

// Set once, before the first trace, never cleared: a thread that still reads false only
// takes the (always correct) full fence.
extern std::atomic<bool> g_asymmetric_fence;

// Tries to register with membarrier(2); called by start() before the first generation.
void init_write_fence();

// The advancer's side: after the generation changed, before the flags are read.
void heavy_fence();

}  // namespace gotrace::tracer::detail
