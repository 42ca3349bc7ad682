// Go's MutatorUtilizationV2 for several flag sets as one consumer of run_event_pass
// (event_pass.h): mutator_utilization() runs it alone, analyze() beside the summarizer.
#pragma once

#include <optional>

#include <memory>
#include <span>
#include <vector>

#include "gotrace/analysis/mmu.h"
#include "gotrace/event_view.h"
#include "gotrace/id_map.h"
#include "analysis/summary/range_names.h"

namespace gotrace::analysis::detail {

class UtilBuilder;  // one flag set (mutator_utilization.cpp)

class UtilizationPass {
 public:
  // `events_bound`: at most how many events the pass will see (its work budget follows),
  // the store's size by default; a streamed read, whose store grows, passes the file's
  // size in bytes (an event takes at least one).
  UtilizationPass(const EventStore& store, const RangeNames& names, std::span<const unsigned> flag_sets,
                  std::optional<uint64_t> events_bound = std::nullopt);
  ~UtilizationPass();

  void begin_event(Time) {}
  void end_event(Time t);
  void sync(Time t);
  void transition(size_t i, Time t, const Context& ctx, const StateTransition& st);
  void range(size_t i, EventKind kind, Time t, const Context& ctx, const RangeRef& r);
  void other(size_t i, EventKind kind, Time t, const Context& ctx);

  // mutator_utilization()'s pass over events [from, to): run_event_pass's, with the
  // common goroutine transitions read straight from their columns (no StateTransition,
  // no context unless a builder counts the goroutine as doing GC work) and the events
  // no builder reads (procs starting and stopping, heap metrics) passed over.
  void run(RangeNames& names, size_t from, size_t to);

  // One list of series per flag set, in the order given.
  std::vector<std::vector<UtilSeries>> finish();

  static constexpr size_t kMaxFlagSets = 6;

 private:
  bool has_procs() const { return procs_known_; }
  void go_transition(size_t i, GoID id, GoState from, GoState to);
  void mark(size_t builder, int mark, GoID g);
  [[noreturn]] void too_many_procs(size_t i, Time t, uint64_t procs) const;

  const EventStore& store_;
  uint64_t syncs_ = 0;  // Syncs seen so far
  std::vector<std::unique_ptr<UtilBuilder>> builders_;
  bool procs_known_ = false;  // GOMAXPROCS is known: nothing is computed before
  bool dirty_ = false;        // some builder may have a point to record
  // Per goroutine: its GoState (absent: Undetermined, Go's zero value), the same for
  // every flag set, and for each builder k two bits: in a mark assist (bit 4 + 2k, Go's
  // inGC) and a background mark worker (bit 5 + 2k, Go's bgMark). One lookup per
  // transition tells whether any builder cares.
  static constexpr uint16_t kAbsent = 0xffff, kStateMask = 0x000f, kInAssist = 0x0010;
  IdMap<uint16_t, kAbsent> states_;
};

}  // namespace gotrace::analysis::detail
