// What changed between two traces of a program (before and after a change, a good and a
// bad run), or two time ranges of one trace: the figures of each side, keyed by what
// names them in both (a goroutine group's start function, a task or region type, a
// profile's stack as function names), so that they can be compared across binaries.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gotrace/analysis/profile.h"
#include "gotrace/analysis/pprof_profile.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/tasks.h"
#include "gotrace/event_store.h"

namespace gotrace::analysis {

// A goroutine group's figures: how many goroutines, and their time by statistic
// ("exec", "sched_wait", "syscall", "syscall_block", "block:<reason>", "range:<name>",
// "total"), as `gotrace goroutines --json` names them.
struct GroupFigures {
  uint64_t count = 0;
  std::map<std::string, int64_t> ns;
};

// A profile by stack ("leaf;caller;…;root" of function names, as pprof_folded prints).
struct FoldedProfile {
  struct Value {
    int64_t count = 0;
    int64_t ns = 0;  // for CPU samples: 0 (the samples are the count)
  };
  std::map<std::string, Value> stacks;
  Value total;
};

struct GcFigures {
  uint64_t cycles = 0;      // GC mark phases that began in the range
  uint64_t stw_count = 0;   // stops of the world
  int64_t stw_ns = 0;       // their total time (within the range)
  // The MMU (stop-the-world, background, assist, sweep) at window lengths 1 µs .. 1 s.
  std::vector<std::pair<int64_t, double>> mmu;
};

struct TraceFigures {
  Time from = 0;  // the range the figures are of
  Time to = 0;
  std::map<std::string, GroupFigures> groups;              // by start function
  std::map<std::string, std::vector<int64_t>> tasks;       // type -> durations of complete tasks, ascending
  std::map<std::string, uint64_t> tasks_not_ended;         // type -> tasks begun that do not end (no duration)
  std::map<std::string, std::vector<int64_t>> regions;     // type -> durations of regions with an end, ascending
  GcFigures gc;
  std::map<std::string, FoldedProfile> profiles;           // "net", "sync", "syscall", "sched", "cpu"
};

// The figures of a whole trace (window nullopt: as the summary and `go tool trace`
// count them), or of a time range of it: goroutines' time within the range, tasks and
// regions that begin in it, profiles and GC within it.
TraceFigures trace_figures(const EventStore& store, const Summary& summary, std::optional<Interval> window = std::nullopt);

// The differential profile of one kind (after minus before, pprof's -base): one sample
// per stack in either side, with the difference of their values (negative where the
// after side spent less); locations by function name, as the folded stacks know them.
PprofProfile differential_profile(const FoldedProfile& before, const FoldedProfile& after);

}  // namespace gotrace::analysis
