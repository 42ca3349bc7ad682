// The end of a traced thread (Go's traceThreadDestroy): a plain thread's goroutine ends
// with it, and its batches join their generations before the thread state goes away.
#pragma once

#include "event_writer.h"

namespace gotrace::tracer::detail {

void end_plain_thread(const Locker& l);

// Runs from the thread's thread_local destructor.
void thread_exit();

}  // namespace gotrace::tracer::detail
