// Decoding a v1 trace (FORMAT.md §3.1–§3.3, §3.7): every event is checked as Go's
// parser checks it, in file order, and decoded into a record with Go's per-P parse state
// (the batch clock, the goroutine running on each P); the lists of each P, the CPU
// samples, and the string, stack, frequency and timer-goroutine tables come with it.
#pragma once

#include <span>

#include "trace.h"

namespace gotrace::v1 {

// Decodes `bytes` (the whole file) into `t`. Throws TraceError with Go's message at the
// first malformed event.
void decode(std::span<const uint8_t> bytes, Trace& t);

}  // namespace gotrace::v1
