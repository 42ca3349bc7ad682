#include "v1_convert.h"

#include <algorithm>

#include "go_numbers.h"
#include "gotrace/v2_spec.h"
#include "strings_util.h"
#include "v1_id_map.h"

namespace gotrace::v1 {
namespace {

namespace v2 = gotrace::v2;

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

constexpr std::string_view kReasonText[kReasonCount] = {
    "forever",                       // kForever
    "preempted",                     // kPreempted
    "runtime.Gosched",               // kGosched
    "sleep",                         // kSleep
    "chan send",                     // kChanSend
    "chan receive",                  // kChanRecv
    "network",                       // kNetwork
    "sync",                          // kSync
    "sync.(*Cond).Wait",             // kSyncCond
    "select",                        // kSelect
    "",                              // kEmpty
    "GC mark assist wait for work",  // kMarkAssistWait
};

// The v2 type and reason of each v1 goroutine stop or block.
struct BlockRule {
  uint8_t v2_type;
  Reason reason;
};

constexpr BlockRule block_rule(uint8_t type) {
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

// Per P: the thread of its last ProcStart (forgotten at ProcStop) and whether the
// converter has seen it (its first start or stop becomes a ProcStatus).
struct ProcInfo {
  bool seen = false;
  bool has_thread = false;
  ThreadID thread = kNoThread;
  bool stw_open = false;  // before 1.10: the P's own STW pair is open ...
  GoID stw_scope = 0;     // ... on this goroutine's range
};

}  // namespace

struct Converter::State {
  State(const Trace& t, EventStore& store)
      : t_(t), store_(store), strings_(t.string_data.size() + 4096), stacks_(t.stack_spans.size() + 4096) {
    for (int r = 0; r < kReasonCount; r++) reasons_[r] = store_.strings.intern(kReasonText[r]);
  }

  // ---- output ----
  void emit(Time t, uint8_t type, const Context& ctx, StackID stack, uint32_t a, uint32_t b, uint32_t c) {
    // Two events may not share a time in the v2 model.
    if (t <= last_ts_) t = wrap_add(last_ts_, 1);
    last_ts_ = t;
    store_.push(t, type, ctx_id(ctx), stack, a, b, c);
  }
  // Contexts repeat per P: the same thread, and mostly the same goroutine.
  ContextID ctx_id(const Context& c) {
    CtxSlot& slot = c.p >= 0 && c.p < kCtxSlots ? ctx_slots_[c.p] : other_ctx_;
    if (slot.valid && slot.ctx.m == c.m && slot.ctx.p == c.p) {
      if (slot.ctx.g == c.g) return slot.id;
      if (store_.rebind_goroutine(slot.id, c.g, slot.id)) {
        slot.ctx.g = c.g;
        return slot.id;
      }
    }
    slot.ctx = c;
    slot.id = store_.intern_context(c);
    slot.valid = true;
    return slot.id;
  }
  void emit64(Time t, uint8_t type, const Context& ctx, StackID stack, uint64_t ab, uint32_t c) {
    emit(t, type, ctx, stack, static_cast<uint32_t>(ab), static_cast<uint32_t>(ab >> 32), c);
  }

  // ---- tables ----
  StringID string(uint64_t id) {
    uint32_t& slot = strings_[id];  // the store's ID + 1; 0 = not interned yet
    if (slot == 0) {
      StringID s = store_.strings.intern(t_.string(id));
      strings_[id] = s + 1;
      return s;
    }
    return slot - 1;
  }
  StackID stack(uint64_t id) {
    if (id == 0) return 0;
    uint32_t& slot = stacks_[id];  // the store's ID + 1; 0 = not built yet
    if (slot == 0) {
      StackID built = build_stack(t_.stack(id));
      stacks_[id] = built + 1;
      return built;
    }
    return slot - 1;
  }
  StackID build_stack(std::span<const uint64_t> pcs) {
    if (pcs.empty()) return 0;  // a stack the trace never defined
    frames_.clear();
    for (uint64_t pc : pcs) {
      const PcInfo* info = t_.pcs.find(pc);
      Frame f;
      f.pc = pc;
      if (info) {
        f.func = string(info->func);
        f.file = string(info->file);
        f.line = info->line;
      }
      frames_.push_back(store_.stacks.intern_frame(f));
    }
    return store_.stacks.intern(frames_);
  }
  // Go 1.5's GoCreate names the new goroutine's start PC, not a stack: give each PC a
  // one-frame stack of its own.
  StackID start_pc_stack(uint64_t pc) {
    auto [slot, inserted] = start_stacks_.try_emplace(pc);
    if (inserted) {
      uint64_t one[1] = {pc};
      *slot = build_stack(one);
    }
    return *slot;
  }

  // Before 1.10 each P taking part in a stop-the-world wrote its own pair, and the pairs
  // of different Ps overlap. A v2 STW range belongs to a goroutine, and Ps without one
  // would share the range of "no goroutine": overlapping pairs on the same goroutine
  // become one range, from the first start to the last done. Return whether to emit.
  bool open_per_p_stw(int64_t p, GoID scope) {
    ProcInfo& pi = procs_[static_cast<uint64_t>(p)];
    pi.stw_open = true;
    pi.stw_scope = scope;
    return stw_depth_[static_cast<uint64_t>(scope)]++ == 0;
  }
  bool close_per_p_stw(int64_t p, Context& ctx) {
    ProcInfo& pi = procs_[static_cast<uint64_t>(p)];
    if (!pi.stw_open) return true;  // validation rules this out
    pi.stw_open = false;
    ctx.g = pi.stw_scope;  // the range it closes
    uint32_t* depth = stw_depth_.find(static_cast<uint64_t>(pi.stw_scope));
    return depth && *depth > 0 && --*depth == 0;
  }

  void end_pre_init(Time t);
  void convert(const Event& ev);

  const Trace& t_;
  EventStore& store_;
  // What the stream says beside the event being converted.
  std::string_view message_;     // a UserLog's message
  bool syscall_blocks_ = false;  // a GoSysCall's goroutine blocks in it

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
  struct CtxSlot {
    bool valid = false;
    Context ctx;
    ContextID id = 0;
  };
  static constexpr int64_t kCtxSlots = 64;
  CtxSlot ctx_slots_[kCtxSlots];
  CtxSlot other_ctx_;
};

// The first Gomaxprocs ends the trace's initial state dump: every goroutine created
// before it that has not shown up since was idle or runnable when tracing started.
void Converter::State::end_pre_init(Time t) {
  pre_init_ = false;
  for (uint64_t g : created_pre_init_) {
    if (!created_index_.contains(g)) continue;  // it started, or showed as waiting
    uint32_t c = static_cast<uint32_t>(GoState::Undetermined) | static_cast<uint32_t>(WireGoStatus::Runnable) << 8;
    emit64(t, v2::EvGoStatus, Context{}, 0, g, c);
  }
  created_pre_init_.clear();
  created_index_.clear();
}

void Converter::State::convert(const Event& ev) {
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
    case EvGoStop:
    case EvGoSched:
    case EvGoPreempt:
    case EvGoSleep:
    case EvGoBlock:
    case EvGoBlockSend:
    case EvGoBlockRecv:
    case EvGoBlockSelect:
    case EvGoBlockSync:
    case EvGoBlockCond:
    case EvGoBlockNet:
    case EvGoBlockGC: {
      BlockRule r = block_rule(ev.type);
      emit(ts, r.v2_type, ctx, own, reasons_[r.reason], 0, 0);
      return;
    }
    case EvGoUnblock:
      emit64(ts, v2::EvGoUnblock, ctx, own, ev.args[0], 0);
      return;
    case EvGoSysCall:
      if (syscall_blocks_) {
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
      StringID message = store_.strings.intern(message_);
      emit(ts, v2::EvUserLog, ctx, own, store_.push_extra(ev.args[0], string(ev.args[1]), message), 0, 0);
      return;
    }
    case EvCPUSample:
      emit(ts, v2::EvCPUSample, Context{kNoThread, ev.p, ctx.g}, own, 0, 0, 0);
      return;
    case EvFutileWakeup:
      // 1.5–1.10: the transitions around it stay, the marker has no v2 equivalent.
      if (t_.rules.drop_futile_events) return;
      break;
  }
  fail_at(fmt("unexpected event type %d", ev.type), ev);
}

Converter::Converter(const Trace& t, EventStore& store) : s_(std::make_unique<State>(t, store)) {}
Converter::~Converter() = default;

void Converter::step(const Event& ev, bool syscall_blocks, std::string_view message) {
  s_->syscall_blocks_ = syscall_blocks;
  s_->message_ = message;
  s_->convert(ev);
}

}  // namespace gotrace::v1
