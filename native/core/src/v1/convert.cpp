#include "convert.h"

#include "strings_util.h"

namespace gotrace::v1 {

namespace {

constexpr std::string_view kReasonText[] = {
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

}  // namespace

Converter::Converter(const Trace& t, EventStore& store)
    : t_(t), store_(store), strings_(t.string_data.size() + 4096), stacks_(t.stack_spans.size() + 4096) {
  static_assert(std::size(kReasonText) == kReasonCount);
  for (int r = 0; r < kReasonCount; r++) reasons_[r] = store_.strings.intern(kReasonText[r]);
}

ContextID Converter::new_ctx_id(CtxSlot& slot, const Context& c) {
  slot.ctx = c;
  slot.id = store_.intern_context(c);
  slot.valid = true;
  return slot.id;
}

StringID Converter::new_string(uint64_t id) {
  StringID s = store_.strings.intern(t_.string(id));
  strings_[id] = s + 1;
  return s;
}

StackID Converter::new_stack(uint64_t id) {
  StackID built = build_stack(t_.stack(id));
  stacks_[id] = built + 1;
  return built;
}

StackID Converter::build_stack(std::span<const uint64_t> pcs) {
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
StackID Converter::start_pc_stack(uint64_t pc) {
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
bool Converter::open_per_p_stw(int64_t p, GoID scope) {
  ProcInfo& pi = procs_[static_cast<uint64_t>(p)];
  pi.stw_open = true;
  pi.stw_scope = scope;
  return stw_depth_[static_cast<uint64_t>(scope)]++ == 0;
}

bool Converter::close_per_p_stw(int64_t p, Context& ctx) {
  ProcInfo& pi = procs_[static_cast<uint64_t>(p)];
  if (!pi.stw_open) return true;  // validation rules this out
  pi.stw_open = false;
  ctx.g = pi.stw_scope;  // the range it closes
  uint32_t* depth = stw_depth_.find(static_cast<uint64_t>(pi.stw_scope));
  return depth && *depth > 0 && --*depth == 0;
}

// The first Gomaxprocs ends the trace's initial state dump: every goroutine created
// before it that has not shown up since was idle or runnable when tracing started.
void Converter::end_pre_init(Time t) {
  pre_init_ = false;
  for (uint64_t g : created_pre_init_) {
    if (!created_index_.contains(g)) continue;  // it started, or showed as waiting
    uint32_t c = static_cast<uint32_t>(GoState::Undetermined) | static_cast<uint32_t>(WireGoStatus::Runnable) << 8;
    emit64(t, gotrace::v2::EvGoStatus, Context{}, 0, g, c);
  }
  created_pre_init_.clear();
  created_index_.clear();
}

void Converter::unexpected(const Event& ev) { fail_at(fmt("unexpected event type %d", ev.type), ev); }

}  // namespace gotrace::v1
