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
bool TimelineIndex::build_goroutine_lanes(size_t events) const {
  return detail::advance_goroutine_lanes(*d_, events);
}

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

struct TimelineIndexBuild::State {
  std::unique_ptr<detail::TimelineData> d;
  std::unique_ptr<detail::SliceTrackBuild> slices;
  size_t next = 0;  // the first event the slice tracks' pass has not seen
  // After the pass: its end (the tracks and their summaries), then the parts built
  // from the store on their own.
  enum class Part { Events, Tracks, Regions, Tasks, Instants, Done } part = Part::Events;
};

TimelineIndexBuild::TimelineIndexBuild(const EventStore& store, const TimelineOptions& options)
    : s_(std::make_unique<State>()) {
  auto& d = s_->d = std::make_unique<detail::TimelineData>();
  d->store = &store;
  d->threads = options.threads;
  if (store.size() > 0) {
    d->start = store.time(0);
    d->end = store.time(store.size() - 1);
  }
  s_->slices = std::make_unique<detail::SliceTrackBuild>(*d);
}
TimelineIndexBuild::TimelineIndexBuild(TimelineIndexBuild&&) noexcept = default;
TimelineIndexBuild& TimelineIndexBuild::operator=(TimelineIndexBuild&&) noexcept = default;
TimelineIndexBuild::~TimelineIndexBuild() = default;

bool TimelineIndexBuild::step(size_t events) {
  using Part = State::Part;
  State& st = *s_;
  detail::TimelineData& d = *st.d;
  switch (st.part) {
    case Part::Events: {
      const size_t n = d.store->size();
      const size_t to = st.next + std::min(events, n - st.next);
      st.slices->run(st.next, to);
      st.next = to;
      if (to == n) st.part = Part::Tracks;
      break;
    }
    case Part::Tracks:  // one kind of track at a time
      if (st.slices->finish_next()) {
        st.slices.reset();
        st.part = Part::Regions;
      }
      break;
    case Part::Regions:
      detail::build_regions(d);
      st.part = Part::Tasks;
      break;
    case Part::Tasks:
      detail::build_tasks(d);
      st.part = Part::Instants;
      break;
    case Part::Instants:
      detail::build_instants(d);
      st.part = Part::Done;
      break;
    case Part::Done:
      break;
  }
  return st.part == Part::Done;
}

TimelineIndex TimelineIndexBuild::take() {
  while (!step(SIZE_MAX)) {
  }
  return TimelineIndex(std::move(s_->d));
}

TimelineIndex build_timeline_index(const EventStore& store, const TimelineOptions& options) {
  return TimelineIndexBuild(store, options).take();
}

}  // namespace gotrace::analysis
