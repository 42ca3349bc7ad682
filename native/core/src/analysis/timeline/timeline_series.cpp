// Counters and metrics (cmd/trace's Goroutines, Threads and Heap counters): step
// functions that change at a good share of all events. Rather than keep every change,
// the index keeps a checkpoint every 256 events (values before the block, extremes
// within it); a query replays at most the events it shows, or reads checkpoints alone
// when a pixel covers whole blocks.
#include <algorithm>
#include <cmath>
#include <optional>

#include "gotrace/analysis/timeline_query.h"
#include "gotrace/event_view.h"
#include "timeline_data.h"
#include "timeline_families.h"
#include "analysis/transition.h"

namespace gotrace::analysis {
namespace detail {
namespace {

constexpr size_t kKinds = kSeriesKinds;
using Values = std::array<int64_t, kKinds>;

size_t idx(SeriesKind k) { return static_cast<size_t>(k); }

std::optional<SeriesKind> go_series(GoState s) {
  switch (s) {
    case GoState::Running: return SeriesKind::GoroutinesRunning;
    case GoState::Runnable: return SeriesKind::GoroutinesRunnable;
    case GoState::Waiting: return SeriesKind::GoroutinesWaiting;
    case GoState::Syscall: return SeriesKind::GoroutinesSyscall;
    default: return std::nullopt;
  }
}

// A heap goal above this is no goal: with GOGC=off the runtime reports ^uint64(0), or
// one derived from the absent memory limit (math.MaxInt64 less headroom). cmd/trace
// shows 0 above the same cutoff (golang/go#63864).
constexpr uint64_t kNoHeapGoalAbove = uint64_t{1} << 50;  // 1 PiB

// Applies a metric event's value; returns the mask of the kind it changed.
unsigned apply_metric(uint8_t type, uint64_t value, Values& v) {
  SeriesKind k = type == v2::EvHeapAlloc  ? SeriesKind::HeapAlloc
                 : type == v2::EvHeapGoal ? SeriesKind::HeapGoal
                                          : SeriesKind::Gomaxprocs;
  if (k == SeriesKind::HeapGoal && value > kNoHeapGoalAbove) value = 0;
  v[idx(k)] = static_cast<int64_t>(value);  // the value of all three (event_view.h)
  return 1u << idx(k);
}

// Applies a state transition; returns a mask of the kinds it changed.
unsigned apply_transition(const StateTransition& st, Values& v) {
  if (st.old_state == st.new_state) return 0;
  unsigned changed = 0;
  if (st.resource.kind == ResourceKind::Goroutine) {
    if (auto k = go_series(st.go_from())) {
      v[idx(*k)]--;
      changed |= 1u << idx(*k);
    }
    if (auto k = go_series(st.go_to())) {
      v[idx(*k)]++;
      changed |= 1u << idx(*k);
    }
  } else if (st.resource.kind == ResourceKind::Proc) {
    const size_t k = idx(SeriesKind::ProcsRunning);
    if (st.proc_from() == ProcState::Running) v[k]--;
    if (st.proc_to() == ProcState::Running) v[k]++;
    changed |= 1u << k;
  }
  return changed;
}

// Applies event i to the values; returns a mask of the kinds it changed.
unsigned apply(const EventStore& s, size_t i, Values& v) {
  const uint8_t type = s.type(i);
  const EventKind kind = event_kinds()[type];
  if (kind == EventKind::Metric) return apply_metric(type, s.ab(i), v);
  if (kind != EventKind::StateTransition) return 0;
  return apply_transition(read_transition(s, i, type), v);
}

bool wide(size_t k) { return k == idx(SeriesKind::HeapAlloc) || k == idx(SeriesKind::HeapGoal); }

// The first event at or after time t.
size_t first_event_at(const EventStore& s, Time t) {
  size_t lo = 0, hi = s.size();
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s.time(mid) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace

static_assert(std::tuple_size_v<Values> == kKinds);

unsigned apply_series_metric(uint8_t type, uint64_t value, SeriesValues& v) { return apply_metric(type, value, v); }
unsigned apply_series_transition(const StateTransition& st, SeriesValues& v) { return apply_transition(st, v); }

SeriesBuilder::SeriesBuilder(SeriesTiles& t, size_t events) : t_(t), events_(events) {
  const size_t tiles = (events + kTileEvents - 1) / kTileEvents;
  for (size_t k = 0; k < kKinds; k++) {
    for (TileColumn* c : {&t.first[k], &t.min[k], &t.max[k]}) {
      *c = TileColumn(wide(k));
      c->reserve(tiles);
    }
  }
}

void SeriesBuilder::metric(uint8_t type, uint64_t value) { changed(apply_metric(type, value, v_)); }

void SeriesBuilder::transition(const StateTransition& st) {
  // apply_transition, with each count's extremes updated as it moves: a count that goes
  // down can only lower its minimum, one that goes up only raise its maximum.
  if (st.old_state == st.new_state) return;
  auto down = [&](size_t k) { lo_[k] = std::min(lo_[k], --v_[k]); };
  auto up = [&](size_t k) { hi_[k] = std::max(hi_[k], ++v_[k]); };
  if (st.resource.kind == ResourceKind::Goroutine) {
    if (auto k = go_series(st.go_from())) down(idx(*k));
    if (auto k = go_series(st.go_to())) up(idx(*k));
  } else if (st.resource.kind == ResourceKind::Proc) {
    const size_t k = idx(SeriesKind::ProcsRunning);
    const bool from = st.proc_from() == ProcState::Running, to = st.proc_to() == ProcState::Running;
    if (from && !to) down(k);
    if (to && !from) up(k);
  }
}

void SeriesBuilder::changed(unsigned mask) {
  for (size_t k = 0; mask; k++, mask >>= 1) {
    if (!(mask & 1)) continue;
    lo_[k] = std::min(lo_[k], v_[k]);
    hi_[k] = std::max(hi_[k], v_[k]);
  }
}

void SeriesBuilder::open_tile() {
  for (size_t k = 0; k < kKinds; k++) t_.first[k].push_back(v_[k]);
  lo_ = hi_ = v_;
}

void SeriesBuilder::close_tile() {
  for (size_t k = 0; k < kKinds; k++) {
    t_.min[k].push_back(lo_[k]);
    t_.max[k].push_back(hi_[k]);
  }
}

}  // namespace detail

std::string_view to_string(SeriesKind k) {
  switch (k) {
    case SeriesKind::GoroutinesRunning: return "goroutines-running";
    case SeriesKind::GoroutinesRunnable: return "goroutines-runnable";
    case SeriesKind::GoroutinesWaiting: return "goroutines-waiting";
    case SeriesKind::GoroutinesSyscall: return "goroutines-syscall";
    case SeriesKind::ProcsRunning: return "procs-running";
    case SeriesKind::HeapAlloc: return "heap-alloc";
    case SeriesKind::HeapGoal: return "heap-goal";
    case SeriesKind::Gomaxprocs: return "gomaxprocs";
  }
  return "";
}

SeriesPoints query_series(const TimelineIndex& index, SeriesKind kind, const TimelineView& view) {
  using namespace detail;
  SeriesPoints out;
  const TimelineData& d = index.data();
  if (view.to <= view.from || view.pixels == 0) return out;
  const EventStore& s = *d.store;
  const SeriesTiles& t = d.series;
  const size_t k = idx(kind);
  const size_t tiles = (s.size() + kTileEvents - 1) / kTileEvents;
  const Pixels px(view);
  auto push = [&](Time at, int64_t value, int64_t lo, int64_t hi) {
    out.time.push_back(at);
    out.value.push_back(value);
    out.min.push_back(lo);
    out.max.push_back(hi);
  };

  // The values just before `from`: a checkpoint, then the events since.
  const size_t i0 = first_event_at(s, view.from), i1 = first_event_at(s, view.to);
  Values v{};
  if (i0 / kTileEvents < tiles)
    for (size_t q = 0; q < kKinds; q++) v[q] = t.first[q][i0 / kTileEvents];
  else
    v = t.last;
  for (size_t i = i0 / kTileEvents * kTileEvents; i < i0; i++) apply(s, i, v);

  if ((i1 - i0) / view.pixels >= kTileEvents) {
    // Whole blocks per pixel: checkpoints alone, each block in the pixel where it starts.
    out.exact = false;
    int64_t cur = v[k];
    size_t tile = (i0 + kTileEvents - 1) / kTileEvents;
    for (uint32_t p = 0; p < view.pixels; p++) {
      int64_t lo = cur, hi = cur;
      for (; tile < tiles && tile * kTileEvents < i1 && px.of(s.time(tile * kTileEvents)) <= p; tile++) {
        lo = std::min(lo, t.min[k][tile]);
        hi = std::max(hi, t.max[k][tile]);
        cur = tile + 1 < tiles ? t.first[k][tile + 1] : t.last[k];
      }
      push(px.start(p), cur, lo, hi);
    }
    return out;
  }

  // Replay the events in view: every change, or per pixel if too many.
  std::vector<std::pair<Time, int64_t>> changes = {{view.from, v[k]}};
  for (size_t i = i0; i < i1; i++) {
    if (!(apply(s, i, v) >> k & 1)) continue;
    if (changes.back().first == s.time(i)) {
      changes.back().second = v[k];  // several changes at one time: the last holds
      if (changes.size() > 1 && changes[changes.size() - 2].second == v[k]) changes.pop_back();
    } else if (changes.back().second != v[k]) {
      changes.push_back({s.time(i), v[k]});
    }
  }
  if (changes.size() <= size_t{2} * view.pixels) {
    for (const auto& [at, value] : changes) push(at, value, value, value);
    return out;
  }
  out.exact = false;
  size_t c = 0;
  int64_t cur = changes[0].second;
  for (uint32_t p = 0; p < view.pixels; p++) {
    int64_t lo = cur, hi = cur;
    for (; c < changes.size() && px.of(changes[c].first) <= p; c++) {
      cur = changes[c].second;
      lo = std::min(lo, cur);
      hi = std::max(hi, cur);
    }
    push(px.start(p), cur, lo, hi);
  }
  return out;
}

}  // namespace gotrace::analysis
