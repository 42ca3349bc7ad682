// Goroutine summaries, user regions and user tasks: a port of Go's Summarizer
// (internal/trace/summary.go, Go 1.23) over the event store, quirks included
// (FORMAT.md §6.1). One pass over the events.
//
// Names (goroutine start functions, region and task types, block reasons) are views
// into the store's string table: a Summary is valid as long as the EventStore it was
// computed from.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gotrace/event_store.h"
#include "gotrace/small_vector.h"
#include "gotrace/types.h"

namespace gotrace::analysis {

// "No event": a region or task whose start or end is not in the trace.
inline constexpr uint64_t kNoEvent = ~uint64_t{0};

// An int64_t kept at a 4-byte boundary (read and written whole, by memcpy: one load or
// store on x86 and WebAssembly), so that a StatEntry takes 12 bytes rather than 16.
class Int64At4 {
 public:
  Int64At4(int64_t v = 0) { set(v); }  // NOLINT: converts, as the int64_t it stands for
  operator int64_t() const {            // NOLINT
    int64_t v;
    std::memcpy(&v, words_, sizeof v);
    return v;
  }
  Int64At4& operator=(int64_t v) {
    set(v);
    return *this;
  }
  Int64At4& operator-=(int64_t v) { return *this = static_cast<int64_t>(*this) - v; }

 private:
  void set(int64_t v) { std::memcpy(words_, &v, sizeof v); }
  uint32_t words_[2];
};

// One keyed duration of ExecStats: `name` indexes Summary::block_reasons (for `block`)
// or Summary::range_names (for `ranges`). 12 bytes, so that three fit where two 16-byte
// ones did: most goroutines and regions then keep their lists inline.
struct StatEntry {
  uint32_t name = 0;
  Int64At4 ns;
};
static_assert(sizeof(StatEntry) == 12 && alignof(StatEntry) == 4);

// Go's GoroutineExecStats, durations in ns. The first five and `block` do not overlap;
// `total` and `ranges` overlap with them.
struct ExecStats {
  int64_t exec = 0;           // running
  int64_t sched_wait = 0;     // runnable (plus Go's quirk for syscalls that lost their P)
  int64_t syscall = 0;        // in a syscall, before its P was taken
  int64_t syscall_block = 0;  // in a syscall, after its P was taken
  int64_t total = 0;          // presence in the trace
  // Short lists, kept inline: on a large trace 94% of goroutines block for at most three
  // reasons and nearly all are in at most two kinds of range (regions, which copy their
  // goroutine's reasons, 77% and 97%).
  SmallVector<StatEntry, 3> block;   // waiting, by reason (Go's BlockTimeByReason)
  SmallVector<StatEntry, 2> ranges;  // inside ranges such as GC mark assist (Go's RangeTime)

  int64_t block_total() const;
  // Go's UnknownTime: what the non-overlapping stats leave of `total`, at least 0.
  int64_t unknown() const;
  // The entry for `name`, or 0.
  static int64_t get(std::span<const StatEntry> entries, uint32_t name);
};

// Go's UserRegionSummary: a region of one goroutine, with the goroutine's statistics
// while it was active.
struct RegionSummary {
  TaskID task = kBackgroundTask;
  std::string_view name;  // the region type ("" for the region a goroutine inherits)
  GoID goroutine = kNoGoroutine;
  // The events that began and ended it (kNoEvent: not in the trace), and their times
  // (0 when absent). The start can be a goroutine's creation (a region inherited from
  // the creator's innermost region) and the end a goroutine's end.
  uint64_t start_event = kNoEvent;
  uint64_t end_event = kNoEvent;
  Time start = 0;
  Time end = 0;
  ExecStats stats;

  bool has_start() const { return start_event != kNoEvent; }
  bool has_end() const { return end_event != kNoEvent; }
};

// Go's GoroutineSummary. The summary moves these (and TaskSummary) as bytes while
// putting them in order: members must hold no pointer into the record itself (no
// std::string, whose short strings do in libstdc++).
struct GoroutineSummary {
  GoID id = 0;
  std::string_view name;  // start function: the root frame of its first stack; "" if none
  uint64_t pc = 0;        // that frame's PC
  Time creation_time = 0;  // first appearance
  Time start_time = 0;     // first time running; 0 if it never ran
  Time end_time = 0;       // when it exited; 0 if it did not
  ExecStats stats;
  SmallVector<uint32_t, 2> regions;  // indices into Summary::regions, by start time
};

// Go's UserTaskSummary (moved as bytes, as GoroutineSummary).
struct TaskSummary {
  TaskID id = 0;
  std::string_view name;
  TaskID parent = kNoTask;         // kNoTask: unknown
  // Most tasks have one goroutine and one log, no child, and none or two regions.
  SmallVector<TaskID, 1> children;  // in the order they were found
  uint64_t start_event = kNoEvent;  // its TaskBegin
  uint64_t end_event = kNoEvent;    // its TaskEnd
  Time start = 0;                   // 0 when absent
  Time end = 0;
  SmallVector<uint64_t, 1> logs;    // its Log events (indices into the store)
  SmallVector<uint32_t, 2> regions;  // indices into Summary::regions, in order of appearance
  SmallVector<GoID, 1> goroutines;  // ascending; as in Go, may hold NoGoroutine (-1)

  bool has_parent() const { return parent != kNoTask; }
  bool complete() const { return start_event != kNoEvent && end_event != kNoEvent; }
};

struct Summary {
  std::vector<GoroutineSummary> goroutines;  // ascending id
  std::vector<TaskSummary> tasks;            // ascending id
  std::vector<RegionSummary> regions;        // every region of every goroutine and task
  std::vector<std::string_view> block_reasons;  // StatEntry names of ExecStats::block
  std::vector<std::string> range_names;         // StatEntry names of ExecStats::ranges
  Time first_time = 0;  // times of the first and last events (0 if none)
  Time last_time = 0;

  const GoroutineSummary* goroutine(GoID id) const;
  const TaskSummary* task(TaskID id) const;
};

// Go's Summarizer over every event of the store.
Summary summarize(const EventStore& store);

// Which of ExecStats's figures a GoInterval counts toward.
enum class GoFigure : uint8_t { Exec, SchedWait, Syscall, SyscallBlock, Block };

// One stretch of a goroutine's time exactly as the summary counts it: a goroutine's
// figures are the sums of its intervals' durations (a block's by reason). The state is
// the one the goroutine was in; `figure` usually follows from it, except Go's quirks
// (a syscall whose P was taken counts as sched wait when the trace ends in it).
struct GoInterval {
  GoID goroutine = 0;
  Time start = 0;
  Time end = 0;
  uint64_t start_event = kNoEvent;  // the transition into the state (kNoEvent: a sync, a proc losing its P)
  uint64_t end_event = kNoEvent;    // the transition out of it (kNoEvent: the trace's end)
  uint32_t reason = 0;              // for Block: index into Summary::block_reasons
  GoState state = GoState::Undetermined;
  GoFigure figure = GoFigure::Exec;
};

// summarize(), also giving every interval the goroutines' figures are summed from, in
// the order they were counted (goroutines whose id was reused by a later one left out,
// as the summary leaves them out).
Summary summarize_intervals(const EventStore& store, std::vector<GoInterval>& intervals);

// summarize() a piece at a time, for a caller with other work to do between pieces (the
// web worker answers requests): step() summarizes up to `events` more events, and
// finishes after the last; take() gives the Summary (doing what is left), once.
// `events_by_type`, if given, is the store's count of events of each type
// (TraceStats::events_by_type), which the summary would otherwise count first.
class SummaryBuild {
 public:
  explicit SummaryBuild(const EventStore& store, const std::array<uint64_t, 256>* events_by_type = nullptr);
  SummaryBuild(SummaryBuild&&) noexcept;
  SummaryBuild& operator=(SummaryBuild&&) noexcept;
  ~SummaryBuild();
  // True once the summary is complete.
  bool step(size_t events);
  Summary take();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// Go's IsSystemGoroutine: runtime goroutines (other than runtime.main) and unnamed ones.
bool is_system_goroutine(std::string_view start_function);

}  // namespace gotrace::analysis
