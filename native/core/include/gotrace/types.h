// The vocabulary of Go's public trace event model (Go 1.22+ `internal/trace`):
// resource ids, their states, and the kinds of events.
#pragma once

#include <cstdint>
#include <string_view>

namespace gotrace {

using GoID = int64_t;
using ProcID = int64_t;
using ThreadID = int64_t;
using TaskID = uint64_t;
using Time = int64_t;  // nanoseconds

inline constexpr GoID kNoGoroutine = -1;
inline constexpr ProcID kNoProc = -1;
inline constexpr ThreadID kNoThread = -1;
inline constexpr TaskID kNoTask = ~uint64_t{0};
inline constexpr TaskID kBackgroundTask = 0;

enum class GoState : uint8_t { Undetermined, NotExist, Runnable, Running, Waiting, Syscall };
enum class ProcState : uint8_t { Undetermined, NotExist, Running, Idle };

enum class EventKind : uint8_t {
  Bad,
  Sync,
  Metric,
  Label,
  StackSample,
  RangeBegin,
  RangeActive,
  RangeEnd,
  TaskBegin,
  TaskEnd,
  RegionBegin,
  RegionEnd,
  Log,
  StateTransition,
  Experimental,
};

enum class ResourceKind : uint8_t { None, Goroutine, Proc, Thread };

std::string_view to_string(GoState s);
std::string_view to_string(ProcState s);
std::string_view to_string(EventKind k);
std::string_view to_string(ResourceKind k);

// Wire statuses of goroutines and procs (v2 format, §2.9 of FORMAT.md).
enum class WireGoStatus : uint8_t { Bad, Runnable, Running, Syscall, Waiting };
enum class WireProcStatus : uint8_t { Bad, Running, Idle, Syscall, SyscallAbandoned };
inline constexpr uint8_t kWireGoStatusCount = 5;
inline constexpr uint8_t kWireProcStatusCount = 5;

std::string_view to_string(WireGoStatus s);
std::string_view to_string(WireProcStatus s);

// The public state a wire status maps to.
GoState to_go_state(WireGoStatus s);
ProcState to_proc_state(WireProcStatus s);

}  // namespace gotrace
