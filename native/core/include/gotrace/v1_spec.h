// The v1 (Go 1.5–1.21) event table: one row per wire event type, as Go 1.21's old
// parser describes it (FORMAT.md §3.3 and §3.7). Decoding, argument counts, ordering,
// validation, the legacy listing and the conversion into the v2 model all read it.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace gotrace::v1 {

enum Ev : uint8_t {
  EvNone = 0,
  EvBatch = 1,
  EvFrequency = 2,
  EvStack = 3,
  EvGomaxprocs = 4,
  EvProcStart = 5,
  EvProcStop = 6,
  EvGCStart = 7,
  EvGCDone = 8,
  EvSTWStart = 9,
  EvSTWDone = 10,
  EvGCSweepStart = 11,
  EvGCSweepDone = 12,
  EvGoCreate = 13,
  EvGoStart = 14,
  EvGoEnd = 15,
  EvGoStop = 16,
  EvGoSched = 17,
  EvGoPreempt = 18,
  EvGoSleep = 19,
  EvGoBlock = 20,
  EvGoUnblock = 21,
  EvGoBlockSend = 22,
  EvGoBlockRecv = 23,
  EvGoBlockSelect = 24,
  EvGoBlockSync = 25,
  EvGoBlockCond = 26,
  EvGoBlockNet = 27,
  EvGoSysCall = 28,
  EvGoSysExit = 29,
  EvGoSysBlock = 30,
  EvGoWaiting = 31,
  EvGoInSyscall = 32,
  EvHeapAlloc = 33,
  EvHeapGoal = 34,
  EvTimerGoroutine = 35,
  EvFutileWakeup = 36,
  EvString = 37,
  EvGoStartLocal = 38,
  EvGoUnblockLocal = 39,
  EvGoSysExitLocal = 40,
  EvGoStartLabel = 41,
  EvGoBlockGC = 42,
  EvGCMarkAssistStart = 43,
  EvGCMarkAssistDone = 44,
  EvUserTaskCreate = 45,
  EvUserTaskEnd = 46,
  EvUserRegion = 47,
  EvUserLog = 48,
  EvCPUSample = 49,
  EvCount = 50,
};

// The fake Ps Go's old parsers move events to (FakeP and ProfileP never appear on events).
inline constexpr int64_t kFakeP = 1000000;
inline constexpr int64_t kTimerP = 1000001;    // unblocks by the timer goroutine
inline constexpr int64_t kNetpollP = 1000002;  // unblocks of goroutines blocked on the network
inline constexpr int64_t kSyscallP = 1000003;  // returns from syscalls
inline constexpr int64_t kGCP = 1000004;       // GC starts
inline constexpr int64_t kProfileP = 1000005;  // the CPU sample list

// The trace versions Go 1.21 reads (header minor numbers; Go calls them 1005 … 1021).
bool is_known_version(int minor);

struct EventSpec {
  std::string_view name;                 // Go 1.21's name; empty: not an event
  uint8_t since = 0;                     // first header minor that has it
  bool stack = false;                    // the last wire value is the event's stack ID
  std::array<std::string_view, 3> args;  // printed arguments, in slot order
  uint8_t nargs = 0;
  std::array<std::string_view, 2> sargs;  // printed string arguments
  uint8_t nsargs = 0;
  // How the event takes its goroutine off its P, as Go 1.21's parser lists such events:
  // it blocks to wait for something (GoSleep, GoBlock*), or it stops (GoStop, GoSched,
  // GoPreempt).
  bool blocks = false;
  bool stops = false;
  bool valid() const { return !name.empty(); }
};

// 256 rows; rows that are not events have an empty name.
const EventSpec& spec(uint8_t type);

// How many values (after the type byte, or the length prefix) an event of this type
// carries in trace version `minor`: the printed arguments, the stack, the tick delta and
// (1.5) the sequence delta, less what older versions lack. Go 1.21's argNum.
int wire_value_count(uint8_t type, int minor);

// The STW kind Go 1.21 prints for STWStart: "mark termination"/"sweep termination" before
// 1.21, the runtime's reason names in 1.21. Returns false for an unknown pre-1.21 kind.
bool legacy_stw_kind(int minor, uint64_t kind, std::string_view& out);

// The reason string Go 1.23's converter gives STWStart (its STWReason table).
std::string_view converted_stw_reason(int minor, uint64_t kind);

}  // namespace gotrace::v1
