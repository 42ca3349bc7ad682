// Queries of the timeline index for one screen: a time range and its width in pixels.
// Whatever is at least a pixel wide comes back exactly; what is narrower is merged per
// pixel into one rectangle that says what it stands for (how many, time in each state,
// the dominant state). Results are structs of arrays of numbers, for typed arrays.
//
// Times are trace times in ns. Strings come back as StringIDs of the store.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <optional>
#include <vector>

#include "gotrace/analysis/timeline.h"
#include "gotrace/tables.h"

namespace gotrace::analysis {

struct TimelineView {
  Time from = 0;
  Time to = 0;           // exclusive
  uint32_t pixels = 1;   // the width the range is drawn in
};

// Slices of one track. A rectangle with count 1 is exactly one slice (clipped to the
// view); one with count > 1 merges consecutive slices narrower than a pixel that begin
// in one pixel (a run of 64 of them merges whole when the run is narrower than a pixel,
// so a rectangle can reach a little into the next pixel), from the first one's start to
// the last one's end. Rectangles are in time order and do not overlap; there are at
// most 2 per pixel, plus 2. Per state, the rectangles' times add up to exactly the time
// the track spent in that state in the view.
struct SliceRects {
  std::vector<Time> start, end;
  std::vector<SliceState> state;  // the slice's, or the state with the most time
  std::vector<uint32_t> count;    // slices it stands for
  // The slice's detail, for a merged rectangle that of its longest slice: the goroutine
  // (proc and thread tracks), the StringID of the reason for Waiting and Runnable
  // (goroutine tracks: GoBlock / GoStop reasons), the StringID of the kind (STW).
  std::vector<int64_t> detail;
  // Time in each state within the rectangle: time_in[s][i] for SliceState s.
  std::array<std::vector<Time>, kSliceStates> time_in;

  size_t size() const { return start.size(); }
  void clear();  // keeps the capacity, for the next query
};

SliceRects query_slices(const TimelineIndex& index, Track track, const TimelineView& view);
// The same into `out`, cleared first: a caller querying many tracks in turn (a group's
// goroutines) reuses one result's memory rather than allocating ten arrays a track.
void query_slices(const TimelineIndex& index, Track track, const TimelineView& view, SliceRects& out);

// Spans that nest or overlap: user regions (row = nesting depth on their goroutine) and
// user tasks (row = a lane assigned so that tasks on one row do not overlap). Spans
// narrower than a pixel are merged per pixel and row (regions) or per pixel (tasks, on
// the lowest of their rows).
struct SpanRects {
  std::vector<Time> start, end;
  std::vector<uint32_t> row;
  std::vector<uint32_t> count;
  std::vector<uint64_t> task;    // the task (for a merged rectangle: of its longest span)
  std::vector<StringID> name;    // region type / task name (likewise)
  size_t size() const { return start.size(); }
};

SpanRects query_regions(const TimelineIndex& index, GoID goroutine, const TimelineView& view);
SpanRects query_tasks(const TimelineIndex& index, const TimelineView& view);
// How many rows the task layout uses.
uint32_t task_rows(const TimelineIndex& index);

// User logs, CPU samples, and go tool trace's "Network" lane (goroutines blocked on
// the network made runnable) and "Syscalls" lane (ends of syscalls that lost their proc).
enum class InstantKind : uint8_t { Log, CPUSample, NetworkUnblock, SyscallExit };
inline constexpr size_t kInstantKinds = 4;
// The kind a track name names: "logs", "samples", "network", "syscalls"; none for others.
std::optional<InstantKind> instant_kind(std::string_view track);

// Instants by resource (the goroutine, proc or thread the event happened on; -1 when
// none), merged per resource and pixel. `event` is the store index of the first one.
struct InstantMarks {
  std::vector<Time> time;
  std::vector<int64_t> resource;
  std::vector<uint32_t> count;
  std::vector<uint64_t> event;
  size_t size() const { return time.size(); }
};

InstantMarks query_instants(const TimelineIndex& index, InstantKind kind, ResourceKind by, const TimelineView& view);

// Why a goroutine started running (cmd/trace's flow arrows): it was unblocked, created,
// or came back from a syscall that had lost its proc.
enum class WakeKind : uint8_t { Unblock, Create, SyscallExit };
std::string_view to_string(WakeKind k);

// Wake-ups of goroutines that started running in the view, from the waking event to
// the start. When the view holds more starts than `limit`, one per pixel is kept (the
// longest wait) and `sampled` is set.
struct WakeEdges {
  std::vector<Time> from_time, to_time;
  std::vector<WakeKind> kind;
  std::vector<int64_t> goroutine;                               // the goroutine woken
  std::vector<int64_t> from_goroutine, from_proc, from_thread;  // where the wake happened (-1: none)
  std::vector<int64_t> to_proc, to_thread;                      // where it started
  std::vector<StringID> reason;  // Unblock: why it had blocked (GoBlock reason)
  bool sampled = false;
  size_t size() const { return from_time.size(); }
};

WakeEdges query_wake_edges(const TimelineIndex& index, const TimelineView& view, uint32_t limit);

enum class SeriesKind : uint8_t {
  GoroutinesRunning,   // goroutines Running (Go's viewer adds Syscall to this)
  GoroutinesRunnable,
  GoroutinesWaiting,
  GoroutinesSyscall,
  ProcsRunning,        // what Go's viewer shows as running threads
  HeapAlloc,           // /memory/classes/heap/objects:bytes
  HeapGoal,            // /gc/heap/goal:bytes
  Gomaxprocs,          // /sched/gomaxprocs:threads
};
inline constexpr size_t kSeriesKinds = 8;
std::string_view to_string(SeriesKind k);

// A step function. When the view holds few changes they come back exactly (value holds
// from `time` on; min = max = value). Otherwise one point per pixel: `time` the pixel's
// start, `value` the value at its end, min and max over it; pixels wider than a block of
// events are aligned to blocks (256 events), so a change can land one block late.
struct SeriesPoints {
  std::vector<Time> time;
  std::vector<int64_t> value, min, max;
  bool exact = true;
  size_t size() const { return time.size(); }
};

SeriesPoints query_series(const TimelineIndex& index, SeriesKind kind, const TimelineView& view);

}  // namespace gotrace::analysis
