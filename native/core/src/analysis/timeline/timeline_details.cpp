// The track list and the slice under a point of a slice track, read from the timeline
// index's lanes (timeline_data.h) and the events they point at.
#include "gotrace/analysis/timeline_details.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <utility>

#include "gotrace/v2_spec.h"
#include "timeline_data.h"
#include "timeline_families.h"
#include "wake_kind.h"

namespace gotrace::analysis {
namespace {

using namespace detail;

// The goroutine-track entry before the GoStart `start` of goroutine g: what woke it.
void find_wake(const TimelineData& d, int64_t g, uint32_t start, SliceAt& out) {
  const EventStore& s = *d.store;
  if (s.type(start) != v2::EvGoStart) return;
  const SliceTracks& gs = d.of(TrackKind::Goroutine);
  const int64_t lane = gs.lane_of(g);
  if (lane < 0) return;
  const auto l = static_cast<uint32_t>(lane);
  const uint32_t k = gs.lanes.lower_bound(l, start);
  if (k == 0 || k >= gs.lanes.size(l) || gs.lanes.event_at(l, k) != start) return;
  const uint32_t wake = gs.lanes.event_at(l, k - 1);
  if (auto kind = wake_kind(s.type(wake))) {
    out.wake = kind;
    out.wake_event = wake;
  }
}

}  // namespace

TrackList list_tracks(const TimelineIndex& index) {
  const TimelineData& d = index.data();
  TrackList out;
  out.start = d.start;
  out.end = d.end;
  auto ids = [&](TrackKind k) {
    auto v = index.ids(k);
    return std::vector<int64_t>(v.begin(), v.end());
  };
  out.procs = ids(TrackKind::Proc);
  out.threads = ids(TrackKind::Thread);
  out.sweeps = ids(TrackKind::Sweep);
  out.assists = ids(TrackKind::MarkAssist);
  out.goroutines = ids(TrackKind::Goroutine);
  out.gc = d.of(TrackKind::GC).lanes.lanes() > 0 && d.of(TrackKind::GC).lanes.size(0) > 0;
  out.stw = d.of(TrackKind::STW).lanes.lanes() > 0 && d.of(TrackKind::STW).lanes.size(0) > 0;

  // Groups by start function, looked up by StringID first (one string per id; the
  // texts are compared only once per id).
  const std::vector<uint32_t>& funcs = d.tracks[static_cast<size_t>(TrackKind::Goroutine)].aux;
  std::vector<uint32_t> group_of_func;
  std::unordered_map<std::string_view, uint32_t> group_of_name;
  constexpr uint32_t kNone = ~uint32_t{0};
  out.goroutine_group.reserve(out.goroutines.size());
  for (size_t i = 0; i < out.goroutines.size(); i++) {
    const uint32_t f = i < funcs.size() ? funcs[i] : 0;
    if (f >= group_of_func.size()) group_of_func.resize(f + 1, kNone);
    if (group_of_func[f] == kNone) {
      const std::string_view name = f == 0 ? std::string_view{} : d.store->strings.get(f);
      auto [it, added] = group_of_name.try_emplace(name, static_cast<uint32_t>(out.groups.size()));
      if (added) out.groups.push_back(name);
      group_of_func[f] = it->second;
    }
    out.goroutine_group.push_back(group_of_func[f]);
  }

  out.region_goroutines = d.regions.goroutines;
  out.task_rows = d.tasks.rows;
  auto instants = [&](InstantKind k) {
    const auto lane = static_cast<uint32_t>(k);
    return d.instants.lanes() > lane ? d.instants.size(lane) : 0;
  };
  out.logs = instants(InstantKind::Log);
  out.samples = instants(InstantKind::CPUSample);
  out.network = instants(InstantKind::NetworkUnblock);
  out.syscalls = instants(InstantKind::SyscallExit);
  const TimelineView all{d.start, d.end + 1, 1};
  for (size_t k = 0; k < kSeriesKinds; k++) {
    SeriesPoints p = query_series(index, static_cast<SeriesKind>(k), all);
    bool any = false;
    for (size_t i = 0; i < p.size() && !any; i++) any = p.value[i] != 0 || p.max[i] != 0;
    if (any) out.series.push_back(static_cast<SeriesKind>(k));
  }
  return out;
}

std::optional<SliceAt> slice_at(const TimelineIndex& index, Track track, Time t) {
  const TimelineData& d = index.data();
  const EventStore& s = *d.store;
  const SliceTracks& tracks = d.of(track.kind);
  const int64_t lane = tracks.lane_of(track.id);
  if (lane < 0) return std::nullopt;
  const auto l = static_cast<uint32_t>(lane);
  const uint32_t n = tracks.lanes.size(l);
  if (n == 0 || t < d.start || t > d.end) return std::nullopt;
  // The last entry at or before t (entry 0 may be back-dated to the trace's start).
  const uint32_t after = t == std::numeric_limits<Time>::max() ? n : first_at_or_after(s, tracks.lanes, l, t + 1);
  return with_family(track.kind, [&](auto family) -> std::optional<SliceAt> {
    using Family = decltype(family);
    uint32_t j;
    if (after > 0) {
      j = after - 1;
    } else if (Family::backdated(s, tracks.lanes.event_at(l, 0))) {
      j = 0;
    } else {
      return std::nullopt;
    }
    LaneSet::Reader r = tracks.lanes.at(l, j);
    const uint32_t e = r.event();
    SliceAt out;
    out.track = track;
    int64_t detail = 0;
    const int slot = Family::slot(s, e, detail);
    if (slot == kGap) return std::nullopt;
    out.state = Family::kStates[static_cast<size_t>(slot)];
    out.detail = detail;
    out.begin_event = e;
    out.start = j == 0 && Family::backdated(s, e) ? d.start : s.time(e);
    out.end = d.end;
    r.next();
    if (!r.done()) {
      out.end_event = r.event();
      out.end = s.time(r.event());
    }
    for (; !r.done(); r.next()) {
      int64_t next_detail = 0;
      const int next = Family::slot(s, r.event(), next_detail);
      if (next == kGap) continue;
      out.has_next = true;
      out.next_start = s.time(r.event());
      out.next_state = Family::kStates[static_cast<size_t>(next)];
      out.next_detail = next_detail;
      break;
    }
    if (out.state == SliceState::Running) {
      if (track.kind == TrackKind::Goroutine) find_wake(d, track.id, e, out);
      else if (track.kind == TrackKind::Proc || track.kind == TrackKind::Thread) find_wake(d, detail, e, out);
    }
    return out;
  });
}

}  // namespace gotrace::analysis
