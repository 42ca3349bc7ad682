// The timeline: what the trace viewer draws, as pure functions of the event store.
// Modelled on cmd/trace (Go 1.23: procgen.go, threadgen.go, goroutinegen.go,
// gstate.go, gen.go): which goroutine ran on each proc and thread, each goroutine's
// states, GC and stop-the-world ranges, sweeps and mark assists, counters, user tasks,
// regions and logs, CPU samples, and which goroutine woke which.
//
// build_timeline_index reads the events in a few passes and keeps an index of a
// few bytes per event: tracks hold the indices of the events where they change, delta-
// coded, with summaries per 64 entries for level of detail. Queries (timeline_query.h)
// then answer for a time range and a width in pixels, merging what is narrower than a
// pixel, so one screen of a track costs a few thousand rectangles whatever the trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "gotrace/event_store.h"

namespace gotrace::analysis {

namespace detail {
struct TimelineData;
}

// What a track is doing during a slice.
enum class SliceState : uint8_t {
  Running,   // a goroutine executing (goroutine tracks), or running one (proc and thread tracks)
  Runnable,  // ready, waiting for a proc
  Waiting,   // blocked (the slice says why)
  Syscall,   // in a system call
  Active,    // a range (GC, stop-the-world, sweep, mark assist) in progress
};
inline constexpr size_t kSliceStates = 5;
std::string_view to_string(SliceState s);

enum class TrackKind : uint8_t {
  Goroutine,   // id = goroutine: Running, Runnable, Waiting (reason), Syscall
  Proc,        // id = proc: the goroutine it runs, Running or Syscall
  Thread,      // id = thread (M): the goroutine it runs, Running or Syscall
  GC,          // the GC's concurrent mark phases (one track, id 0)
  STW,         // stop-the-world pauses (one track, id 0)
  Sweep,       // id = proc: GC incremental sweeps
  MarkAssist,  // id = goroutine: GC mark assists
};
inline constexpr size_t kTrackKinds = 7;
std::string_view to_string(TrackKind k);

struct Track {
  TrackKind kind = TrackKind::Proc;
  int64_t id = 0;
};

struct TimelineOptions {
  // Thread tracks cost about as much as proc tracks; a viewer that does not show
  // threads can leave them out (and build a second index if it later needs them).
  bool threads = true;
};

// Where the index's memory goes, in bytes.
struct TimelineMemory {
  size_t goroutines = 0, procs = 0, threads = 0, ranges = 0;  // slice tracks
  size_t regions = 0, tasks = 0, instants = 0, series = 0;
  size_t total() const { return goroutines + procs + threads + ranges + regions + tasks + instants + series; }
};

class TimelineIndex {
 public:
  TimelineIndex(TimelineIndex&&) noexcept;
  TimelineIndex& operator=(TimelineIndex&&) noexcept;
  ~TimelineIndex();

  const EventStore& store() const;
  // The trace's first and last event times: slices begun before the trace starts
  // from `start`, slices still open at the end run to `end`.
  Time start() const;
  Time end() const;
  // The ids of the tracks of a kind, ascending (GC and STW: {0}).
  std::span<const int64_t> ids(TrackKind kind) const;
  bool has_threads() const;
  TimelineMemory memory() const;
  // The goroutine tracks' lanes are built on their first query (they take a pass of
  // their own over the events): this goes up to `events` events further in building
  // them now, and is true once they are built. Not concurrently with queries.
  bool build_goroutine_lanes(size_t events = SIZE_MAX) const;

  const detail::TimelineData& data() const { return *d_; }

 private:
  friend class TimelineIndexBuild;
  explicit TimelineIndex(std::unique_ptr<detail::TimelineData> d);
  std::unique_ptr<detail::TimelineData> d_;
};

// The store must outlive the index (queries read the events through it).
TimelineIndex build_timeline_index(const EventStore& store, const TimelineOptions& options = {});

// build_timeline_index a piece at a time, for a caller with other work to do between
// pieces (the web worker answers requests): step() does the next piece, about `events`
// events' worth (a slice of the pass over the events, or one of the parts built after
// it), and is true once the index is complete; take() gives it (doing what is left), once.
class TimelineIndexBuild {
 public:
  explicit TimelineIndexBuild(const EventStore& store, const TimelineOptions& options = {});
  TimelineIndexBuild(TimelineIndexBuild&&) noexcept;
  TimelineIndexBuild& operator=(TimelineIndexBuild&&) noexcept;
  ~TimelineIndexBuild();
  bool step(size_t events);
  TimelineIndex take();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace gotrace::analysis
