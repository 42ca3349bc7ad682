#include "gotrace/v2_spec.h"

#include <string>

namespace gotrace::v2 {
namespace {

struct Row {
  uint8_t type;
  EventSpec spec;
};

constexpr EventSpec make(std::string_view name, std::initializer_list<std::string_view> args,
                         std::array<uint8_t, 2> stacks = {}, std::array<uint8_t, 2> strings = {},
                         uint8_t start = EvNone, bool timed = true, uint8_t since = 22) {
  EventSpec s;
  s.name = name;
  uint8_t i = 0;
  for (auto a : args) s.args[i++] = a;
  s.nargs = i;
  s.stack_ids = stacks;
  s.string_ids = strings;
  s.start_ev = start;
  s.timed = timed;
  s.since = since;
  return s;
}

constexpr EventSpec structural(std::string_view name, std::initializer_list<std::string_view> args,
                               uint8_t since = 22) {
  return make(name, args, {}, {}, EvNone, false, since);
}

constexpr EventSpec experimental(std::string_view name, std::initializer_list<std::string_view> args) {
  EventSpec s = make(name, args, {}, {}, EvNone, true, 23);
  s.experiment = 1;
  return s;
}

constexpr std::array<EventSpec, 256> build_table() {
  std::array<EventSpec, 256> t{};
  t[EvEventBatch] = structural("EventBatch", {"gen", "m", "time", "size"});
  t[EvStacks] = structural("Stacks", {});
  t[EvStack] = structural("Stack", {"id", "nframes"});
  t[EvStack].is_stack = true;
  t[EvStrings] = structural("Strings", {});
  t[EvString] = structural("String", {"id"});
  t[EvString].has_data = true;
  t[EvCPUSamples] = structural("CPUSamples", {});
  t[EvCPUSample] = structural("CPUSample", {"time", "m", "p", "g", "stack"});
  t[EvFrequency] = structural("Frequency", {"freq"});
  t[EvExperimentalBatch] = structural("ExperimentalBatch", {"exp", "gen", "m", "time"}, 23);
  t[EvExperimentalBatch].has_data = true;
  t[EvSync] = structural("Sync", {}, 25);
  t[EvClockSnapshot] = make("ClockSnapshot", {"dt", "mono", "sec", "nsec"}, {}, {}, EvNone, true, 25);
  t[EvEndOfGeneration] = structural("EndOfGeneration", {}, 26);

  t[EvProcsChange] = make("ProcsChange", {"dt", "procs_value", "stack"}, {2});
  t[EvProcStart] = make("ProcStart", {"dt", "p", "p_seq"});
  t[EvProcStop] = make("ProcStop", {"dt"});
  t[EvProcSteal] = make("ProcSteal", {"dt", "p", "p_seq", "m"});
  t[EvProcStatus] = make("ProcStatus", {"dt", "p", "pstatus"});
  t[EvGoCreate] = make("GoCreate", {"dt", "new_g", "new_stack", "stack"}, {3, 2});
  t[EvGoCreateSyscall] = make("GoCreateSyscall", {"dt", "new_g"});
  t[EvGoStart] = make("GoStart", {"dt", "g", "g_seq"});
  t[EvGoDestroy] = make("GoDestroy", {"dt"});
  t[EvGoDestroySyscall] = make("GoDestroySyscall", {"dt"});
  t[EvGoStop] = make("GoStop", {"dt", "reason_string", "stack"}, {2}, {1});
  t[EvGoBlock] = make("GoBlock", {"dt", "reason_string", "stack"}, {2}, {1});
  t[EvGoUnblock] = make("GoUnblock", {"dt", "g", "g_seq", "stack"}, {3});
  t[EvGoSyscallBegin] = make("GoSyscallBegin", {"dt", "p_seq", "stack"}, {2});
  t[EvGoSyscallEnd] = make("GoSyscallEnd", {"dt"}, {}, {}, EvGoSyscallBegin);
  t[EvGoSyscallEndBlocked] = make("GoSyscallEndBlocked", {"dt"}, {}, {}, EvGoSyscallBegin);
  t[EvGoStatus] = make("GoStatus", {"dt", "g", "m", "gstatus"});
  t[EvSTWBegin] = make("STWBegin", {"dt", "kind_string", "stack"}, {2}, {1});
  t[EvSTWEnd] = make("STWEnd", {"dt"}, {}, {}, EvSTWBegin);
  t[EvGCActive] = make("GCActive", {"dt", "gc_seq"}, {}, {}, EvGCBegin);
  t[EvGCBegin] = make("GCBegin", {"dt", "gc_seq", "stack"}, {2});
  t[EvGCEnd] = make("GCEnd", {"dt", "gc_seq"}, {}, {}, EvGCBegin);
  t[EvGCSweepActive] = make("GCSweepActive", {"dt", "p"}, {}, {}, EvGCSweepBegin);
  t[EvGCSweepBegin] = make("GCSweepBegin", {"dt", "stack"}, {1});
  t[EvGCSweepEnd] = make("GCSweepEnd", {"dt", "swept_value", "reclaimed_value"}, {}, {}, EvGCSweepBegin);
  t[EvGCMarkAssistActive] = make("GCMarkAssistActive", {"dt", "g"}, {}, {}, EvGCMarkAssistBegin);
  t[EvGCMarkAssistBegin] = make("GCMarkAssistBegin", {"dt", "stack"}, {1});
  t[EvGCMarkAssistEnd] = make("GCMarkAssistEnd", {"dt"}, {}, {}, EvGCMarkAssistBegin);
  t[EvHeapAlloc] = make("HeapAlloc", {"dt", "heapalloc_value"});
  t[EvHeapGoal] = make("HeapGoal", {"dt", "heapgoal_value"});
  t[EvGoLabel] = make("GoLabel", {"dt", "label_string"}, {}, {1});
  t[EvUserTaskBegin] = make("UserTaskBegin", {"dt", "task", "parent_task", "name_string", "stack"}, {4}, {3});
  t[EvUserTaskEnd] = make("UserTaskEnd", {"dt", "task", "stack"}, {2});
  t[EvUserRegionBegin] = make("UserRegionBegin", {"dt", "task", "name_string", "stack"}, {3}, {2});
  t[EvUserRegionEnd] = make("UserRegionEnd", {"dt", "task", "name_string", "stack"}, {3}, {2}, EvUserRegionBegin);
  t[EvUserLog] = make("UserLog", {"dt", "task", "key_string", "value_string", "stack"}, {4}, {2, 3});
  t[EvGoSwitch] = make("GoSwitch", {"dt", "g", "g_seq"}, {}, {}, EvNone, true, 23);
  t[EvGoSwitchDestroy] = make("GoSwitchDestroy", {"dt", "g", "g_seq"}, {}, {}, EvNone, true, 23);
  t[EvGoCreateBlocked] = make("GoCreateBlocked", {"dt", "new_g", "new_stack", "stack"}, {3, 2}, {}, EvNone, true, 23);
  t[EvGoStatusStack] = make("GoStatusStack", {"dt", "g", "m", "gstatus", "stack"}, {4}, {}, EvNone, true, 23);

  t[EvSpan] = experimental("Span", {"dt", "id", "npages_value", "kindclass"});
  t[EvSpanAlloc] = experimental("SpanAlloc", {"dt", "id", "npages_value", "kindclass"});
  t[EvSpanFree] = experimental("SpanFree", {"dt", "id"});
  t[EvHeapObject] = experimental("HeapObject", {"dt", "id", "type"});
  t[EvHeapObjectAlloc] = experimental("HeapObjectAlloc", {"dt", "id", "type"});
  t[EvHeapObjectFree] = experimental("HeapObjectFree", {"dt", "id"});
  t[EvGoroutineStack] = experimental("GoroutineStack", {"dt", "id", "order"});
  t[EvGoroutineStackAlloc] = experimental("GoroutineStackAlloc", {"dt", "id", "order"});
  t[EvGoroutineStackFree] = experimental("GoroutineStackFree", {"dt", "id"});
  return t;
}

}  // namespace

const std::array<EventSpec, 256> kSpecTable = build_table();
static const std::array<EventSpec, 256>& kTable = kSpecTable;

std::string event_name(uint8_t type) {
  if (type < kGo123TableSize && kTable[type].valid()) return std::string(kTable[type].name);
  if (type < kGo123TableSize) return "";  // Go prints an empty name for unused rows
  return "Invalid(" + std::to_string(type) + ")";
}

bool type_by_name(std::string_view name, uint8_t& type) {
  for (int i = 0; i < 256; i++) {
    if (kTable[i].valid() && kTable[i].name == name) {
      type = static_cast<uint8_t>(i);
      return true;
    }
  }
  return false;
}

std::string_view experiment_name(uint8_t experiment) {
  switch (experiment) {
    case 0: return "None";
    case 1: return "AllocFree";
  }
  return "";
}

}  // namespace gotrace::v2
