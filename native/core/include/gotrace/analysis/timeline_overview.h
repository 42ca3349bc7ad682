// The whole trace's timeline zoomed out, made in one streamed read (streamed_read.h): what
// its proc, thread, GC, STW and sweep tracks, its series and its goroutine groups show, in
// at most kBuckets buckets of one width over the trace (the width doubles as the read goes
// on), so that a trace too large to hold whole is drawn whole at a glance. A bucket keeps
// what the timeline index's merged rectangles say of its slices (the time in each state,
// from the first one's start to the last one's end, how many begin there, the longest
// one's detail), a series' extremes and last value, and a goroutine group's time in each
// state. The index's state rules make it (timeline_rules.h), over the same events, so each
// bucket's times are those of the whole trace's index over the bucket. Zoomed in further
// than a bucket a pixel, a viewer reads the generations there instead.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include <string_view>

#include "gotrace/analysis/timeline.h"
#include "gotrace/analysis/timeline_group.h"
#include "gotrace/analysis/timeline_query.h"

namespace gotrace::analysis {

class TimelineOverview {
 public:
  static constexpr size_t kBuckets = 4096;

  // Over the streamed read's store (its events handed on in order, then released).
  explicit TimelineOverview(const EventStore& store);
  ~TimelineOverview();
  TimelineOverview(const TimelineOverview&) = delete;
  TimelineOverview& operator=(const TimelineOverview&) = delete;

  // Events [from, to) of the store, which follow those added before, while it holds them.
  // Past 2^32 - 1 events it stops, and its queries say so.
  void add(size_t from, size_t to);
  // After the last events: slices still open end at the last event.
  void finish();
  bool finished() const;

  // The first and last event's times, and the buckets' width (ns).
  Time start() const;
  Time end() const;
  Time bucket_ns() const;
  // The ids of the tracks of a kind the overview has (Proc, Thread, Sweep; GC and STW
  // {0}), ascending; none for the others (goroutine and mark assist tracks).
  std::vector<int64_t> ids(TrackKind kind) const;
  bool has(TrackKind kind) const;

  // As query_slices and query_series, at the overview's detail: a rectangle (a point) per
  // bucket in view, or per pixel where buckets are narrower than one; a bucket the view
  // cuts counts the share of its times the view holds. A track it does not have (its kind
  // has none here), or an overview that stopped short, is a runtime_error.
  SliceRects slices(Track track, const TimelineView& view) const;
  SeriesPoints series(SeriesKind kind, const TimelineView& view) const;
  // The goroutine groups (by start function, as list_tracks groups them; at most 512), and
  // a group's activity as query_group_activity gives it, each bucket's times spread evenly
  // over it. A goroutine's time counts for the start function it had when the time ended.
  std::vector<std::string_view> groups() const;
  GroupActivity group_activity(std::string_view group, const TimelineView& view) const;

  // Bytes held.
  size_t memory() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace gotrace::analysis
