#include "gotrace/v1_spec.h"

namespace gotrace::v1 {
namespace {

constexpr EventSpec make(std::string_view name, uint8_t since, bool stack, std::initializer_list<std::string_view> args,
                         std::initializer_list<std::string_view> sargs = {}) {
  EventSpec s;
  s.name = name;
  s.since = since;
  s.stack = stack;
  for (auto a : args) s.args[s.nargs++] = a;
  for (auto a : sargs) s.sargs[s.nsargs++] = a;
  return s;
}

constexpr std::array<EventSpec, 256> build_table() {
  std::array<EventSpec, 256> t{};
  t[EvBatch] = make("Batch", 5, false, {"p", "ticks"});    // 1.5: p, seq, ticks
  t[EvFrequency] = make("Frequency", 5, false, {"freq"});  // 1.5: freq, unused
  t[EvStack] = make("Stack", 5, false, {"id", "siz"});
  t[EvGomaxprocs] = make("Gomaxprocs", 5, true, {"procs"});
  t[EvProcStart] = make("ProcStart", 5, false, {"thread"});
  t[EvProcStop] = make("ProcStop", 5, false, {});
  t[EvGCStart] = make("GCStart", 5, true, {"seq"});  // 1.5: no seq
  t[EvGCDone] = make("GCDone", 5, false, {});
  t[EvSTWStart] = make("STWStart", 5, false, {"kindid"}, {"kind"});  // before 1.10: no kind
  t[EvSTWDone] = make("STWDone", 5, false, {});
  t[EvGCSweepStart] = make("GCSweepStart", 5, true, {});
  t[EvGCSweepDone] = make("GCSweepDone", 5, false, {"swept", "reclaimed"});  // before 1.9: none
  t[EvGoCreate] = make("GoCreate", 5, true, {"g", "stack"});
  t[EvGoStart] = make("GoStart", 5, false, {"g", "seq"});  // 1.5: no seq
  t[EvGoEnd] = make("GoEnd", 5, false, {});
  t[EvGoStop] = make("GoStop", 5, true, {});
  t[EvGoSched] = make("GoSched", 5, true, {});
  t[EvGoPreempt] = make("GoPreempt", 5, true, {});
  t[EvGoSleep] = make("GoSleep", 5, true, {});
  t[EvGoBlock] = make("GoBlock", 5, true, {});
  t[EvGoUnblock] = make("GoUnblock", 5, true, {"g", "seq"});  // 1.5: no seq
  t[EvGoBlockSend] = make("GoBlockSend", 5, true, {});
  t[EvGoBlockRecv] = make("GoBlockRecv", 5, true, {});
  t[EvGoBlockSelect] = make("GoBlockSelect", 5, true, {});
  t[EvGoBlockSync] = make("GoBlockSync", 5, true, {});
  t[EvGoBlockCond] = make("GoBlockCond", 5, true, {});
  t[EvGoBlockNet] = make("GoBlockNet", 5, true, {});
  t[EvGoSysCall] = make("GoSysCall", 5, true, {});
  t[EvGoSysExit] = make("GoSysExit", 5, false, {"g", "seq", "ts"});
  t[EvGoSysBlock] = make("GoSysBlock", 5, false, {});
  t[EvGoWaiting] = make("GoWaiting", 5, false, {"g"});
  t[EvGoInSyscall] = make("GoInSyscall", 5, false, {"g"});
  t[EvHeapAlloc] = make("HeapAlloc", 5, false, {"mem"});
  t[EvHeapGoal] = make("HeapGoal", 5, false, {"mem"});
  t[EvTimerGoroutine] = make("TimerGoroutine", 5, false, {"g"});  // 1.5: g, unused
  t[EvFutileWakeup] = make("FutileWakeup", 5, false, {});
  t[EvString] = make("String", 7, false, {});
  t[EvGoStartLocal] = make("GoStartLocal", 7, false, {"g"});
  t[EvGoUnblockLocal] = make("GoUnblockLocal", 7, true, {"g"});
  t[EvGoSysExitLocal] = make("GoSysExitLocal", 7, false, {"g", "ts"});
  t[EvGoStartLabel] = make("GoStartLabel", 8, false, {"g", "seq", "labelid"}, {"label"});
  t[EvGoBlockGC] = make("GoBlockGC", 8, true, {});
  t[EvGCMarkAssistStart] = make("GCMarkAssistStart", 9, true, {});
  t[EvGCMarkAssistDone] = make("GCMarkAssistDone", 9, false, {});
  t[EvUserTaskCreate] = make("UserTaskCreate", 11, true, {"taskid", "pid", "typeid"}, {"name"});
  t[EvUserTaskEnd] = make("UserTaskEnd", 11, true, {"taskid"});
  t[EvUserRegion] = make("UserRegion", 11, true, {"taskid", "mode", "typeid"}, {"name"});
  t[EvUserLog] = make("UserLog", 11, true, {"id", "keyid"}, {"category", "message"});
  t[EvCPUSample] = make("CPUSample", 19, true, {"ts", "p", "g"});
  for (uint8_t type : {EvGoSleep, EvGoBlock, EvGoBlockSend, EvGoBlockRecv, EvGoBlockSelect, EvGoBlockSync,
                       EvGoBlockCond, EvGoBlockNet, EvGoBlockGC})
    t[type].blocks = true;
  for (uint8_t type : {EvGoStop, EvGoSched, EvGoPreempt}) t[type].stops = true;
  return t;
}

constexpr std::array<EventSpec, 256> kTable = build_table();

// The runtime's STW reasons as Go 1.21 spells them (index = the 1.21 wire kind).
constexpr std::array<std::string_view, 17> kGo121StwReasons = {
    "unknown",
    "GC mark termination",
    "GC sweep termination",
    "write heap dump",
    "goroutine profile",
    "goroutine profile cleanup",
    "all goroutines stack trace",
    "read mem stats",
    "AllThreadsSyscall",
    "GOMAXPROCS",
    "start trace",
    "stop trace",
    "CountPagesInUse (test)",
    "ReadMetricsSlow (test)",
    "ReadMemStatsSlow (test)",
    "PageCachePagesLeaked (test)",
    "ResetDebugLog (test)",
};

// The same reasons as Go 1.23's converter spells them.
constexpr std::array<std::string_view, 17> kConvertedStwReasons = {
    "",
    "GC mark termination",
    "GC sweep termination",
    "write heap dump",
    "goroutine profile",
    "goroutine profile cleanup",
    "all goroutine stack trace",
    "read mem stats",
    "AllThreadsSyscall",
    "GOMAXPROCS",
    "start trace",
    "stop trace",
    "CountPagesInUse (test)",
    "ReadMetricsSlow (test)",
    "ReadMemStatsSlow (test)",
    "PageCachePagesLeaked (test)",
    "ResetDebugLog (test)",
};

}  // namespace

bool is_known_version(int minor) {
  switch (minor) {
    case 5:
    case 7:
    case 8:
    case 9:
    case 10:
    case 11:
    case 19:
    case 21:
      return true;
  }
  return false;
}

const EventSpec& spec(uint8_t type) { return kTable[type]; }

int wire_value_count(uint8_t type, int minor) {
  const EventSpec& s = kTable[type];
  int n = s.nargs + (s.stack ? 1 : 0);
  if (type == EvBatch || type == EvFrequency || type == EvTimerGoroutine) {
    return minor < 7 ? n + 1 : n;  // 1.5 wrote an unused value (or the batch's seq)
  }
  n++;                 // tick delta
  if (minor < 7) n++;  // sequence delta
  switch (type) {
    case EvGCSweepDone:
      if (minor < 9) n -= 2;  // swept, reclaimed came with 1.9
      break;
    case EvGCStart:
    case EvGoStart:
    case EvGoUnblock:
      if (minor < 7) n--;  // seq came with 1.7
      break;
    case EvSTWStart:
      if (minor < 10) n--;  // kind came with 1.10
      break;
  }
  return n;
}

bool legacy_stw_kind(int minor, uint64_t kind, std::string_view& out) {
  if (minor >= 21) {
    out = kind < kGo121StwReasons.size() ? kGo121StwReasons[kind] : kGo121StwReasons[0];
    return true;
  }
  if (kind > 1) return false;
  out = kind == 0 ? "mark termination" : "sweep termination";
  return true;
}

std::string_view converted_stw_reason(int minor, uint64_t kind) {
  if (minor < 21) return kind <= 1 ? kConvertedStwReasons[kind + 1] : kConvertedStwReasons[0];
  if (minor == 21 && kind < kConvertedStwReasons.size()) return kConvertedStwReasons[kind];
  return kConvertedStwReasons[0];
}

}  // namespace gotrace::v1
