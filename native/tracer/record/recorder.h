// The recorder's life in the process: it starts the tracer when the preload library is
// loaded and writes the trace when the process ends (exit, _exit, a terminating signal
// it caught), or a flight recording on SIGUSR2.
#pragma once

namespace gotrace::record {

// Stops the trace and writes it out (once; nothing in a forked child).
void finish();

// The calling thread is ending: nothing it calls from now on is recorded (the tracer
// ends its goroutine itself, from the thread's exit hook).
void thread_ending();

}  // namespace gotrace::record
