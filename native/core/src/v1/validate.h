// The old parsers' last pass, postProcessTrace (FORMAT.md §3.4 "Validation errors",
// §3.7 "Validation"): the goroutine and P state machines, GC, STW, sweep and mark-assist
// pairing, tasks and regions, and the rewrites that come with it.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "gotrace/flat_map.h"
#include "strings_util.h"
#include "id_map.h"
#include "trace.h"

namespace gotrace::v1 {

// Checks the ordered events one at a time; throws TraceError at the first inconsistency.
// Rewrites as Go does: GCStart's P becomes GCP, an unblock of a goroutine blocked on the
// network gets NetpollP, and a goroutine's first start carries its creation stack.
// Defined here so that the read loop inlines step() beside the conversion.
class Validator {
 public:
  explicit Validator(const Trace& t);
  [[gnu::always_inline]] void step(Event& ev);

 private:
  enum : uint8_t { gDead, gRunnable, gRunning, gWaiting };

  struct GDesc {
    uint8_t state = gDead;
    uint8_t last = EvNone;  // type of the event that last changed its state (Go's g.ev)
    bool created = false;   // a GoCreate waits for the first start (Go's g.evCreate)
    bool mark_assist = false;
    bool known = false;         // Go has an entry for it: GoCreate of a known ID fails
    uint64_t create_stack = 0;  // the GoCreate's new-goroutine stack (1.5: start PC)
  };

  struct PDesc {
    bool running = false;
    bool sweep = false;
    bool stw = false;  // before 1.10, STW pairs are per P
    uint64_t g = 0;
  };

  // Go's messages end with the time (Go 1.21: and the offset) of the event.
  [[noreturn, gnu::cold, gnu::noinline]] void fail(const Event& ev, std::string msg) const;
  std::string quoted(const Event& ev) const;
  [[gnu::always_inline]] void check_running(const Event& ev, const GDesc& g, const PDesc& p, bool allow_g0) const {
    if (g.state != gRunning || p.g != ev.g || (!allow_g0 && ev.g == 0)) [[unlikely]] {
      not_running(ev, g, p);
    }
  }
  // The error of a failed check_running.
  [[noreturn, gnu::cold, gnu::noinline]] void not_running(const Event& ev, const GDesc& g, const PDesc& p) const;
  GDesc& g_of(uint64_t g) { return gs_[g]; }
  PDesc& p_of(int64_t p) { return ps_[static_cast<uint64_t>(p)]; }
  // The event's goroutine, checked to be running on its P, stops running there and is
  // now in `state` (ends, preemptions, blocks).
  [[gnu::always_inline]] GDesc& leave_p(const Event& ev, uint8_t state) {
    GDesc& g = g_of(ev.g);
    PDesc& p = p_of(ev.p);
    check_running(ev, g, p, false);
    g.state = state;
    p.g = 0;
    g.known = true;
    return g;
  }
  void task_create(const Event& ev);
  void user_region(const Event& ev);

  const Trace& t_;
  const bool go121_;
  IdMap<GDesc> gs_;
  IdMap<PDesc> ps_{1024};  // Ps are small numbers, plus -1 and the fake Ps
  bool gc_open_ = false;
  bool stw_open_ = false;
  FlatMap<Event> tasks_;  // open task -> its UserTaskCreate
  FlatMap<uint32_t> region_slot_;
  std::vector<std::vector<Event>> regions_;  // per goroutine: the open regions' starts
};

// Validates the ordered events.
void validate(Trace& t, std::span<Event> events);

inline void Validator::step(Event& ev) {
  // Go 1.21 writes every event's goroutine back into its map, so any earlier event makes
  // an ID known; Go 1.23 only the events that change a goroutine.
  if (go121_) g_of(ev.g).known = true;

  switch (ev.type) {
    case EvProcStart: {
      PDesc& p = p_of(ev.p);
      if (p.running) fail(ev, fmt("p %lld is running before start", (long long)ev.p));
      p.running = true;
      break;
    }
    case EvProcStop: {
      PDesc& p = p_of(ev.p);
      if (!p.running) fail(ev, fmt("p %lld is not running before stop", (long long)ev.p));
      if (p.g != 0) {
        fail(ev, fmt("p %lld is running a goroutine %llu during stop", (long long)ev.p, (unsigned long long)p.g));
      }
      p.running = false;
      break;
    }
    case EvGCStart:
      if (gc_open_) fail(ev, "previous GC is not ended before a new one");
      gc_open_ = true;
      ev.p = kGCP;  // GC is global state
      break;
    case EvGCDone:
      if (!gc_open_) fail(ev, "bogus GC end");
      gc_open_ = false;
      break;
    case EvSTWStart:
    case EvSTWDone: {
      bool& open = go121_ && t_.minor < 10 ? p_of(ev.p).stw : stw_open_;
      if (ev.type == EvSTWStart) {
        if (open) fail(ev, "previous STW is not ended before a new one");
        open = true;
      } else {
        if (!open) fail(ev, "bogus STW end");
        open = false;
      }
      break;
    }
    case EvGCSweepStart: {
      PDesc& p = p_of(ev.p);
      if (p.sweep) fail(ev, "previous sweeping is not ended before a new one");
      p.sweep = true;
      break;
    }
    case EvGCSweepDone: {
      PDesc& p = p_of(ev.p);
      if (!p.sweep) fail(ev, "bogus sweeping end");
      p.sweep = false;
      break;
    }
    case EvGCMarkAssistStart: {
      GDesc& g = g_of(ev.g);
      if (g.mark_assist) fail(ev, "previous mark assist is not ended before a new one");
      g.mark_assist = true;
      g.known = true;
      break;
    }
    case EvGCMarkAssistDone: {
      // A mark assist can be running when tracing starts, so a lone end is fine.
      GDesc& g = g_of(ev.g);
      g.mark_assist = false;
      g.known = true;
      break;
    }
    case EvGoWaiting:
    case EvGoInSyscall: {
      GDesc& g = g_of(ev.g);
      if (g.state != gRunnable) {
        fail(ev, fmt("g %llu is not runnable before %s", (unsigned long long)ev.g,
                     ev.type == EvGoWaiting ? "EvGoWaiting" : "EvGoInSyscall"));
      }
      g.state = gWaiting;
      g.last = ev.type;
      g.known = true;
      break;
    }
    case EvGoCreate: {
      check_running(ev, g_of(ev.g), p_of(ev.p), true);
      const GDesc* existing = gs_.find(ev.args[0]);
      if (existing && existing->known) {
        fail(ev, fmt("g %llu already exists", (unsigned long long)ev.args[0]));
      }
      GDesc& ng = g_of(ev.args[0]);
      ng = GDesc{};
      ng.state = gRunnable;
      ng.last = EvGoCreate;
      ng.created = true;
      ng.create_stack = ev.args[1];
      ng.known = true;
      break;
    }
    case EvGoStart:
    case EvGoStartLabel: {
      GDesc& g = g_of(ev.g);
      PDesc& p = p_of(ev.p);
      if (g.state != gRunnable) fail(ev, fmt("g %llu is not runnable before start", (unsigned long long)ev.g));
      if (p.g != 0) {
        fail(ev, fmt("p %lld is already running g %llu while start g %llu", (long long)ev.p, (unsigned long long)p.g,
                     (unsigned long long)ev.g));
      }
      g.state = gRunning;
      p.g = ev.g;
      if (g.created) {
        // The first start shows the new goroutine's stack. Go 1.5 attached a one-frame
        // stack built from the start PC instead, which has no ID.
        if (t_.minor >= 7) ev.stk = go121_ ? g.create_stack : uint64_t(static_cast<uint32_t>(g.create_stack));
        g.created = false;
      }
      g.last = EvNone;
      g.known = true;
      break;
    }
    case EvGoEnd:
    case EvGoStop: {
      leave_p(ev, gDead);
      if (ev.type == EvGoEnd) {  // its open regions end with it
        if (const uint32_t* slot = region_slot_.find(ev.g)) regions_[*slot].clear();
      }
      break;
    }
    case EvGoSched:
    case EvGoPreempt:
      leave_p(ev, gRunnable).last = ev.type;
      break;
    case EvGoUnblock: {
      const GDesc& g = g_of(ev.g);
      if (g.state != gRunning) fail(ev, fmt("g %llu is not running while unpark", (unsigned long long)ev.g));
      // The timer goroutine unblocks from no particular P.
      if (ev.p != kTimerP && p_of(ev.p).g != ev.g) {
        fail(ev, fmt("p %lld is not running g %llu while unpark", (long long)ev.p, (unsigned long long)ev.g));
      }
      GDesc& target = g_of(ev.args[0]);
      if (target.state != gWaiting) {
        fail(ev, fmt("g %llu is not waiting before unpark", (unsigned long long)ev.args[0]));
      }
      // Go 1.21 leaves timer unblocks on TimerP; Go 1.23 does not check.
      if (target.last == EvGoBlockNet && (!go121_ || ev.p != kTimerP)) ev.p = kNetpollP;
      target.state = gRunnable;
      target.last = EvGoUnblock;
      target.known = true;
      break;
    }
    case EvGoSysCall: {
      GDesc& g = g_of(ev.g);
      check_running(ev, g, p_of(ev.p), false);
      g.last = EvGoSysCall;
      g.known = true;
      break;
    }
    case EvGoSysBlock:
      leave_p(ev, gWaiting);
      break;
    case EvGoSysExit: {
      GDesc& g = g_of(ev.g);
      if (g.state != gWaiting) fail(ev, fmt("g %llu is not waiting during syscall exit", (unsigned long long)ev.g));
      g.state = gRunnable;
      g.last = EvGoSysExit;
      g.known = true;
      break;
    }
    case EvUserTaskCreate:
      task_create(ev);
      break;
    case EvUserTaskEnd:
      tasks_.erase(ev.args[0]);
      break;
    case EvUserRegion:
      user_region(ev);
      break;
    default:
      if (spec(ev.type).blocks) leave_p(ev, gWaiting).last = ev.type;
      break;
  }
}

}  // namespace gotrace::v1
