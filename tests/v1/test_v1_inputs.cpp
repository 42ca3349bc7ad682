// Small hand-built v1 traces: the conversion of each kind of event, Go's error for each
// kind of broken input (the expected texts are Go 1.23's, from `go tool trace -d=1` on
// the same bytes), Go 1.21's futile-wakeup removal, and inputs meant to hurt: truncated
// and corrupted corpus traces, huge counts and lengths, many Ps.
#include <catch2/catch.hpp>
#include <random>

#include "corpus.h"
#include "gotrace/reader.h"
#include "gotrace/v1_legacy.h"
#include "gotrace/v1_spec.h"
#include "stream_checker.h"
#include "v1_writer.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

// The v1 wire types, by their Go names.
constexpr uint8_t Batch = v1::EvBatch;
constexpr uint8_t Frequency = v1::EvFrequency;
constexpr uint8_t Stack = v1::EvStack;
constexpr uint8_t Gomaxprocs = v1::EvGomaxprocs;
constexpr uint8_t ProcStart = v1::EvProcStart;
constexpr uint8_t ProcStop = v1::EvProcStop;
constexpr uint8_t GCStart = v1::EvGCStart;
constexpr uint8_t GCDone = v1::EvGCDone;
constexpr uint8_t STWStart = v1::EvSTWStart;
constexpr uint8_t STWDone = v1::EvSTWDone;
constexpr uint8_t SweepStart = v1::EvGCSweepStart;
constexpr uint8_t SweepDone = v1::EvGCSweepDone;
constexpr uint8_t GoCreate = v1::EvGoCreate;
constexpr uint8_t GoStart = v1::EvGoStart;
constexpr uint8_t GoEnd = v1::EvGoEnd;
constexpr uint8_t GoSched = v1::EvGoSched;
constexpr uint8_t GoUnblock = v1::EvGoUnblock;
constexpr uint8_t GoBlockRecv = v1::EvGoBlockRecv;
constexpr uint8_t GoBlockSync = v1::EvGoBlockSync;
constexpr uint8_t GoBlockNet = v1::EvGoBlockNet;
constexpr uint8_t GoSysCall = v1::EvGoSysCall;
constexpr uint8_t GoSysExit = v1::EvGoSysExit;
constexpr uint8_t GoSysBlock = v1::EvGoSysBlock;
constexpr uint8_t GoWaiting = v1::EvGoWaiting;
constexpr uint8_t GoInSyscall = v1::EvGoInSyscall;
constexpr uint8_t HeapAlloc = v1::EvHeapAlloc;
constexpr uint8_t HeapGoal = v1::EvHeapGoal;
constexpr uint8_t FutileWakeup = v1::EvFutileWakeup;
constexpr uint8_t GoStartLocal = v1::EvGoStartLocal;
constexpr uint8_t GoUnblockLocal = v1::EvGoUnblockLocal;
constexpr uint8_t GoStartLabel = v1::EvGoStartLabel;
constexpr uint8_t MarkAssistStart = v1::EvGCMarkAssistStart;
constexpr uint8_t MarkAssistDone = v1::EvGCMarkAssistDone;
constexpr uint8_t UserTaskCreate = v1::EvUserTaskCreate;
constexpr uint8_t UserTaskEnd = v1::EvUserTaskEnd;
constexpr uint8_t UserRegion = v1::EvUserRegion;
constexpr uint8_t CPUSample = v1::EvCPUSample;

constexpr uint64_t kGHz = 1000000000;

// Touches most conversion rules: the initial state dump, tasks, regions, logs, blocking
// and non-blocking syscalls, GC, STW, sweeping, mark assists, labels, network and
// syscall Ps, Local events, a CPU sample (1.19+), stacks and strings.
std::vector<uint8_t> rich_trace(int minor) {
  V1Writer w(minor);
  w.ev(Batch, {0, 1000});
  w.ev(GoCreate, {0, 1, 0, 0});
  w.ev(GoCreate, {5, 2, 0, 0});
  w.ev(GoCreate, {5, 3, 0, 0});
  w.ev(GoWaiting, {5, 3});
  w.ev(GoCreate, {5, 4, 0, 0});
  w.ev(GoInSyscall, {5, 4});
  w.ev(ProcStart, {5, 7});
  w.ev(GoStart, {5, 1, 1});
  w.ev(Gomaxprocs, {5, 2, 1});
  w.string(1, "main.main").string(2, "main.go").string(3, "task0").string(4, "region0").string(5, "key0");
  w.string(6, "GC (dedicated)");
  w.ev(GoCreate, {5, 5, 2, 1});
  w.lp(UserTaskCreate, {5, 1, 0, 3, 1});
  w.lp(UserRegion, {5, 1, 0, 4, 1});
  w.user_log({5, 1, 5, 1}, "hello");
  w.lp(UserRegion, {5, 1, 1, 4, 1});
  w.ev(GoSysCall, {5, 1});
  w.ev(GoSysBlock, {5});
  w.ev(ProcStop, {5});
  w.ev(Batch, {1, 1100});
  w.ev(ProcStart, {0, 8});
  w.ev(GoStart, {5, 5, 1});
  w.ev(GCStart, {5, 0, 1});
  w.ev(STWStart, {5, 1});
  w.ev(STWDone, {5});
  w.ev(SweepStart, {5, 1});
  w.ev(SweepDone, {5, 4096, 2048});
  w.ev(MarkAssistStart, {5, 1});
  w.ev(MarkAssistDone, {5});
  w.ev(HeapAlloc, {5, 12345});
  w.ev(HeapGoal, {5, 99999});
  w.ev(GoSysCall, {5, 1});
  w.lp(UserTaskEnd, {5, 1, 1});
  w.ev(GoBlockRecv, {5, 1});
  w.ev(GoStartLabel, {5, 2, 1, 6});
  w.lp(GoUnblock, {5, 5, 2, 1});
  w.ev(GoSched, {5, 1});
  w.ev(GoStart, {5, 5, 3});
  w.ev(GCDone, {5});
  w.ev(GoEnd, {5});
  w.ev(GoStart, {5, 2, 2});
  w.ev(GoBlockNet, {5, 1});
  w.ev(ProcStop, {5});
  w.ev(Batch, {0, 1500});
  w.ev(ProcStart, {0, 7});
  w.lp(GoSysExit, {5, 1, 2, 1450});
  w.ev(GoStartLocal, {5, 1});
  w.ev(GoUnblockLocal, {5, 2, 1});
  w.ev(GoEnd, {5});
  w.ev(ProcStop, {5});
  if (minor >= 19) w.lp(CPUSample, {0, 1460, 0, 1, 1});
  w.ev(Batch, {0, 1600});
  w.lp(Stack, {1, 1, 0x401000, 1, 2, 10});
  w.lp(Stack, {2, 1, 0x402000, 1, 2, 20});
  w.ev(Frequency, {kGHz});
  return w.bytes();
}

// Go 1.23's `go tool trace -d=1` of rich_trace(21).
const char* const kRichDump =
    R"DUMP(M=-1 P=0 G=3 StateTransition Time=15 Resource=Goroutine(3) Reason="" GoID=3 Undetermined->Waiting
M=-1 P=0 G=4 StateTransition Time=25 Resource=Goroutine(4) Reason="" GoID=4 Undetermined->Syscall
M=7 P=0 G=-1 StateTransition Time=30 Resource=Proc(0) Reason="" ProcID=0 Undetermined->Running
M=7 P=0 G=1 StateTransition Time=35 Resource=Goroutine(1) Reason="" GoID=1 Undetermined->Running
M=-1 P=-1 G=-1 StateTransition Time=40 Resource=Goroutine(2) Reason="" GoID=2 Undetermined->Runnable
M=7 P=0 G=1 StateTransition Time=45 Resource=Goroutine(5) Reason="" GoID=5 NotExist->Runnable
TransitionStack=
	main.main @ 0x402000
		main.go:20

Stack=
	main.main @ 0x401000
		main.go:10

M=7 P=0 G=1 TaskBegin Time=50 ID=1 Parent=18446744073709551615 Type="task0"
Stack=
	main.main @ 0x401000
		main.go:10

M=7 P=0 G=1 RegionBegin Time=55 Task=1 Type="region0"
Stack=
	main.main @ 0x401000
		main.go:10

M=7 P=0 G=1 Log Time=60 Task=1 Category="key0" Message="hello"
Stack=
	main.main @ 0x401000
		main.go:10

M=7 P=0 G=1 RegionEnd Time=65 Task=1 Type="region0"
Stack=
	main.main @ 0x401000
		main.go:10

M=7 P=0 G=1 StateTransition Time=70 Resource=Goroutine(1) Reason="" GoID=1 Running->Syscall
TransitionStack=
	main.main @ 0x401000
		main.go:10

Stack=
	main.main @ 0x401000
		main.go:10

M=7 P=0 G=-1 StateTransition Time=80 Resource=Proc(0) Reason="" ProcID=0 Running->Idle
M=8 P=1 G=-1 StateTransition Time=100 Resource=Proc(1) Reason="" ProcID=1 Undetermined->Running
M=8 P=1 G=5 StateTransition Time=105 Resource=Goroutine(5) Reason="" GoID=5 Runnable->Running
M=-1 P=1000004 G=5 RangeBegin Time=110 Name="GC concurrent mark phase" Scope=None
Stack=
	main.main @ 0x401000
		main.go:10

M=8 P=1 G=5 RangeBegin Time=115 Name="stop-the-world (GC mark termination)" Scope=Goroutine(5)
M=8 P=1 G=5 RangeEnd Time=120 Name="stop-the-world (GC mark termination)" Scope=Goroutine(5) Attributes=[]
M=8 P=1 G=5 RangeBegin Time=125 Name="GC incremental sweep" Scope=Proc(1)
Stack=
	main.main @ 0x401000
		main.go:10

M=8 P=1 G=5 RangeEnd Time=130 Name="GC incremental sweep" Scope=Proc(1) Attributes=["bytes swept"=Uint64(4096) "bytes reclaimed"=Uint64(2048)]
M=8 P=1 G=5 RangeBegin Time=135 Name="GC mark assist" Scope=Goroutine(5)
Stack=
	main.main @ 0x401000
		main.go:10

M=8 P=1 G=5 RangeEnd Time=140 Name="GC mark assist" Scope=Goroutine(5) Attributes=[]
M=8 P=1 G=5 Metric Time=145 Name="/memory/classes/heap/objects:bytes" Value=Uint64(12345)
M=8 P=1 G=5 Metric Time=150 Name="/gc/heap/goal:bytes" Value=Uint64(99999)
M=8 P=1 G=5 StateTransition Time=155 Resource=Goroutine(5) Reason="" GoID=5 Running->Syscall
TransitionStack=
	main.main @ 0x401000
		main.go:10

Stack=
	main.main @ 0x401000
		main.go:10

M=8 P=1 G=5 StateTransition Time=156 Resource=Goroutine(5) Reason="" GoID=5 Syscall->Running
M=8 P=1 G=5 TaskEnd Time=160 ID=1 Parent=0 Type="task0"
Stack=
	main.main @ 0x401000
		main.go:10

M=8 P=1 G=5 StateTransition Time=165 Resource=Goroutine(5) Reason="chan receive" GoID=5 Running->Waiting
TransitionStack=
	main.main @ 0x401000
		main.go:10

Stack=
	main.main @ 0x401000
		main.go:10

M=8 P=1 G=2 StateTransition Time=170 Resource=Goroutine(2) Reason="" GoID=2 Runnable->Running
M=8 P=1 G=2 Label Time=171 Label="GC (dedicated)" Resource=Goroutine(2)
M=8 P=1 G=2 StateTransition Time=175 Resource=Goroutine(5) Reason="" GoID=5 Waiting->Runnable
Stack=
	main.main @ 0x401000
		main.go:10

M=8 P=1 G=2 StateTransition Time=180 Resource=Goroutine(2) Reason="runtime.Gosched" GoID=2 Running->Runnable
TransitionStack=
	main.main @ 0x401000
		main.go:10

Stack=
	main.main @ 0x401000
		main.go:10

M=8 P=1 G=5 StateTransition Time=185 Resource=Goroutine(5) Reason="" GoID=5 Runnable->Running
M=8 P=1 G=5 RangeEnd Time=190 Name="GC concurrent mark phase" Scope=None Attributes=[]
M=8 P=1 G=5 StateTransition Time=195 Resource=Goroutine(5) Reason="" GoID=5 Running->NotExist
M=8 P=1 G=2 StateTransition Time=200 Resource=Goroutine(2) Reason="" GoID=2 Runnable->Running
M=8 P=1 G=2 StateTransition Time=205 Resource=Goroutine(2) Reason="network" GoID=2 Running->Waiting
TransitionStack=
	main.main @ 0x401000
		main.go:10

Stack=
	main.main @ 0x401000
		main.go:10

M=8 P=1 G=-1 StateTransition Time=210 Resource=Proc(1) Reason="" ProcID=1 Running->Idle
M=-1 P=1000003 G=1 StateTransition Time=450 Resource=Goroutine(1) Reason="" GoID=1 Syscall->Runnable
M=-1 P=0 G=1 StackSample Time=460
Stack=
	main.main @ 0x401000
		main.go:10

M=7 P=0 G=-1 StateTransition Time=500 Resource=Proc(0) Reason="" ProcID=0 Idle->Running
M=7 P=0 G=1 StateTransition Time=510 Resource=Goroutine(1) Reason="" GoID=1 Runnable->Running
M=-1 P=1000002 G=1 StateTransition Time=515 Resource=Goroutine(2) Reason="" GoID=2 Waiting->Runnable
Stack=
	main.main @ 0x401000
		main.go:10

M=7 P=0 G=1 StateTransition Time=520 Resource=Goroutine(1) Reason="" GoID=1 Running->NotExist
M=7 P=0 G=-1 StateTransition Time=525 Resource=Proc(0) Reason="" ProcID=0 Running->Idle
)DUMP";

// The start of a valid 1.11 trace: P 0 running, GOMAXPROCS known.
V1Writer started(int minor = 11) {
  V1Writer w(minor);
  w.ev(Batch, {0, 1000});
  w.ev(ProcStart, {5, 7});
  w.ev(Gomaxprocs, {5, 2, 0});
  return w;
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  ReadResult r = read_trace(bytes);
  return r.ok() ? std::string() : r.error->message();
}

}  // namespace

TEST_CASE("every kind of v1 event converts as Go 1.23 converts it", "[v1][convert]") {
  for (int minor : {11, 19, 21}) {
    DYNAMIC_SECTION("go 1." << minor) {
      ReadResult r = read_go123(rich_trace(minor));
      REQUIRE(r.ok());
      std::string want = kRichDump;
      if (minor < 21) {  // STW kind 1 is the sweep termination before 1.21
        for (size_t at; (at = want.find("(GC mark termination)")) != std::string::npos;) {
          want.replace(at, 21, "(GC sweep termination)");
        }
      }
      if (minor < 19) {  // no CPU sample
        size_t at = want.find("M=-1 P=0 G=1 StackSample");
        want.erase(at, want.find("M=7 P=0 G=-1 StateTransition Time=500") - at);
      }
      CHECK(dump_text(r, GoListing::Go123) == want);
      CHECK(StreamChecker::check_all(r.store) == "");
    }
  }
}

TEST_CASE("broken v1 traces fail with Go's errors", "[v1][errors]") {
  struct Case {
    const char* name;
    std::vector<uint8_t> bytes;
    const char* error;
  };
  std::vector<Case> cases;
  auto add = [&](const char* name, const V1Writer& w, const char* error) { cases.push_back({name, w.bytes(), error}); };
  auto freq = [](V1Writer w) { return w.ev(Frequency, {kGHz}); };
  {
    auto w = started();
    w.raw({0x3f});
    add("unknown type", w, "unknown event type 63");
  }
  {
    auto w = started();
    w.lp(CPUSample, {0, 1, 2, 3, 4});
    add("event newer than the header", w, "unknown event type 49");
  }
  {
    V1Writer w(11);
    w.ev(ProcStart, {5, 7});
    add("event before any batch", w, "read event 5 with current P of 0, but P has no batches yet");
  }
  {
    auto w = started();
    w.raw({0xc0 | ProcStart, 0x90, 0x10});
    add("long length prefix", w,
        "failed to read event 5 argument: length-prefixed argument too big: 2064 bytes, limit is 2048");
  }
  {
    auto w = started();
    w.raw({0xc0 | GoCreate, 10, 1, 2});
    add("length past the end", w, "failed to read trace: EOF");
  }
  {
    auto w = started();
    w.raw({ProcStop});
    add("cut varint", w, "failed to read event 6 argument: malformatted base-128 varint");
  }
  {
    auto w = started();
    w.raw({Batch, 0});
    add("batch arity", w, "EvBatch has wrong number of arguments: got 1, want 2");
  }
  {
    auto w = started();
    w.ev(Batch, {0x100000000ull, 5});
    add("huge P", w, "processor ID 4294967296 is larger than maximum of 18446744073709551615");
  }
  {
    auto w = freq(started());
    w.string(1, "a").string(1, "b");
    add("duplicate string", w, "string has duplicate id 1");
  }
  {
    auto w = freq(started());
    w.string(0, "a");
    add("string id 0", w, "string has invalid id 0");
  }
  {
    auto w = freq(started());
    w.raw({37, 1, 0});
    add("empty string", w, "string has invalid length 0");
  }
  {
    auto w = freq(started());
    w.raw({37, 1, 0x81, 0x84, 0x3d});
    add("string past the end", w, "failed to read trace: EOF");
  }
  {
    auto w = freq(started());
    w.lp(Stack, {1, 1001});
    add("too many frames", w, "EvStack has bad number of frames: 1001");
  }
  {
    auto w = freq(started());
    w.lp(Stack, {1, 2, 1, 2, 3, 4});
    add("short stack", w, "EvStack has wrong number of arguments: want 10, got 6");
  }
  {
    auto w = freq(started());
    w.lp(Stack, {1});
    add("stack without size", w, "EvStack has wrong number of arguments: want at least 2, got 1");
  }
  {
    auto w = started();
    w.ev(Frequency, {0});
    add("zero frequency", w, "time stamps out of order");
  }
  { add("no frequency", started(), "no EvFrequency event"); }
  { add("header only", V1Writer(11), "no EvFrequency event"); }
  {
    auto w = started();
    w.ev(GoUnblock, {5, 1, 0});
    add("arity", w, "GoUnblock has wrong number of arguments: want 4, got 3");
  }
  {
    auto w = started();
    w.ev(GoStart, {5, 9, 0});
    add("unstartable goroutine", freq(w), "no consistent ordering of events possible");
  }
  {
    auto w = started();
    w.ev(GoCreate, {5, 1, 0, 0}).ev(Batch, {1, 900}).ev(ProcStart, {5, 8}).ev(GoStart, {5, 1, 1});
    add("clock skew", freq(w), "time stamps out of order");
  }
  {
    auto w = started();
    w.ev(GoCreate, {5, 1, 0, 0})
        .ev(GoStart, {5, 1, 1})
        .ev(GoSysCall, {5, 0})
        .ev(GoSysBlock, {5})
        .lp(GoSysExit, {5, 1, 2, 1});
    add("syscall exit before its block", freq(w), "time stamps out of order");
  }
  {
    auto w = started();
    w.ev(ProcStart, {5, 1});
    add("P started twice", freq(w), "p 0 is running before start (time 10)");
  }
  {
    auto w = started();
    w.ev(ProcStop, {5}).ev(ProcStop, {5});
    add("P stopped twice", freq(w), "p 0 is not running before stop (time 15)");
  }
  {
    auto w = started();
    w.ev(GoEnd, {5});
    add("goroutine 0 ends", freq(w), "g 0 did GoEnd (time 10)");
  }
  {
    auto w = started();
    w.ev(GCDone, {5});
    add("lone GC end", freq(w), "bogus GC end (time 10)");
  }
  {
    auto w = started();
    w.ev(STWDone, {5});
    add("lone STW end", freq(w), "bogus STW end (time 10)");
  }
  {
    auto w = started();
    w.ev(SweepDone, {5, 0, 0});
    add("lone sweep end", freq(w), "bogus sweeping end (time 10)");
  }
  {
    auto w = started();
    w.ev(GCStart, {5, 0, 0}).ev(GCStart, {5, 1, 0});
    add("GC in GC", freq(w), "previous GC is not ended before a new one (time 15)");
  }
  {
    auto w = started();
    w.ev(GoCreate, {5, 1, 0, 0})
        .ev(GoStart, {5, 1, 1})
        .lp(UserTaskCreate, {5, 1, 0, 0, 0})
        .lp(UserTaskCreate, {5, 1, 0, 0, 0});
    add("task twice", freq(w),
        R"(task id conflicts (id:1), "25 UserTaskCreate p=0 g=1 stk=0 taskid=1 pid=0 typeid=0" vs "20 UserTaskCreate p=0 g=1 stk=0 taskid=1 pid=0 typeid=0")");
  }
  {
    auto w = started();
    w.ev(GoCreate, {5, 1, 0, 0}).ev(GoStart, {5, 1, 1}).lp(UserRegion, {5, 1, 0, 1, 0}).lp(UserRegion, {5, 2, 1, 1, 0});
    add("crossed regions", freq(w),
        R"(misuse of region in goroutine 1: span end "25 UserRegion p=0 g=1 stk=0 taskid=2 mode=1 typeid=1" when the inner-most active span start event is "20 UserRegion p=0 g=1 stk=0 taskid=1 mode=0 typeid=1")");
  }
  {
    auto w = started();
    w.ev(GoCreate, {5, 1, 0, 0}).ev(GoStart, {5, 1, 1}).lp(UserRegion, {5, 1, 2, 1, 0});
    add("region mode", freq(w), R"(invalid user region mode: "20 UserRegion p=0 g=1 stk=0 taskid=1 mode=2 typeid=1")");
  }
  {
    auto w = started();
    w.ev(GoCreate, {5, 1, 0, 0}).ev(GoStart, {5, 1, 1}).ev(FutileWakeup, {5}).ev(GoEnd, {5});
    add("futile wakeup", freq(w), "unexpected event type 36");
  }

  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      CHECK(error_of(c.bytes) == c.error);
      // Go 1.21 rejects these too (and a FutileWakeup it does not know is fine for it).
      v1::LegacyList list = v1::read_legacy(c.bytes);
      if (std::string(c.error) != "unexpected event type 36" && std::string(c.name) != "event before any batch" &&
          std::string(c.name) != "long length prefix") {
        CHECK_FALSE(list.ok());
      }
    }
  }
}

TEST_CASE("a conversion error keeps the events before it", "[v1][errors]") {
  auto w = started();
  w.ev(GoCreate, {5, 1, 0, 0}).ev(GoStart, {5, 1, 1}).ev(FutileWakeup, {5}).ev(GoEnd, {5}).ev(Frequency, {kGHz});
  ReadResult r = read_trace(w.bytes());
  REQUIRE_FALSE(r.ok());
  CHECK(r.store.size() == 4);  // Go 1.27's leading Sync, ProcStatus, GoCreate, GoStart
  CHECK(r.error->where().offset.has_value());
  CHECK(r.error->where().event == "FutileWakeup");
}

TEST_CASE("Go 1.21 removes futile wakeups; the 1.7 conversion keeps the transitions", "[v1][legacy][futile]") {
  // g1 blocks on a mutex, g2 wakes it, g1 runs, finds the mutex taken and blocks again.
  V1Writer w(7);
  w.ev(Batch, {0, 1000});
  w.ev(ProcStart, {5, 0});
  w.ev(Gomaxprocs, {5, 1, 0});
  w.ev(GoCreate, {5, 1, 0, 0}).ev(GoCreate, {5, 2, 0, 0});
  w.ev(GoStart, {5, 1, 1}).ev(GoBlockSync, {5, 0});
  w.ev(GoStart, {5, 2, 1}).ev(GoUnblockLocal, {5, 1, 0}).ev(GoEnd, {5});
  w.ev(GoStartLocal, {5, 1}).ev(FutileWakeup, {5}).ev(GoBlockSync, {5, 0});
  w.ev(ProcStop, {5});
  w.ev(Frequency, {kGHz});

  v1::LegacyList list = v1::read_legacy(w.bytes());
  REQUIRE(list.ok());
  std::string text;
  v1::append_legacy_dump(text, list);
  CHECK(text ==
        "version 1007\n"
        "0 ProcStart p=0 g=0 off=20 thread=0 stk=0\n"
        "5 Gomaxprocs p=0 g=0 off=23 procs=1 stk=0\n"
        "10 GoCreate p=0 g=0 off=27 g=1 stack=0 stk=0\n"
        "15 GoCreate p=0 g=0 off=33 g=2 stack=0 stk=0\n"
        "20 GoStart p=0 g=1 off=39 g=1 seq=1 stk=0\n"
        "25 GoBlockSync p=0 g=1 off=43 stk=0\n"
        "30 GoStart p=0 g=2 off=46 g=2 seq=1 stk=0\n"
        "40 GoEnd p=0 g=2 off=54 stk=0\n"
        "60 ProcStop p=0 g=0 off=64 stk=0\n");

  ReadResult r = read_trace(w.bytes());
  REQUIRE(r.ok());
  CHECK(StreamChecker::check_all(r.store) == "");
  size_t blocks = 0;
  for (size_t i = 0; i < r.store.size(); i++) blocks += r.store.type(i) == v2::EvGoBlock;
  CHECK(blocks == 2);
}

TEST_CASE("the legacy list keeps 1.5-1.9 STW pairs per P", "[v1][legacy]") {
  V1Writer w(9);
  w.ev(Batch, {0, 1000}).ev(ProcStart, {5, 0}).ev(Gomaxprocs, {5, 2, 0}).ev(STWStart, {5}).ev(STWDone, {20});
  w.ev(Batch, {1, 1000}).ev(ProcStart, {6, 1}).ev(STWStart, {5}).ev(STWDone, {5});
  w.ev(Frequency, {kGHz});
  v1::LegacyList list = v1::read_legacy(w.bytes());
  REQUIRE(list.ok());
  REQUIRE(list.size() == 7);
  CHECK(StreamChecker::check_all(read_trace(w.bytes()).store) == "");
}

TEST_CASE("many Ps merge without a quadratic scan", "[v1][order]") {
  // Each P runs its own goroutine, created on P 0: the lists wait on each other.
  constexpr uint64_t kProcs = 3000;
  V1Writer w(11);
  w.ev(Batch, {0, 1000}).ev(ProcStart, {1, 0}).ev(Gomaxprocs, {1, kProcs, 0});
  for (uint64_t p = 1; p <= kProcs; p++) w.ev(GoCreate, {1, p, 0, 0});
  for (uint64_t p = 1; p <= kProcs; p++) {
    w.ev(Batch, {p, 100000 + p}).ev(ProcStart, {1, p}).ev(GoStart, {1, p, 1}).ev(GoEnd, {1}).ev(ProcStop, {1});
  }
  w.ev(Frequency, {kGHz});
  ReadResult r = read_trace(w.bytes());
  REQUIRE(r.ok());
  CHECK(r.store.size() == 2 + 1 + 5 * kProcs);  // with Go 1.27's first and last Syncs
  v1::LegacyList list = v1::read_legacy(w.bytes());
  REQUIRE(list.ok());
  CHECK(list.size() == 2 + 5 * kProcs);
}

TEST_CASE("syscalls that never return are converted in linear time", "[v1][convert]") {
  // Every goroutine's last event is a syscall, far from anything else of its own: each
  // blocks its thread, and the P goes on with a new one.
  constexpr uint64_t kGoroutines = 20000;
  V1Writer w(11);
  w.ev(Batch, {0, 1000}).ev(ProcStart, {1, 0}).ev(Gomaxprocs, {1, 1, 0}).ev(ProcStop, {1});
  for (uint64_t g = 1; g <= kGoroutines; g++) {
    w.ev(ProcStart, {1, g}).ev(GoCreate, {1, g, 0, 0}).ev(GoStart, {1, g, 1});
    w.ev(GoSysCall, {1, 0}).ev(GoSysBlock, {1}).ev(ProcStop, {1});
  }
  w.ev(ProcStart, {1, kGoroutines + 1});
  for (uint64_t g = 1; g <= kGoroutines; g++) w.ev(HeapAlloc, {1, g});
  w.ev(Frequency, {kGHz});
  ReadResult r = read_trace(w.bytes());
  REQUIRE(r.ok());
  CHECK(StreamChecker::check_all(r.store) == "");
}

TEST_CASE("huge ids cost nothing", "[v1][robust]") {
  const uint64_t big = uint64_t{1} << 62;
  V1Writer w(11);
  w.ev(Batch, {0, 1000}).ev(ProcStart, {5, big}).ev(Gomaxprocs, {5, 2, 0});
  for (uint64_t i = 0; i < 200; i++) {
    w.ev(GoCreate, {5, big + i, big + 1, big + 2});
    w.ev(GoStart, {5, big + i, 1});
    w.lp(UserTaskCreate, {5, big + i, 0, big + 3, big + 2});
    w.ev(GoEnd, {5});
  }
  w.string(big + 3, "task").lp(Stack, {big + 2, 1, 0x1234, big + 3, big + 3, 7});
  w.ev(Frequency, {kGHz});
  ReadResult r = read_trace(w.bytes());
  INFO((r.ok() ? std::string() : r.error->what()));
  REQUIRE(r.ok());
  // The first Gomaxprocs ends the initial state; Go 1.27 adds a first and a last Sync.
  CHECK(r.store.size() == 2 + 1 + 4 * 200);
  CHECK(StreamChecker::check_all(r.store) == "");
  v1::LegacyList list = v1::read_legacy(w.bytes());
  CHECK(list.ok());
}

TEST_CASE("hostile sizes fail cleanly", "[v1][errors]") {
  auto w = started();
  SECTION("a length prefix of 2^63 (Go 1.21 has no limit)") {
    w.raw({0xc0 | GoCreate, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01});
    CHECK_FALSE(read_trace(w.bytes()).ok());
    CHECK_FALSE(v1::read_legacy(w.bytes()).ok());
  }
  SECTION("a stack of 1000 frames in a short event") {
    w.lp(Stack, {1, 1000, 1, 2, 3, 4});
    CHECK_FALSE(read_trace(w.bytes()).ok());
    CHECK_FALSE(v1::read_legacy(w.bytes()).ok());
  }
  SECTION("a user log message of 2^40 bytes") {
    w.ev(GoCreate, {5, 1, 0, 0}).ev(GoStart, {5, 1, 1});
    w.lp(48, {5, 1, 0, 0});
    V1Writer::put(const_cast<std::vector<uint8_t>&>(w.bytes()), uint64_t(1) << 40);
    CHECK_FALSE(read_trace(w.bytes()).ok());
    CHECK_FALSE(v1::read_legacy(w.bytes()).ok());
  }
  SECTION("an 11-byte varint") {
    w.raw({ProcStop, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01});
    CHECK_FALSE(read_trace(w.bytes()).ok());
    CHECK_FALSE(v1::read_legacy(w.bytes()).ok());
  }
}

TEST_CASE("truncated and corrupted v1 traces never crash", "[v1][robust]") {
  for (const char* name : {"user_task_region_1_21_good", "http_1_19_good", "stress_start_stop_1_11_good",
                           "http_1_5_good", "http_1_7_good", "stress_start_stop_1_9_good", "http_1_10_good"}) {
    DYNAMIC_SECTION(name) {
      auto bytes = read_bytes(corpus_path(std::string(name) + ".trace"));
      size_t step = std::max<size_t>(1, bytes.size() / 300);
      for (size_t n = 0; n < bytes.size(); n += step) {
        std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
        ReadResult r = read_trace(cut);
        v1::LegacyList l = v1::read_legacy(cut);
        CHECK((r.ok() || r.error.has_value()));
        CHECK((l.ok() || l.error().has_value()));
      }
      std::mt19937_64 rng(42);
      for (int round = 0; round < 150; round++) {
        std::vector<uint8_t> bad = bytes;
        int flips = 1 + static_cast<int>(rng() % 4);
        for (int f = 0; f < flips; f++) {
          size_t at = 16 + rng() % (bad.size() - 16);
          bad[at] = static_cast<uint8_t>(rng());
        }
        ReadResult r = read_trace(bad);
        if (r.ok()) CHECK(StreamChecker::check_all(r.store).find("timestamp") == std::string::npos);
        v1::LegacyList l = v1::read_legacy(bad);
        std::string text;
        v1::append_legacy_dump(text, l);
        CHECK(!text.empty());
      }
    }
  }
}
