// A strict check of a converted event stream: the rules of Go's own validator for
// reader output (internal/trace/testtrace.Validator, in its lenient mode for converted
// Go 1.21-and-older traces) — strictly increasing times, goroutine and proc state
// machines with their thread bindings, ranges, tasks and labels.
//
// One difference, in the lenient mode only: Go lets a goroutine found in a syscall at
// the start (old traces do not say on which thread) run on "thread -1", so a second
// such goroutine clashes with the first. Here it runs on no thread, and leaving that
// syscall needs no thread either.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gotrace/event_store.h"
#include "gotrace/event_view.h"

namespace gotrace::test {

class StreamChecker {
 public:
  explicit StreamChecker(bool converted_v1 = true) : go121_(converted_v1) {}

  // Checks the next event; returns Go's error texts for it (empty if it is valid).
  std::vector<std::string> event(const EventStore& store, size_t i);

  // Checks every event of the store; returns the first problem as "event i: error",
  // or the empty string.
  static std::string check_all(const EventStore& store, bool converted_v1 = true);

 private:
  struct SchedContext {
    ThreadID m = kNoThread;
    ProcID p = kNoProc;
    GoID g = kNoGoroutine;
  };
  struct GoroutineState {
    GoState state = GoState::Undetermined;
    SchedContext* binding = nullptr;
    bool threadless_syscall = false;  // in a syscall since the start, on no known thread
  };
  struct ProcStateEntry {
    ProcState state = ProcState::Undetermined;
    SchedContext* binding = nullptr;
  };
  using RangeKey = std::pair<int, int64_t>;  // resource kind, id

  SchedContext* thread(std::vector<std::string>& errs, const EventView& ev, const StateTransition* st);
  bool has_range(const RangeKey& r, const std::string& name) const;

  bool go121_;
  Time last_ts_ = 0;
  bool seen_sync_ = false;  // past the first generation
  uint64_t last_sync_ = 0;   // the last Sync's N
  std::map<GoID, GoroutineState> gs_;
  std::map<ProcID, ProcStateEntry> ps_;
  std::map<ThreadID, std::unique_ptr<SchedContext>> ms_;
  std::map<RangeKey, std::vector<std::string>> ranges_;
  std::map<TaskID, std::string> tasks_;
};

}  // namespace gotrace::test
