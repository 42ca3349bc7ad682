// The v2 (Go 1.22+) event table: one row per wire event type. Decoding, ordering,
// validation, printing and the text format all read this table (FORMAT.md §2.8).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace gotrace::v2 {

enum Ev : uint8_t {
  EvNone = 0,
  EvEventBatch = 1,
  EvStacks = 2,
  EvStack = 3,
  EvStrings = 4,
  EvString = 5,
  EvCPUSamples = 6,
  EvCPUSample = 7,
  EvFrequency = 8,
  EvProcsChange = 9,
  EvProcStart = 10,
  EvProcStop = 11,
  EvProcSteal = 12,
  EvProcStatus = 13,
  EvGoCreate = 14,
  EvGoCreateSyscall = 15,
  EvGoStart = 16,
  EvGoDestroy = 17,
  EvGoDestroySyscall = 18,
  EvGoStop = 19,
  EvGoBlock = 20,
  EvGoUnblock = 21,
  EvGoSyscallBegin = 22,
  EvGoSyscallEnd = 23,
  EvGoSyscallEndBlocked = 24,
  EvGoStatus = 25,
  EvSTWBegin = 26,
  EvSTWEnd = 27,
  EvGCActive = 28,
  EvGCBegin = 29,
  EvGCEnd = 30,
  EvGCSweepActive = 31,
  EvGCSweepBegin = 32,
  EvGCSweepEnd = 33,
  EvGCMarkAssistActive = 34,
  EvGCMarkAssistBegin = 35,
  EvGCMarkAssistEnd = 36,
  EvHeapAlloc = 37,
  EvHeapGoal = 38,
  EvGoLabel = 39,
  EvUserTaskBegin = 40,
  EvUserTaskEnd = 41,
  EvUserRegionBegin = 42,
  EvUserRegionEnd = 43,
  EvUserLog = 44,
  EvGoSwitch = 45,
  EvGoSwitchDestroy = 46,
  EvGoCreateBlocked = 47,
  EvGoStatusStack = 48,
  EvExperimentalBatch = 49,
  EvSync = 50,             // Go 1.25: sync batch marker
  EvClockSnapshot = 51,    // Go 1.25: inside the sync batch
  EvEndOfGeneration = 52,  // Go 1.26: lone top-level byte
  EvSpan = 128,
  EvSpanAlloc = 129,
  EvSpanFree = 130,
  EvHeapObject = 131,
  EvHeapObjectAlloc = 132,
  EvHeapObjectFree = 133,
  EvGoroutineStack = 134,
  EvGoroutineStackAlloc = 135,
  EvGoroutineStackFree = 136,
  // Not a wire type: the Sync event the reader synthesizes (Go's evSync).
  EvSyncOut = 255,
};

inline constexpr int kMaxBatchSize = 64 << 10;
inline constexpr int kMaxFramesPerStack = 128;
inline constexpr int kMaxStringSize = 1 << 10;
inline constexpr int kMaxArgs = 6;  // including dt

struct EventSpec {
  std::string_view name;                      // empty: not a valid type
  std::array<std::string_view, kMaxArgs> args;  // wire argument names, in order
  uint8_t nargs = 0;
  // Argument indices (dt = 0) that hold stack / string ids; 0 = unused slot.
  // The first stack index is the event's own stack.
  std::array<uint8_t, 2> stack_ids{};
  std::array<uint8_t, 2> string_ids{};
  uint8_t start_ev = EvNone;  // for End/Active events: the Begin they belong to
  bool timed = false;         // carries a dt and lives in event batches
  bool has_data = false;      // followed by length-prefixed bytes (String, ExperimentalBatch)
  bool is_stack = false;      // followed by frames (Stack)
  uint8_t experiment = 0;     // 1 = AllocFree
  uint8_t since = 22;         // first header version that defines it

  bool valid() const { return !name.empty(); }
  bool experimental() const { return experiment != 0; }
  int nstacks() const { return (stack_ids[0] != 0) + (stack_ids[1] != 0); }
  int nstrings() const { return (string_ids[0] != 0) + (string_ids[1] != 0); }
};

// The table has 256 rows; rows that are not events have an empty name.
extern const std::array<EventSpec, 256> kSpecTable;
inline const EventSpec& spec(uint8_t type) { return kSpecTable[type]; }

// Number of rows Go 1.23 has (types >= this are "invalid event type").
inline constexpr int kGo123TableSize = 137;

// Go's go122.EventString: the name, or "Invalid(N)".
std::string event_name(uint8_t type);

// Looks a name up (for the text format); returns false if unknown.
bool type_by_name(std::string_view name, uint8_t& type);

std::string_view experiment_name(uint8_t experiment);

}  // namespace gotrace::v2
