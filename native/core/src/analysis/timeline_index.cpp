#include "gotrace/analysis/timeline.h"

#include "timeline_data.h"

namespace gotrace::analysis {

std::string_view to_string(SliceState s) {
  switch (s) {
    case SliceState::Running: return "running";
    case SliceState::Runnable: return "runnable";
    case SliceState::Waiting: return "waiting";
    case SliceState::Syscall: return "syscall";
    case SliceState::Active: return "active";
  }
  return "";
}

std::string_view to_string(TrackKind k) {
  switch (k) {
    case TrackKind::Goroutine: return "goroutine";
    case TrackKind::Proc: return "proc";
    case TrackKind::Thread: return "thread";
    case TrackKind::GC: return "gc";
    case TrackKind::STW: return "stw";
    case TrackKind::Sweep: return "sweep";
    case TrackKind::MarkAssist: return "assist";
  }
  return "";
}

TimelineIndex::TimelineIndex(std::unique_ptr<detail::TimelineData> d) : d_(std::move(d)) {}
TimelineIndex::TimelineIndex(TimelineIndex&&) noexcept = default;
TimelineIndex& TimelineIndex::operator=(TimelineIndex&&) noexcept = default;
TimelineIndex::~TimelineIndex() = default;

const EventStore& TimelineIndex::store() const { return *d_->store; }
Time TimelineIndex::start() const { return d_->start; }
Time TimelineIndex::end() const { return d_->end; }
bool TimelineIndex::has_threads() const { return d_->threads; }
void TimelineIndex::build_goroutine_lanes() const { d_->of(TrackKind::Goroutine); }

std::span<const int64_t> TimelineIndex::ids(TrackKind kind) const {
  if (kind == TrackKind::GC || kind == TrackKind::STW) return d_->single_track;
  return d_->tracks[static_cast<size_t>(kind)].ids;
}

TimelineMemory TimelineIndex::memory() const {
  TimelineMemory m;
  auto of = [&](TrackKind k) -> const detail::SliceTracks& { return d_->tracks[static_cast<size_t>(k)]; };
  m.goroutines = of(TrackKind::Goroutine).bytes_reserved();  // once built (their first query)
  m.procs = of(TrackKind::Proc).bytes_reserved();
  m.threads = of(TrackKind::Thread).bytes_reserved();
  for (TrackKind k : {TrackKind::GC, TrackKind::STW, TrackKind::Sweep, TrackKind::MarkAssist})
    m.ranges += of(k).bytes_reserved();
  m.regions = d_->regions.bytes_reserved();
  m.tasks = d_->tasks.bytes_reserved();
  m.instants = d_->instants.bytes_reserved();
  m.series = d_->series.bytes_reserved();
  return m;
}

TimelineIndex build_timeline_index(const EventStore& store, const TimelineOptions& options) {
  auto d = std::make_unique<detail::TimelineData>();
  d->store = &store;
  d->threads = options.threads;
  if (store.size() > 0) {
    d->start = store.time(0);
    d->end = store.time(store.size() - 1);
  }
  detail::build_slice_tracks(*d);  // and the series
  detail::build_regions(*d);
  detail::build_tasks(*d);
  detail::build_instants(*d);
  return TimelineIndex(std::move(d));
}

}  // namespace gotrace::analysis
