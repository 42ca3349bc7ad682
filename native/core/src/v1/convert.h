// Conversion of ordered v1 events into the v2 event model (FORMAT.md §3.6; for
// 1.5–1.10 the extension at the end of §3.7), as Go 1.23's oldTraceConverter does it.
// Events go to the store with the payload layout of event_view.h, their times made
// strictly increasing from -1. An event the v2 model has no place for throws TraceError
// (Go 1.23: "unexpected event type 36").
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "go_numbers.h"
#include "gotrace/event_store.h"
#include "gotrace/flat_map.h"
#include "gotrace/v2_spec.h"
#include "id_map.h"
#include "trace.h"

namespace gotrace::v1 {

// The conversion, one event at a time, in stream order: each event decoded, its time in
// ns, validated. Defined here so that the read loop inlines step() beside the
// validation.
class Converter {
 public:
  Converter(const Trace& t, EventStore& store);

  // The time of the last event converted (-1 before the first).
  Time last_time() const { return last_ts_; }

  // `syscall_blocks`: for a GoSysCall, whether the goroutine's next event is its
  // GoSysBlock; `message`: a UserLog's message.
  [[gnu::always_inline]] void step(const Event& ev, bool syscall_blocks, std::string_view message);

 private:
  // The reasons Go 1.23's converter gives goroutine stops and blocks.
  enum Reason : uint8_t {
    kForever,
    kPreempted,
    kGosched,
    kSleep,
    kChanSend,
    kChanRecv,
    kNetwork,
    kSync,
    kSyncCond,
    kSelect,
    kEmpty,
    kMarkAssistWait,
    kReasonCount,
  };

  // The v2 type and reason of each v1 goroutine stop or block.
  struct BlockRule {
    uint8_t v2_type;
    Reason reason;
  };
  static constexpr BlockRule block_rule(uint8_t type);

  // Per P: the thread of its last ProcStart (forgotten at ProcStop) and whether the
  // converter has seen it (its first start or stop becomes a ProcStatus).
  struct ProcInfo {
    bool seen = false;
    bool has_thread = false;
    ThreadID thread = kNoThread;
    bool stw_open = false;  // before 1.10: the P's own STW pair is open ...
    GoID stw_scope = 0;     // ... on this goroutine's range
  };

  // The context of a P's last event, and its id in the store.
  struct CtxSlot {
    bool valid = false;
    Context ctx;
    ContextID id = 0;
  };

  // ---- output ----
  [[gnu::always_inline]] void emit(Time t, uint8_t type, const Context& ctx, StackID stack, uint32_t a, uint32_t b,
                                   uint32_t c) {
    emit64(t, type, ctx, stack, uint64_t(a) | uint64_t(b) << 32, c);
  }
  [[gnu::always_inline]] void emit64(Time t, uint8_t type, const Context& ctx, StackID stack, uint64_t ab,
                                     uint32_t c) {
    // Two events may not share a time in the v2 model.
    if (t <= last_ts_) t = wrap_add(last_ts_, 1);
    last_ts_ = t;
    store_.push64(t, type, ctx_id(ctx), stack, ab, c);
  }
  // Contexts repeat per P: the same thread, and mostly the same goroutine.
  [[gnu::always_inline]] ContextID ctx_id(const Context& c) {
    CtxSlot& slot = c.p >= 0 && c.p < kCtxSlots ? ctx_slots_[c.p] : other_ctx_;
    if (slot.valid && slot.ctx.m == c.m && slot.ctx.p == c.p) {
      if (slot.ctx.g == c.g) return slot.id;
      if (store_.rebind_goroutine(slot.id, c.g, slot.id)) {
        slot.ctx.g = c.g;
        return slot.id;
      }
    }
    return new_ctx_id(slot, c);
  }
  ContextID new_ctx_id(CtxSlot& slot, const Context& c);

  // ---- tables ----
  StringID string(uint64_t id) {
    const uint32_t slot = strings_[id];  // the store's ID + 1; 0 = not interned yet
    return slot != 0 ? slot - 1 : new_string(id);
  }
  StringID new_string(uint64_t id);
  StackID stack(uint64_t id) {
    if (id == 0) return 0;
    const uint32_t slot = stacks_[id];  // the store's ID + 1; 0 = not built yet
    return slot != 0 ? slot - 1 : new_stack(id);
  }
  StackID new_stack(uint64_t id);
  StackID build_stack(std::span<const uint64_t> pcs);
  StackID start_pc_stack(uint64_t pc);

  bool open_per_p_stw(int64_t p, GoID scope);
  bool close_per_p_stw(int64_t p, Context& ctx);
  void end_pre_init(Time t);
  [[noreturn, gnu::cold, gnu::noinline]] void unexpected(const Event& ev);

  const Trace& t_;
  EventStore& store_;
  StringID reasons_[kReasonCount] = {};
  IdMap<uint32_t> strings_;         // trace string ID -> store string + 1
  IdMap<uint32_t> stacks_;          // trace stack ID -> store stack + 1
  FlatMap<uint32_t> start_stacks_;  // 1.5 start PC -> store stack
  std::vector<FrameID> frames_;

  // Go 1.23's converter state.
  bool pre_init_ = true;
  std::vector<uint64_t> created_pre_init_;  // in creation order
  FlatMap<uint32_t> created_index_;         // those still without a status
  struct TaskInfo {
    StringID name = 0;
    uint64_t parent = 0;
  };
  FlatMap<TaskInfo> tasks_;
  IdMap<ProcInfo> procs_{1024};  // Ps are small numbers, plus -1 and the fake Ps
  StringID last_stw_reason_ = 0;
  FlatMap<uint32_t> stw_depth_;  // before 1.10: open per-P STW pairs per goroutine
  FlatMap<uint8_t> assisting_;   // goroutines in a mark assist (1.5–1.10 repairs)
  uint64_t gc_count_ = 0;        // 1.5 has no GC numbers
  Time last_ts_ = -1;
  static constexpr int64_t kCtxSlots = 64;
  CtxSlot ctx_slots_[kCtxSlots];
  CtxSlot other_ctx_;
};

constexpr Converter::BlockRule Converter::block_rule(uint8_t type) {
  namespace v2 = gotrace::v2;
  switch (type) {
    case EvGoStop:
      return {v2::EvGoBlock, kForever};
    case EvGoSched:
      return {v2::EvGoStop, kGosched};
    case EvGoPreempt:
      return {v2::EvGoStop, kPreempted};
    case EvGoSleep:
      return {v2::EvGoBlock, kSleep};
    case EvGoBlock:
      return {v2::EvGoBlock, kEmpty};
    case EvGoBlockSend:
      return {v2::EvGoBlock, kChanSend};
    case EvGoBlockRecv:
      return {v2::EvGoBlock, kChanRecv};
    case EvGoBlockSelect:
      return {v2::EvGoBlock, kSelect};
    case EvGoBlockSync:
      return {v2::EvGoBlock, kSync};
    case EvGoBlockCond:
      return {v2::EvGoBlock, kSyncCond};
    case EvGoBlockNet:
      return {v2::EvGoBlock, kNetwork};
    case EvGoBlockGC:
      return {v2::EvGoBlock, kMarkAssistWait};
  }
  return {v2::EvNone, kEmpty};
}

inline void Converter::step(const Event& ev, bool syscall_blocks, std::string_view message) {
  namespace v2 = gotrace::v2;

    const Time ts = ev.ts;
    if (ev.type == EvProcStart) {
      ProcInfo& pi = procs_[static_cast<uint64_t>(ev.p)];
      pi.thread = static_cast<ThreadID>(ev.args[0]);
      pi.has_thread = true;
    }

    // The context: the event's P, its G (0 is none), and the thread of the P's ProcStart.
    Context ctx;
    ctx.p = ev.p;
    ctx.g = ev.g == 0 ? kNoGoroutine : static_cast<GoID>(ev.g);
    if (ev.p != -1 && ev.type != EvCPUSample) {
      ProcInfo& pi = procs_[static_cast<uint64_t>(ev.p)];
      if (pi.has_thread) ctx.m = pi.thread;
    }
    // Go builds a few events with the P's thread straight from its map, which says 0 for
    // a P without one, and with the raw G.
    auto raw_ctx = [&] {
      ProcInfo& pi = procs_[static_cast<uint64_t>(ev.p)];
      return Context{pi.has_thread ? pi.thread : 0, ev.p, static_cast<GoID>(ev.g)};
    };
    const StackID own = stack(ev.stk);

    switch (ev.type) {
      case EvGomaxprocs:
        if (pre_init_) {
          end_pre_init(ts);
          return;
        }
        emit64(ts, v2::EvProcsChange, ctx, own, ev.args[0], 0);
        return;
      case EvProcStart:
      case EvProcStop: {
        ProcInfo& pi = procs_[static_cast<uint64_t>(ev.p)];
        bool first = !pi.seen;
        pi.seen = true;
        if (ev.type == EvProcStop) pi.has_thread = false;
        if (first) {
          auto wire = ev.type == EvProcStart ? WireProcStatus::Running : WireProcStatus::Idle;
          uint32_t c = static_cast<uint32_t>(ProcState::Undetermined) | static_cast<uint32_t>(wire) << 8;
          emit64(ts, v2::EvProcStatus, ctx, 0, static_cast<uint64_t>(ev.p), c);
        } else if (ev.type == EvProcStart) {
          emit64(ts, v2::EvProcStart, ctx, 0, static_cast<uint64_t>(ev.p), 0);
        } else {
          emit(ts, v2::EvProcStop, ctx, 0, 0, 0, 0);
        }
        return;
      }
      case EvGCStart:
        emit64(ts, v2::EvGCBegin, ctx, own, t_.minor < 7 ? gc_count_++ : ev.args[0], 0);
        return;
      case EvGCDone:
        emit64(ts, v2::EvGCEnd, ctx, 0, 0, 0);
        return;
      case EvSTWStart:
        last_stw_reason_ = store_.strings.intern(converted_stw_reason(t_.minor, ev.args[0]));
        if (t_.rules.merge_per_p_stw && !open_per_p_stw(ev.p, ctx.g)) return;
        emit(ts, v2::EvSTWBegin, ctx, 0, last_stw_reason_, 0, 0);
        return;
      case EvSTWDone:
        if (t_.rules.merge_per_p_stw && !close_per_p_stw(ev.p, ctx)) return;
        emit(ts, v2::EvSTWEnd, ctx, 0, last_stw_reason_, 0, 0);
        return;
      case EvGCSweepStart:
        emit(ts, v2::EvGCSweepBegin, ctx, own, 0, 0, 0);
        return;
      case EvGCSweepDone:
        emit(ts, v2::EvGCSweepEnd, ctx, 0, store_.push_extra(ev.args[0], ev.args[1]), 0, 0);
        return;
      case EvGoCreate: {
        if (pre_init_) {
          auto [at, inserted] = created_index_.try_emplace(ev.args[0]);
          if (inserted) {
            *at = static_cast<uint32_t>(created_pre_init_.size());
            created_pre_init_.push_back(ev.args[0]);
          }
          return;
        }
        StackID start = t_.minor < 7 ? start_pc_stack(ev.args[1]) : stack(ev.args[1]);
        emit64(ts, v2::EvGoCreate, ctx, own, ev.args[0], start);
        return;
      }
      case EvGoStart:
        if (pre_init_) {
          created_index_.erase(ev.args[0]);
          uint32_t c = static_cast<uint32_t>(GoState::Undetermined) | static_cast<uint32_t>(WireGoStatus::Running) << 8;
          emit64(ts, v2::EvGoStatus, ctx, 0, ev.args[0], c);
          return;
        }
        emit64(ts, v2::EvGoStart, ctx, 0, ev.args[0], 0);
        return;
      case EvGoStartLabel: {
        Context c = raw_ctx();
        emit64(ts, v2::EvGoStart, c, 0, ev.args[0], 0);
        emit(ts, v2::EvGoLabel, c, 0, string(ev.args[2]), 0, 0);
        return;
      }
      case EvGoEnd:
        emit(ts, v2::EvGoDestroy, ctx, 0, 0, 0, 0);
        return;
      case EvGoUnblock:
        emit64(ts, v2::EvGoUnblock, ctx, own, ev.args[0], 0);
        return;
      case EvGoSysCall:
        if (syscall_blocks) {
          emit(ts, v2::EvGoSyscallBegin, ctx, own, 0, 0, 0);
        } else {
          // An instantaneous syscall becomes a 1 ns one.
          Context c = raw_ctx();
          emit(ts, v2::EvGoSyscallBegin, c, own, 0, 0, 0);
          emit(wrap_add(ts, 1), v2::EvGoSyscallEnd, c, 0, 0, 0, 0);
        }
        return;
      case EvGoSysBlock:
        return;  // the GoSysCall before it already said so
      case EvGoSysExit:
        emit(ts, v2::EvGoSyscallEndBlocked, ctx, 0, 0, 0, 0);
        return;
      case EvGoWaiting:
      case EvGoInSyscall: {
        created_index_.erase(ev.args[0]);
        auto wire = ev.type == EvGoWaiting ? WireGoStatus::Waiting : WireGoStatus::Syscall;
        uint32_t c = static_cast<uint32_t>(GoState::Undetermined) | static_cast<uint32_t>(wire) << 8;
        emit64(ts, v2::EvGoStatus, ctx, 0, ev.args[0], c);
        return;
      }
      case EvHeapAlloc:
        emit64(ts, v2::EvHeapAlloc, ctx, 0, ev.args[0], 0);
        return;
      case EvHeapGoal:
        emit64(ts, v2::EvHeapGoal, ctx, 0, ev.args[0], 0);
        return;
      case EvGCMarkAssistStart:
        if (t_.rules.active_for_lone_assist_end) assisting_[static_cast<uint64_t>(ctx.g)] = 1;
        emit(ts, v2::EvGCMarkAssistBegin, ctx, own, 0, 0, 0);
        return;
      case EvGCMarkAssistDone:
        // Old traces end an assist that was running when tracing began with a lone done;
        // the v2 model says first that the range is active (as of the trace's start).
        if (t_.rules.active_for_lone_assist_end && !assisting_.erase(static_cast<uint64_t>(ctx.g))) {
          emit64(ts, v2::EvGCMarkAssistActive, ctx, 0, static_cast<uint64_t>(ctx.g), 0);
        }
        emit(ts, v2::EvGCMarkAssistEnd, ctx, 0, 0, 0, 0);
        return;
      case EvUserTaskCreate: {
        StringID name = string(ev.args[2]);
        uint64_t parent = ev.args[1] == 0 ? kNoTask : ev.args[1];
        // The end event reports the parent as the trace wrote it (0 for none).
        *tasks_.try_emplace(ev.args[0]).first = TaskInfo{name, ev.args[1]};
        emit(ts, v2::EvUserTaskBegin, ctx, own, store_.push_extra(ev.args[0], parent, name), 0, 0);
        return;
      }
      case EvUserTaskEnd: {
        uint64_t parent = kNoTask;
        StringID name = 0;
        if (const TaskInfo* info = tasks_.find(ev.args[0])) {
          parent = info->parent;
          name = info->name;
          tasks_.erase(ev.args[0]);
        }
        emit(ts, v2::EvUserTaskEnd, ctx, own, store_.push_extra(ev.args[0], parent, name), 0, 0);
        return;
      }
      case EvUserRegion: {
        // Validation allows only modes 0 and 1; anything else would be Go's EvNone (Bad).
        uint8_t type = ev.args[1] == 0 ? v2::EvUserRegionBegin : ev.args[1] == 1 ? v2::EvUserRegionEnd : v2::EvNone;
        emit64(ts, type, ctx, own, ev.args[0], string(ev.args[2]));
        return;
      }
      case EvUserLog: {
        StringID text = store_.strings.intern(message);
        emit(ts, v2::EvUserLog, ctx, own, store_.push_extra(ev.args[0], string(ev.args[1]), text), 0, 0);
        return;
      }
      case EvCPUSample:
        emit(ts, v2::EvCPUSample, Context{kNoThread, ev.p, ctx.g}, own, 0, 0, 0);
        return;
      case EvFutileWakeup:
        // 1.5–1.10: the transitions around it stay, the marker has no v2 equivalent.
        if (t_.rules.drop_futile_events) return;
        break;
      default:
        if (const EventSpec& sp = spec(ev.type); sp.blocks || sp.stops) {
          BlockRule r = block_rule(ev.type);
          emit(ts, r.v2_type, ctx, own, reasons_[r.reason], 0, 0);
          return;
        }
        break;
    }
    unexpected(ev);
}

}  // namespace gotrace::v1
