// The pprof-like profiles of `go tool trace -pprof=TYPE` (cmd/trace/pprof.go, Go 1.23):
// how long goroutines spent blocked on the network (net), blocked on synchronization
// (sync), in syscalls (syscall) or runnable but not running (sched), by the stack of
// the event that put them in that state.
//
// A port of Go's makeComputePprofFunc, quirks included: only state transitions with a
// stack are seen, so a goroutine that leaves the tracked state through a transition
// without a stack (GoStart, GoUnblock, GoSyscallEnd) stays tracked until its next
// transition that has one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "gotrace/analysis/tasks.h"
#include "gotrace/event_store.h"
#include "gotrace/id_map.h"

namespace gotrace::analysis {

enum class ProfileType : uint8_t { Net, Sync, Syscall, Sched };
inline constexpr ProfileType kProfileTypes[] = {ProfileType::Net, ProfileType::Sync, ProfileType::Syscall,
                                                ProfileType::Sched};

// "net", "sync", "syscall", "sched": the names of `go tool trace -pprof=TYPE`.
std::string_view to_string(ProfileType type);
std::optional<ProfileType> parse_profile_type(std::string_view name);

// Go's gToIntervals: for each goroutine, the times that count toward a profile.
class GoroutineIntervals {
 public:
  void add(GoID g, Interval interval);
  // Room for this many goroutines and intervals in all.
  void reserve(size_t goroutines, size_t intervals);
  // The goroutine's intervals, in the order they were added (empty if none).
  std::span<const Interval> of(GoID g) const;
  size_t goroutines() const { return ids_.size(); }
  GoID goroutine(size_t k) const { return ids_[k]; }  // in the order first added

 private:
  static constexpr uint32_t kNoSlot = ~0u;
  IdMap<uint32_t, kNoSlot> slot_;  // goroutine -> index in ids_ / begin_
  std::vector<GoID> ids_;
  std::vector<uint32_t> begin_;   // per goroutine (+1): its first interval
  std::vector<Interval> intervals_;
};

// What a profile counts of a goroutine (Go's filter of `go tool trace -pprof`): its time
// from its first run to its end, or to `last` (the trace's last event) if it did not end.
inline Interval lifetime(const GoroutineSummary& g, Time last) {
  return {g.start_time, g.end_time != 0 ? g.end_time : last};
}

// Each goroutine's time from its first run to its end (or the trace's last event): what
// ProfileFilter::lifetimes reads of a summary, for summaries not held in one array (an
// archive's). 16 bytes a goroutine while ids run nearly consecutively (as the runtime
// hands them out), 24 otherwise.
class GoroutineLifetimes {
 public:
  // Goroutines in ascending id order.
  void reserve(size_t goroutines) { spans_.reserve(goroutines); }
  void add(GoID g, Interval span);
  const Interval* of(GoID g) const;
  size_t size() const { return count_; }

 private:
  static constexpr Time kAbsent = INT64_MIN;  // a span's start in a gap between ids
  static constexpr size_t kMaxGap = 64;       // past it, ids are kept beside the spans
  bool dense_ = true;
  GoID first_ = 0;                 // dense: spans_[k] is goroutine first_ + k's
  std::vector<Interval> spans_;
  std::vector<GoID> ids_;          // otherwise: spans_[k] is goroutine ids_[k]'s
  size_t count_ = 0;
};

struct ProfileFilter {
  // Only these goroutines, only during their intervals (Go's gToIntervals); nullptr
  // counts every goroutine all the time (Go's nil map).
  const GoroutineIntervals* goroutines = nullptr;
  // Only this part of the trace.
  std::optional<Interval> window;
  // Instead of `goroutines`: every goroutine of this summary from its first run to its end
  // (goroutine_group_intervals(*lifetimes)'s intervals, read from the summary rather than
  // made: none to hold for a trace of millions of goroutines).
  const Summary* lifetimes = nullptr;
  // The same, of summaries not held (the goroutines, each once, in id order).
  const GoroutineLifetimes* lifetime_table = nullptr;
};

struct ProfileRecord {
  // Of the stacks with these PCs (the first 128), the one seen last, as Go keeps it.
  StackID stack = 0;
  uint64_t count = 0;       // times a goroutine entered the state there
  int64_t nanoseconds = 0;  // time it stayed, within the filter
};

struct Profile {
  ProfileType type = ProfileType::Sched;
  std::vector<ProfileRecord> records;  // one per distinct PC sequence, by first appearance
};

// Go's pprof stacks deduplicate on at most this many PCs and keep that many frames.
inline constexpr size_t kPprofMaxStack = 128;

Profile compute_profile(const EventStore& store, ProfileType type, const ProfileFilter& filter = {});

// compute_profiles a run of events at a time, for a read that hands its events on and
// lets them go (streamed_read.h): add() takes events [from, to) of the store, which
// follow those added before; take() gives the profiles, in the order of `types`, once.
// What it keeps between runs is per goroutine in a tracked state (when and where it
// entered it), so the events added before may be gone. The store and the filter must
// outlive it.
class ProfilePass {
 public:
  ProfilePass(const EventStore& store, std::span<const ProfileType> types, const ProfileFilter& filter = {});
  ProfilePass(ProfilePass&&) noexcept;
  ProfilePass& operator=(ProfilePass&&) noexcept;
  ~ProfilePass();
  void add(size_t from, size_t to);
  std::vector<Profile> take();

 private:
  struct State;
  std::unique_ptr<State> s_;
};
// Several types in one pass over the events: the same profiles as compute_profile's, in
// the order of `types`.
std::vector<Profile> compute_profiles(const EventStore& store, std::span<const ProfileType> types,
                                      const ProfileFilter& filter = {});

}  // namespace gotrace::analysis
