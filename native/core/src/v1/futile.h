// Futile wakeups (FORMAT.md §3.5): a goroutine woken for a resource someone else took
// first, which blocks again. The runtime marked them with FutileWakeup before 1.11.
#pragma once

#include <vector>

#include "trace.h"

namespace gotrace::v1 {

// Go 1.21: removes each futile sequence (the unblock, the starts and preemptions after
// it, the FutileWakeup and the block that ends it) from the ordered events.
void remove_futile_wakeups(std::vector<Event>& events);

}  // namespace gotrace::v1
