// The ordering engine: Go's state machines for goroutines, procs and threads
// (FORMAT.md §2.11, Go's order.go). Given one event at the head of a thread's
// stream, it either says "not yet" or accepts it, updates the state and emits the
// resulting events (one, or several for e.g. GoSwitch).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "gotrace/event_store.h"
#include "gotrace/column.h"
#include "gotrace/flat_map.h"
#include "gotrace/small_vector.h"
#include "resource_index.h"
#include "emit.h"
#include "generation.h"

namespace gotrace::v2 {

class Ordering {
 public:
  Ordering(const StringTable& strings, Emitter& out) : strings_(strings), out_(out) {}

  // Tries to advance ev, read from thread m's batches in generation gen. Returns
  // false if a precondition on another thread's events is not met yet. Throws
  // TraceError if the event can never be valid. Accepted events go to the Emitter.
  // `m_cache` is the caller's slot for thread m's state (nullptr at first).
  bool advance(WireEvent& ev, const Generation& gen, ThreadID m, void*& m_cache);

  // What an event waits for, as keys: an event that had to wait cannot advance before
  // another event touches one of its keys. Keys name a resource in a given state
  // ("goroutine 7 at sequence 3 of generation 2"), so a change wakes only the events
  // that could now succeed, and a hostile chain of waits costs linear work.
  // (Keys are hashes: a collision only costs a retry.)
  int wait_keys(const WireEvent& ev, ThreadID m, uint64_t out[2]) const;
  // While tracking, successful advances record the keys of what they may have changed
  // (a superset is fine: it only costs a retry).
  void set_tracking(bool on) { tracking_ = on; }
  // Called before an error message reads the string table (for region names).
  void set_before_naming(std::function<void()> f) { before_naming_ = std::move(f); }
  // Called before the events of each generation. The trace's first generation with an
  // event is its initial one (Go's, set by the first event it orders): a generation with
  // none before it (its event batches cut or empty) is not.
  void begin_generation(uint64_t number, bool has_events) {
    if (initial_gen_ == 0 && has_events) initial_gen_ = number;
    gen_ = number;
  }
  const std::vector<uint64_t>& touched() const { return touched_; }
  void clear_touched() { touched_.clear(); }


  // Go's dumpOrdering, with ids sorted so the text is deterministic.
  std::string dump() const;

  // What the ordering knows between generations: every goroutine's, proc's and thread's
  // state, the tasks begun, the GC's. Restored into a fresh ordering, a read that begins
  // at a later generation goes on as the read of the whole trace did there.
  struct Snapshot;
  Snapshot snapshot() const;
  void restore(const Snapshot& s);

 private:
  struct Seq {
    uint64_t gen = 0, n = 0;
    bool succeeds(const Seq& prev) const { return gen == prev.gen && n == prev.n + 1; }
  };
  struct RangeType {
    uint8_t type = 0;
    uint64_t desc = 0;          // the wire string id that names it (STW kind), as Go compares it
    StringID desc_global = 0;   // the same string in the store, for the End event
    bool operator==(const RangeType& o) const { return type == o.type && desc == o.desc; }
  };
  struct RangeState {
    SmallVector<RangeType, 1> in_flight;  // rarely more than one: no allocation per goroutine
    void begin(RangeType r);
    void active(RangeType r, bool initial_gen);
    RangeType end(uint8_t end_type);
    bool has(const RangeType& r) const;
  };
  struct UserRegion {
    TaskID task;
    StringID name;
    bool operator==(const UserRegion&) const = default;
  };
  struct GState {
    GoID id = 0;
    WireGoStatus status = WireGoStatus::Bad;
    // Restored from a resume point and not named by a status since: its first status
    // reads from Undetermined, as in a trace's first generation (restore()).
    bool restored = false;
    // Why it waits or is runnable: the reason string of the GoBlock or GoStop that put it
    // there (0: none, or not known). The first status of a goroutine restored carries it.
    StringID reason = 0;
    Seq seq;
    SmallVector<UserRegion, 1> regions;
    RangeState ranges;
  };
  struct PState {
    ProcID id = 0;
    WireProcStatus status = WireProcStatus::Bad;
    bool restored = false;  // as GState's
    Seq seq;
    RangeState ranges;
  };
  struct MState {
    GoID g = kNoGoroutine;
    ProcID p = kNoProc;
  };
  struct TaskState {
    StringID name = 0;
    TaskID parent = 0;
  };
  enum class GCState : uint8_t { Undetermined, NotRunning, Running };

  [[gnu::always_inline]] GState* g_state(GoID id);
  GState* new_g_state(GoID id);
  void delete_g_state(GoID id);
  [[gnu::always_inline]] PState* p_state(ProcID id);
  [[gnu::always_inline]] GState* current_g(const WireEvent& ev, const Context& cur, WireGoStatus want);
  [[gnu::always_inline]] PState* current_p(const WireEvent& ev, const Context& cur);
  PState* new_p_state(ProcID id);
  MState* m_state(ThreadID id);
  MState* new_m_state(ThreadID id);

  [[gnu::always_inline]] void push(const Context& ctx, const WireEvent& ev, uint64_t extra0 = 0, StringID name = 0) {
    out_.emit(ctx, ev, extra0, name);
  }
  // The same for the rare events: one copy of the emitter for them all, out of line, so
  // that the merge loop holds only the common events' copies.
  [[gnu::noinline]] void push_cold(const Context& ctx, const WireEvent& ev, uint64_t extra0 = 0, StringID name = 0);
  StringID lookup_string(const Generation& gen, uint64_t id, const WireEvent& ev);

  bool proc_status(WireEvent&, const Generation&, const Context&, MState&);
  bool proc_start(WireEvent&, const Generation&, const Context&, MState&);
  bool proc_stop(WireEvent&, const Generation&, const Context&, MState&);
  bool proc_steal(WireEvent&, const Generation&, const Context&, MState&);
  bool go_status(WireEvent&, const Generation&, const Context&, MState&);
  bool go_create(WireEvent&, const Generation&, const Context&, MState&);
  bool go_stop_exec(WireEvent&, const Generation&, const Context&, MState&);
  bool go_start(WireEvent&, const Generation&, const Context&, MState&);
  bool go_unblock(WireEvent&, const Generation&, const Context&, MState&);
  bool go_switch(WireEvent&, const Generation&, const Context&, MState&);
  bool go_syscall_begin(WireEvent&, const Generation&, const Context&, MState&);
  bool go_syscall_end(WireEvent&, const Generation&, const Context&, MState&);
  bool go_syscall_end_blocked(WireEvent&, const Generation&, const Context&, MState&);
  bool go_create_syscall(WireEvent&, const Generation&, const Context&, MState&);
  bool go_destroy_syscall(WireEvent&, const Generation&, const Context&, MState&);
  bool user_task_begin(WireEvent&, const Generation&, const Context&, MState&);
  bool user_task_end(WireEvent&, const Generation&, const Context&, MState&);
  bool user_region_begin(WireEvent&, const Generation&, const Context&, MState&);
  bool user_region_end(WireEvent&, const Generation&, const Context&, MState&);
  bool gc_active(WireEvent&, const Generation&, const Context&, MState&);
  bool gc_begin(WireEvent&, const Generation&, const Context&, MState&);
  bool gc_end(WireEvent&, const Generation&, const Context&, MState&);
  bool annotation(WireEvent&, const Generation&, const Context&, MState&);
  bool heap_metric(WireEvent&, const Generation&, const Context&, MState&);
  bool gc_sweep_begin(WireEvent&, const Generation&, const Context&, MState&);
  bool gc_sweep_active(WireEvent&, const Generation&, const Context&, MState&);
  bool gc_sweep_end(WireEvent&, const Generation&, const Context&, MState&);
  bool go_range_begin(WireEvent&, const Generation&, const Context&, MState&);
  bool go_range_active(WireEvent&, const Generation&, const Context&, MState&);
  bool go_range_end(WireEvent&, const Generation&, const Context&, MState&);
  bool alloc_free(WireEvent&, const Generation&, const Context&, MState&);

  // How advance() calls a handler: inline natively, out of line in WebAssembly.
  using Handler = bool (Ordering::*)(WireEvent&, const Generation&, const Context&, MState&);
  template <Handler h>
  bool handle(WireEvent& ev, const Generation& gen, const Context& cur, MState& next);
  template <Handler h>
  bool handle_out_of_line(WireEvent& ev, const Generation& gen, ThreadID m, ProcID p, GoID g, MState& next);

  ResourceIndex g_index_, p_index_;
  FlatMap<uint32_t> m_index_;
  // Slots are stable: pointers into the pools survive insertions.
  Column<GState, 12> g_pool_;
  std::vector<uint32_t> g_free_;
  Column<PState, 8> p_pool_;
  std::deque<MState> m_pool_;
  MState no_thread_;  // the binding that events of thread-less batches change, then drop
  FlatMap<TaskState> active_tasks_;
  uint64_t gc_seq_ = 0;
  GCState gc_state_ = GCState::Undetermined;
  uint64_t initial_gen_ = 0;
  uint64_t gen_ = 0;
  bool tracking_ = false;
  std::vector<uint64_t> touched_;
  void record_touched(const WireEvent& ev, Context cur, MState after);
  void touch_goroutine(GoID g);
  void touch_proc(ProcID p);
  enum KeyKind : uint64_t { kGoroutineSeq = 1, kProcSeq, kProcAny, kThread, kGCSeq };
  static uint64_t make_key(KeyKind kind, uint64_t id, uint64_t gen = 0, uint64_t n = 0) {
    return mix64(mix64(kind * 0x9E3779B97F4A7C15ULL ^ id) ^ gen * 0xC2B2AE3D27D4EB4FULL ^ n * 0x165667B19E3779F9ULL);
  }
  const StringTable& strings_;  // for region names in error messages
  std::function<void()> before_naming_;
  Emitter& out_;
};

struct Ordering::Snapshot {
  std::vector<GState> goroutines;
  std::vector<PState> procs;
  std::vector<std::pair<ThreadID, MState>> threads;
  MState no_thread;
  std::vector<std::pair<uint64_t, TaskState>> tasks;
  uint64_t gc_seq = 0;
  GCState gc_state = GCState::Undetermined;
  uint64_t initial_gen = 0;
  uint64_t gen = 0;
};

}  // namespace gotrace::v2
