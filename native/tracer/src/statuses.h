// The wire statuses of goroutines and procs (FORMAT.md §2.9), as the tracer keeps them:
// each goroutine's and proc's status is what the events written so far say it is.
#pragma once

#include <cstdint>

namespace gotrace::tracer::detail {

enum GoStatus : uint8_t { kGoBad = 0, kGoRunnable = 1, kGoRunning = 2, kGoSyscall = 3, kGoWaiting = 4 };

// Not on the wire: a thread is writing an unblock or a start of the goroutine (claim_go).
inline constexpr uint8_t kGoBusy = 5;

// kProcUnseen (the wire's Bad) marks a proc with no event in the current trace yet.
enum ProcStatus : uint8_t { kProcUnseen = 0, kProcRunning = 1, kProcIdle = 2, kProcSyscall = 3 };

}  // namespace gotrace::tracer::detail
