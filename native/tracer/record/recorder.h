// The recorder's life in the process: it starts the tracer when the preload library is
// loaded and writes the trace when the process ends (exit, _exit, a terminating signal
// it caught), or a flight recording on SIGUSR2.
#pragma once

#include <string>

namespace gotrace::record {

// Whether this is the process that records: false in a forked child, and in a vfork
// child, which shares the recorder's memory but has descriptors of its own.
bool in_recording_process();

// Stops the trace and writes it out (once; nothing in a forked child).
void finish();

// The recording process is about to execute another program, which is then the one
// recorded (gotrace-record was asked to trace the process; a wrapper script or an
// `env` shebang is what gets there first). Stops the trace, which is whole in the file
// should the new program not load the recorder (a static or setuid one); false, with
// nothing done, in any other process (a child) or when nothing is recorded.
bool exec_begin();

// The exec after exec_begin failed and the program goes on: a new trace begins in the
// file.
void exec_failed();

// This library's file, as the dynamic loader names it (nullptr if it cannot tell).
const char* recorder_library();

// An LD_PRELOAD list without `library` (recorder_library(); entries matched by file name).
std::string preload_without_recorder(const char* preload, const char* library);

// The calling thread is ending: nothing it calls from now on is recorded (the tracer
// ends its goroutine itself, from the thread's exit hook).
void thread_ending();

}  // namespace gotrace::record
