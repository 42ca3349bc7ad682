// Ordering v1 events (FORMAT.md §3.4, §3.7): merging the per-P lists into one stream
// that respects the goroutines' sequence numbers (1.7+) or the global sequence (1.5),
// then Go's time checks and the move of syscall exits to their real time.
#pragma once

#include <vector>

#include "stream.h"
#include "trace.h"

namespace gotrace::v1 {

// The merged stream, sorted by ticks once read back; a syscall exit moved to its real
// time gets that time in its record. Throws TraceError ("no consistent ordering of
// events possible", "time stamps out of order", "stray syscall exit", ...).
Stream order_events(Trace& t);

}  // namespace gotrace::v1
