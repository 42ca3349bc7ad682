// Go's public event model (`trace.Event` of Go 1.22+) over one event of an EventStore.
//
// Payload layout by type (a, b, c are the store's 32-bit words; ab = a | b << 32;
// "extra k.." are values in the store's side table starting at index a):
//   ProcsChange, HeapAlloc, HeapGoal  ab = value
//   ProcStart, GCSweepActive          ab = proc id
//   ProcSteal                         ab = proc id, c = old wire proc status
//   ProcStatus                        ab = proc id, c = old ProcState | wire status << 8
//   GoCreate, GoCreateBlocked         ab = new goroutine, c = its start stack
//   GoCreateSyscall, GoStart, GoUnblock, GoSwitch, GoSwitchDestroy,
//   GCMarkAssistActive                ab = goroutine
//   GoStatus, GoStatusStack           ab = goroutine, c = old GoState | wire status << 8
//                                     | k << 16: the reason (GoBlock's, GoStop's) of a wait
//                                     or a stop begun before the store's first generation,
//                                     status_reasons[k - 1] (0: none; read_generations)
//   GoStop, GoBlock                   a = reason string
//   STWBegin, STWEnd                  a = kind string
//   GoLabel                           a = label string
//   GCActive, GCBegin, GCEnd          ab = GC sequence number
//   GCSweepEnd                        extra a..a+1 = bytes swept, bytes reclaimed
//   UserTaskBegin, UserTaskEnd        extra a..a+2 = task id, parent id, name string
//   UserRegionBegin, UserRegionEnd    ab = task id, c = name string
//   UserLog                           extra a..a+2 = task id, category string, message string
//   Experimental (128..136)           extra a.. = the spec's arguments after dt
//   Sync (EvSyncOut)                  a = index of its generation in `generations`
//                                     (with leading_syncs: the generation it begins,
//                                     or generations.size() for the final one)
//   CPUSample                         (the sample's stack is the stack column)
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gotrace/event_store.h"
#include "gotrace/v2_spec.h"

namespace gotrace {

struct ResourceID {
  ResourceKind kind = ResourceKind::None;
  int64_t id = 0;
  bool operator==(const ResourceID&) const = default;
};

struct Metric {
  std::string_view name;
  uint64_t value = 0;
};

struct Label {
  std::string_view label;
  ResourceID resource;
};

struct Range {
  std::string name;  // "stop-the-world (<kind>)", "GC concurrent mark phase", ...
  ResourceID scope;
};

struct RangeAttribute {
  std::string_view name;
  uint64_t value = 0;
};

// A range's attributes (Go's Event.RangeAttributes): at most two, held in place (a
// sweep's end has them, and a trace has hundreds of thousands of sweeps).
struct RangeAttributes {
  std::array<RangeAttribute, 2> items{};
  size_t count = 0;
  const RangeAttribute* begin() const { return items.data(); }
  const RangeAttribute* end() const { return items.data() + count; }
};

struct Task {
  TaskID id = 0;
  TaskID parent = kNoTask;
  std::string_view type;
};

struct Region {
  TaskID task = 0;
  std::string_view type;
};

struct Log {
  TaskID task = 0;
  std::string_view category;
  std::string_view message;
  StringID category_id = 0;  // the strings' ids in the store's string table
  StringID message_id = 0;
};

struct StateTransition {
  ResourceID resource;
  std::string_view reason;
  // The stack of the resource changing state. `has_stack` can be true with stack 0:
  // Go prints an empty "TransitionStack=" block for a GoCreate without a start stack.
  bool has_stack = false;
  StackID stack = 0;
  uint8_t old_state = 0;  // GoState or ProcState, by resource kind
  uint8_t new_state = 0;
  GoState go_from() const { return static_cast<GoState>(old_state); }
  GoState go_to() const { return static_cast<GoState>(new_state); }
  ProcState proc_from() const { return static_cast<ProcState>(old_state); }
  ProcState proc_to() const { return static_cast<ProcState>(new_state); }
};

// Go's trace.Sync: the Nth Sync of the stream, and the clock snapshot of the generation
// it begins (Go 1.25+ traces, Syncs placed as Go 1.27 does).
struct SyncInfo {
  uint64_t n = 0;
  std::optional<ClockSnapshot> clock;
};

struct Experimental {
  std::string_view name;
  std::vector<std::string_view> arg_names;
  std::vector<uint64_t> args;
};

EventKind kind_of_type(uint8_t type);

class EventView {
 public:
  EventView(const EventStore& store, size_t index) : s_(&store), i_(index) {}

  size_t index() const { return i_; }
  uint8_t type() const { return s_->type(i_); }
  EventKind kind() const { return kind_of_type(type()); }
  Time time() const { return s_->time(i_); }
  ThreadID thread() const { return s_->context(i_).m; }
  ProcID proc() const { return s_->context(i_).p; }
  GoID goroutine() const { return s_->goroutine(i_); }
  StackID stack() const { return s_->stack(i_); }  // Event.Stack(); 0 = none

  Metric metric() const;
  Label label() const;
  Range range() const;
  ResourceID range_scope() const;  // range().scope, without making the name
  RangeAttributes range_attributes() const;
  Task task() const;
  Region region() const;
  Log log() const;
  StateTransition state_transition() const;
  Experimental experimental() const;
  SyncInfo sync() const;

 private:
  std::string_view str(StringID id) const { return s_->strings.get(id); }
  const EventStore* s_;
  size_t i_;
};

}  // namespace gotrace
