// Storing ordered v2 events (Go's validateTableIDs and timestamp fix-up, then the
// payload layout documented in event_view.h). The ordering engine calls emit() from
// each handler; being inline, it specializes to the handler's event type.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "go_numbers.h"
#include "gotrace/error.h"
#include "gotrace/event_store.h"
#include "gotrace/v2_spec.h"
#include "strings_util.h"
#include "generation.h"

namespace gotrace::v2 {

// What the hot loop needs to know about an event type, precomputed from the spec
// table for the trace's version: 8 bytes instead of a walk over the spec.
struct TypePlan {
  uint8_t nargs = 0;      // wire arguments after dt
  bool timed = false;     // may appear in an event batch
  uint8_t stack[2] = {};  // argument indices (after dt, 1-based; 0 = none) of stack ids
  uint8_t str[2] = {};    // ... and of string ids
  bool refs = false;      // any stack or string id to resolve (most events have none)
};

std::array<TypePlan, 256> make_type_plans(int go_minor);

// A decoded wire event (Go's baseEvent) plus where it came from.
struct WireEvent {
  uint8_t type = 0;
  Time time = 0;
  std::array<uint64_t, 5> args{};  // arguments after dt
  uint64_t offset = 0;             // file offset of its type byte
};

// The context of a thread's last event, and its id in the store: most events have
// the context of their thread's previous event.
struct CtxSlot {
  Context ctx;
  ContextID id = 0;
  bool valid = false;
};

class Emitter {
 public:
  Emitter(EventStore& store, int go_minor) : store_(store), plans_(make_type_plans(go_minor)) {}

  const TypePlan& plan(uint8_t type) const { return plans_[type]; }
  void set_generation(const Generation* g) { gen_ = g; }
  void set_slot(CtxSlot* slot) { slot_ = slot; }
  Time last_time() const { return last_ts_; }
  // Goes on after an event at time t (a read resumed at a generation: Go's times stay
  // strictly increasing across the generations before).
  void resume_after(Time t) { last_ts_ = t; }

  // Stores one ordered event. extra0 and name carry what ordering adds (old states,
  // a task's parent, the names of STWEnd and UserTaskEnd).
  [[gnu::always_inline]] void emit(const Context& ctx, const WireEvent& ev, uint64_t extra0 = 0, StringID name = 0) {
    const TypePlan& plan = plans_[ev.type];
    const uint64_t* a = ev.args.data();
    StackID stack = 0, stack2 = 0;
    StringID str = 0, str2 = 0;
    if (plan.refs) {
      if (plan.stack[0]) {
        stack = resolve(gen_->stacks, a[plan.stack[0] - 1], "stack", ev);
        if (plan.stack[1]) stack2 = resolve(gen_->stacks, a[plan.stack[1] - 1], "stack", ev);
      }
      if (plan.str[0]) {
        str = resolve(gen_->strings, a[plan.str[0] - 1], "string", ev);
        if (plan.str[1]) str2 = resolve(gen_->strings, a[plan.str[1] - 1], "string", ev);
      }
    }
    Time t = fix_time(ev.time);
    ContextID id = context_id(ctx, *slot_);
    // The payload: a 64-bit word and a 32-bit one. One store call below, so that it is
    // inlined once (WebAssembly's inliner otherwise leaves a call per event).
    uint64_t ab = 0;
    uint32_t c = 0;
    switch (ev.type) {
      case EvProcsChange:
      case EvHeapAlloc:
      case EvHeapGoal:
      case EvProcStart:
      case EvGCSweepActive:
      case EvGoCreateSyscall:
      case EvGoStart:
      case EvGoUnblock:
      case EvGoSwitch:
      case EvGoSwitchDestroy:
      case EvGCMarkAssistActive:
      case EvGCActive:
      case EvGCBegin:
      case EvGCEnd:
        ab = a[0];
        break;
      case EvProcSteal:
        ab = a[0];
        c = static_cast<uint32_t>(extra0);
        break;
      case EvProcStatus:
      case EvGoStatus:
      case EvGoStatusStack: {
        uint64_t wire = ev.type == EvProcStatus ? a[1] : a[2];
        ab = a[0];
        c = static_cast<uint32_t>(extra0 | wire << 8);
        if (name != 0) c |= store_.status_reason_slot(name) << 16;  // a restored wait's reason
        break;
      }
      case EvGoCreate:
      case EvGoCreateBlocked:
        ab = a[0];
        c = stack2;
        break;
      case EvGoStop:
      case EvGoBlock:
      case EvSTWBegin:
      case EvGoLabel:
        ab = str;
        break;
      case EvSTWEnd:
        ab = name;
        break;
      case EvGCSweepEnd:
        ab = store_.push_extra(a[0], a[1]);
        break;
      case EvUserTaskBegin:
        ab = store_.push_extra(a[0], a[1], str);
        break;
      case EvUserTaskEnd:
        ab = store_.push_extra(a[0], extra0, name);
        break;
      case EvUserRegionBegin:
      case EvUserRegionEnd:
        ab = a[0];
        c = str;
        break;
      case EvUserLog:
        ab = store_.push_extra(a[0], str, str2);
        break;
      default:
        if (spec(ev.type).experimental()) ab = store_.push_extra(std::span<const uint64_t>(a, plan.nargs));
    }
    store_.push64(t, ev.type, id, stack, ab, c);
  }

  // A Sync event after the events so far, at the last time (+1).
  void sync(uint32_t generation_index) { sync_at(last_ts_, generation_index); }
  // A Sync event at time t, or just after the last event if that is later.
  void sync_at(Time t, uint32_t generation_index) {
    store_.push(fix_time(t), EvSyncOut, context_id(Context{}, other_), 0, generation_index, 0, 0);
  }

  void cpu_sample(const CpuSample& s) {
    WireEvent ev;
    ev.type = EvCPUSample;
    ev.offset = s.offset;
    StackID stack;
    try {
      stack = resolve(gen_->stacks, s.stack, "stack", ev);
    } catch (const TraceError& e) {
      throw TraceError(e.message(), place(ev));  // a sample belongs to no thread's batch
    }
    Time t = fix_time(s.time);
    store_.push(t, EvCPUSample, context_id(s.ctx, other_), stack, 0, 0, 0);
  }

 private:
  // Go makes returned times strictly increasing.
  Time fix_time(Time t) {
    if (t <= last_ts_) t = wrap_add(last_ts_, 1);
    last_ts_ = t;
    return t;
  }

  ContextID context_id(const Context& c, CtxSlot& last) {
    // Field by field: a whole-struct compare loads 16 bytes across fresh 8-byte stores.
    if (last.valid && last.ctx.m == c.m && last.ctx.p == c.p) {
      if (last.ctx.g == c.g) return last.id;
      // Same thread and proc, another goroutine: no lookup needed.
      if (store_.rebind_goroutine(last.id, c.g, last.id)) {
        last.ctx.g = c.g;
        return last.id;
      }
    }
    last.ctx.m = c.m;
    last.ctx.p = c.p;
    last.ctx.g = c.g;
    last.id = store_.intern_context(c);
    last.valid = true;
    return last.id;
  }

  [[gnu::always_inline]] uint32_t resolve(const LocalIds& table, uint64_t id, const char* what, const WireEvent& ev) {
    if (id == 0) return 0;
    uint32_t g = table.get(id);
    if (g == LocalIds::kMissing) [[unlikely]] {
      invalid_id(what, id, ev);
    }
    return g;
  }

  // Thrown without a place: the reader gives errors from ordering and emitting the
  // place of the thread's event (Reader::run), cpu_sample the sample's.
  [[noreturn, gnu::cold, gnu::noinline]] void invalid_id(const char* what, uint64_t id, const WireEvent& ev) {
    throw TraceError(fmt("found invalid %s ID %llu for event %s", what, (unsigned long long)id, event_name(ev.type).c_str()));
  }
  ErrorLocation place(const WireEvent& ev) const {
    ErrorLocation where;
    where.offset = ev.offset;
    where.event = event_name(ev.type);
    if (gen_) where.generation = gen_->number;
    return where;
  }

  EventStore& store_;
  const std::array<TypePlan, 256> plans_;
  const Generation* gen_ = nullptr;
  CtxSlot* slot_ = nullptr;
  CtxSlot other_;  // for events outside any thread's stream (Sync, CPU samples)
  Time last_ts_ = 0;
};

}  // namespace gotrace::v2
