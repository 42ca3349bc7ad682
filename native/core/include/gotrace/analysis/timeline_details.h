// What the timeline's details panel shows: the list of every track a trace has (with
// each goroutine's group), and, for a point on a slice track, the slice there — the
// events that began and ended it, what made a running goroutine runnable, and the
// slice that came next on the track.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "gotrace/analysis/timeline_query.h"

namespace gotrace::analysis {

struct TrackList {
  Time start = 0, end = 0;
  std::vector<int64_t> procs, threads, sweeps, assists;
  std::vector<int64_t> goroutines;        // with a goroutine track, ascending
  std::vector<uint32_t> goroutine_group;  // per goroutine: index into groups
  std::vector<std::string_view> groups;   // start functions, by first appearance
  bool gc = false, stw = false;
  std::vector<int64_t> region_goroutines;  // goroutines with user regions, ascending
  uint32_t task_rows = 0;
  size_t logs = 0, samples = 0;
  size_t network = 0, syscalls = 0;  // instants of the Network and Syscalls lanes
  std::vector<SeriesKind> series;  // those with a non-zero value
};

// The goroutines' start functions are those the goroutine summary names (the index
// keeps them, so the list needs no summary).
TrackList list_tracks(const TimelineIndex& index);

inline constexpr uint64_t kNoSliceEvent = ~uint64_t{0};

struct SliceAt {
  Track track;
  Time start = 0, end = 0;       // back-dated to the trace's start / open to its end
  SliceState state = SliceState::Running;
  // As SliceRects::detail: the goroutine run (proc, thread), the reason's StringID
  // (goroutine), the kind's StringID (STW); 0 otherwise.
  int64_t detail = 0;
  uint64_t begin_event = 0;
  uint64_t end_event = kNoSliceEvent;  // still open at the end of the trace
  // For a running slice (goroutine, proc and thread tracks): the event that made the
  // goroutine runnable.
  std::optional<WakeKind> wake;
  uint64_t wake_event = kNoSliceEvent;
  // The next slice on the track (not a gap).
  bool has_next = false;
  Time next_start = 0;
  SliceState next_state = SliceState::Running;
  int64_t next_detail = 0;
};

// The slice of `track` under way at time t (the one beginning at t if one ends there);
// nullopt in a gap or for an unknown track.
std::optional<SliceAt> slice_at(const TimelineIndex& index, Track track, Time t);

}  // namespace gotrace::analysis
