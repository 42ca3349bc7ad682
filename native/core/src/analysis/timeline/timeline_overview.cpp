// The whole trace's timeline zoomed out (timeline_overview.h): the index's state rules
// over a streamed read, each change of a proc, thread or range track closing a slice that
// is spread over the buckets it covers there and then, the events then let go.
#include "gotrace/analysis/timeline_overview.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "timeline_activity.h"
#include "timeline_rules.h"

namespace gotrace::analysis {
namespace detail {
namespace {

constexpr size_t kBuckets = TimelineOverview::kBuckets;
constexpr int kFirstShift = 10;  // buckets of 2^10 ns at first, doubled whenever the trace outgrows them

// What a bucket holds of one track's slices.
struct Bucket {
  std::array<Time, 2> time_in{};  // per slot of the track's family (exec: running, syscall; range: active)
  Time busy_start = 0, busy_end = 0;  // from the first slice's start to the last one's end, within it
  Time longest = -1;                  // the most time of one slice in it (-1: none)
  int64_t detail = 0;                 // that slice's
  uint32_t starts = 0;                // slices that begin in it
  bool busy() const { return longest >= 0; }
  void merge(const Bucket& b) {
    if (!b.busy()) return;
    if (!busy()) {
      *this = b;
      return;
    }
    for (size_t k = 0; k < time_in.size(); k++) time_in[k] += b.time_in[k];
    busy_end = b.busy_end;
    if (b.longest > longest) {
      longest = b.longest;
      detail = b.detail;
    }
    starts += b.starts;
  }
};

struct OverviewTrack {
  int64_t id = 0;
  std::vector<Bucket> buckets;  // up to the last one a slice reached
  int slot = kGap;              // the slice open now
  int64_t detail = 0;
  Time since = 0;
  bool seen = false;
};

// A series' buckets: the extremes within each and the value at its end.
struct SeriesBucket {
  int64_t lo = 0, hi = 0, last = 0;
};

// A goroutine alive now: its start function (the rules name it) and its state since when.
struct LiveGoroutine {
  uint32_t func = 0;
  int slot = kGap;  // GoroutineFamily's
  Time since = 0;
};

// A group's buckets: its goroutines' time in each of GoroutineFamily's states.
using GroupBucket = std::array<float, GoroutineFamily::kStates.size()>;
// Groups kept at most (each up to kBuckets buckets); goroutines of more start functions
// than this are not drawn outside a part.
constexpr size_t kMostGroups = 512;

}  // namespace

struct OverviewData {
  const EventStore& store;
  Time origin = 0, last = 0;
  int shift = kFirstShift;  // the buckets' width is 2^shift ns
  Time series_end = 0;  // where the series' last bucket ends (an event before it is in it)
  bool started = false, finished = false;
  std::string error;  // why the overview stopped short ("" while it goes on)
  std::array<std::vector<OverviewTrack>, kTrackKinds> tracks;
  std::array<IdMap<uint32_t, ~uint32_t{0}>, kTrackKinds> track_of;
  SeriesValues values{};
  std::array<std::vector<SeriesBucket>, kSeriesKinds> series;
  // The goroutines alive and their groups (by start function, as the timeline's list of
  // tracks groups them), each group's buckets.
  FlatMap<LiveGoroutine> live;
  std::vector<uint32_t> group_of_func;  // StringID -> group (kNoGroup: not looked up yet)
  std::unordered_map<std::string_view, uint32_t> group_of_name;
  std::vector<std::string_view> group_names;
  std::vector<std::vector<GroupBucket>> groups;
  static constexpr uint32_t kNoGroup = ~uint32_t{0};
  Time now = 0;      // the event being read's time,
  size_t event = 0;  // and index

  explicit OverviewData(const EventStore& s) : store(s) {}

  static bool kept(TrackKind k) { return k != TrackKind::Goroutine && k != TrackKind::MarkAssist; }

  Time width() const { return Time{1} << shift; }
  Time bucket_start(size_t i) const { return origin + (static_cast<Time>(i) << shift); }
  size_t bucket_of(Time t) const { return static_cast<size_t>(static_cast<uint64_t>(std::max(t, origin) - origin) >> shift); }

  // Makes room for time t: the buckets are merged in pairs until it falls within them.
  void reach(Time t) {
    last = std::max(last, t);
    while ((static_cast<uint64_t>(t - origin) >> shift) >= kBuckets) halve();
  }
  void halve() {
    shift++;
    for (auto& kind : tracks) {
      for (OverviewTrack& tr : kind) {
        std::vector<Bucket>& b = tr.buckets;
        for (size_t i = 0; 2 * i < b.size(); i++) {
          Bucket m = b[2 * i];
          if (2 * i + 1 < b.size()) m.merge(b[2 * i + 1]);
          b[i] = m;
        }
        b.resize((b.size() + 1) / 2);
      }
    }
    for (auto& g : groups) {
      for (size_t i = 0; 2 * i < g.size(); i++) {
        GroupBucket m = g[2 * i];
        if (2 * i + 1 < g.size())
          for (size_t k = 0; k < m.size(); k++) m[k] += g[2 * i + 1][k];
        g[i] = m;
      }
      g.resize((g.size() + 1) / 2);
    }
    for (auto& s : series) {
      for (size_t i = 0; 2 * i < s.size(); i++) {
        SeriesBucket m = s[2 * i];
        if (2 * i + 1 < s.size()) {
          const SeriesBucket& n = s[2 * i + 1];
          m = {std::min(m.lo, n.lo), std::max(m.hi, n.hi), n.last};
        }
        s[i] = m;
      }
      s.resize((s.size() + 1) / 2);
    }
  }

  OverviewTrack& track(TrackKind k, int64_t id) {
    auto& map = track_of[static_cast<size_t>(k)];
    uint32_t i = map.get(id);
    auto& list = tracks[static_cast<size_t>(k)];
    if (i == ~uint32_t{0}) {
      i = static_cast<uint32_t>(list.size());
      map.set(id, i);
      list.push_back(OverviewTrack{});
      list.back().id = id;
    }
    return list[i];
  }

  // Slice [a, b) of a track, in state `slot`, spread over its buckets.
  void add_slice(OverviewTrack& tr, Time a, Time b, int slot, int64_t detail) {
    const size_t first = bucket_of(a), final = bucket_of(std::max(a, b - 1));
    if (tr.buckets.size() <= final) tr.buckets.resize(final + 1);
    for (size_t i = first; i <= final; i++) {
      const Time bs = bucket_start(i), be = bs + width();
      const Time from = std::max(a, bs), to = std::min(b, be);
      const Time d = std::max<Time>(0, to - from);
      Bucket& k = tr.buckets[i];
      if (!k.busy()) k.busy_start = from;
      k.busy_end = std::max(k.busy_end, to);
      k.time_in[static_cast<size_t>(slot)] += d;
      if (d > k.longest) {
        k.longest = d;
        k.detail = detail;
      }
      if (i == first) k.starts++;
    }
  }

  // A change of a track at event e (the index's entry) to state `slot` (a proc or thread
  // running goroutine g): the slice before it ends. (The state is what the index reads back.)
  void change(TrackKind k, int64_t id, uint32_t e, int slot, GoID g) {
    const Time t = now;  // e is the event being read
    const bool exec = k == TrackKind::Proc || k == TrackKind::Thread;
    int64_t detail = exec ? g : 0;
    if (k == TrackKind::STW && slot != kGap) RangeFamily::slot(store, e, detail);  // its kind
    OverviewTrack& tr = track(k, id);
    Time since = t;
    if (!tr.seen) {
      tr.seen = true;
      if (exec ? ExecFamily::backdated(store, e) : RangeFamily::backdated(store, e)) since = origin;
    } else if (tr.slot != kGap) {
      add_slice(tr, tr.since, t, tr.slot, tr.detail);
    }
    tr.slot = slot;
    tr.detail = detail;
    tr.since = since;
  }

  void close_all() {
    for (auto& kind : tracks)
      for (OverviewTrack& tr : kind) {
        if (tr.seen && tr.slot != kGap) add_slice(tr, tr.since, last, tr.slot, tr.detail);
        tr.slot = kGap;
      }
    live.for_each([&](uint64_t, LiveGoroutine& g) {
      if (g.slot != kGap) add_group_time(g.func, g.since, last, g.slot);
    });
    live.clear();
  }

  uint32_t group_of(uint32_t func) {
    if (func >= group_of_func.size()) group_of_func.resize(func + 1, kNoGroup);
    uint32_t& g = group_of_func[func];
    if (g != kNoGroup) return g;
    const std::string_view name = func == 0 ? std::string_view{} : store.strings.get(func);
    auto it = group_of_name.find(name);
    if (it != group_of_name.end()) return g = it->second;
    if (groups.size() >= kMostGroups) return kNoGroup;  // stays unlooked-up: cheap to ask again
    g = static_cast<uint32_t>(groups.size());
    group_of_name.emplace(name, g);
    group_names.push_back(name);
    groups.emplace_back();
    return g;
  }

  // [a, b) of a goroutine of start function `func` in state `slot`, spread over its group's buckets.
  void add_group_time(uint32_t func, Time a, Time b, int slot) {
    if (b <= a) return;
    const uint32_t g = group_of(func);
    if (g == kNoGroup) return;
    std::vector<GroupBucket>& buckets = groups[g];
    const size_t first = bucket_of(a), final = bucket_of(b - 1);
    if (buckets.size() <= final) buckets.resize(final + 1, GroupBucket{});
    for (size_t i = first; i <= final; i++) {
      const Time bs = bucket_start(i);
      buckets[i][static_cast<size_t>(slot)] += static_cast<float>(std::min(b, bs + width()) - std::max(a, bs));
    }
  }

  // A goroutine's transition (before the rules name it): the slice it ends goes to its group.
  void goroutine_changed(const StateTransition& st) {
    if (st.resource.kind != ResourceKind::Goroutine || st.old_state == st.new_state) return;
    const GoID g = st.resource.id;
    bool first = false;
    LiveGoroutine* lg = live.find(static_cast<uint64_t>(g));
    // Named here as the rules then name it, so that the time before the first stack
    // counts for the start function it shows, as the index counts it.
    if (lg) name_goroutine(store, lg->func, st);
    if (lg && lg->slot != kGap) add_group_time(lg->func, lg->since, now, lg->slot);
    if (st.go_to() == GoState::NotExist) {
      if (lg) live.erase(static_cast<uint64_t>(g));
      return;
    }
    if (!lg) {
      lg = live.try_emplace(static_cast<uint64_t>(g)).first;
      *lg = LiveGoroutine{};
      first = true;
    }
    lg->slot = GoroutineFamily::slot_of(st.go_to());
    lg->since = first && GoroutineFamily::backdated(store, static_cast<uint32_t>(event)) ? origin : now;
  }

  // The series at event i, before its change: buckets up to its time exist. (Most events
  // fall in the last bucket: one comparison.)
  void series_at(Time t) {
    if (t < series_end) {
      last = std::max(last, t);
      return;
    }
    reach(t);
    const size_t b = bucket_of(t);
    for (size_t k = 0; k < kSeriesKinds; k++) {
      auto& s = series[k];
      while (s.size() <= b) s.push_back({values[k], values[k], values[k]});
    }
    series_end = bucket_start(b + 1);
  }
  void series_changed(unsigned mask) {
    for (size_t k = 0; mask; k++, mask >>= 1) {
      if (!(mask & 1)) continue;
      SeriesBucket& b = series[k].back();
      b.lo = std::min(b.lo, values[k]);
      b.hi = std::max(b.hi, values[k]);
      b.last = values[k];
    }
  }
};

namespace {

// The rules' tracks of one kind, as the overview keeps them.
class OverviewTracks {
 public:
  void bind(OverviewData* d, TrackKind k) {
    d_ = d;
    kind_ = k;
    kept_ = OverviewData::kept(k);
  }
  void emit(int64_t id, uint32_t e, int slot, GoID g) {
    if (kept_) d_->change(kind_, id, e, slot, g);
  }
  // A goroutine's start function, where the rules name it (goroutine_changed made it live).
  uint32_t& aux(int64_t id) {
    if (kind_ != TrackKind::Goroutine) return unused_;
    LiveGoroutine* g = d_->live.find(static_cast<uint64_t>(id));
    return g ? g->func : unused_;
  }
  void note(int64_t id) {
    if (kept_) d_->track(kind_, id);
  }
  void retire(int64_t) {}

 private:
  OverviewData* d_ = nullptr;
  TrackKind kind_ = TrackKind::Proc;
  bool kept_ = false;
  uint32_t unused_ = 0;
};

class OverviewSeries {
 public:
  explicit OverviewSeries(OverviewData& d) : d_(d) {}
  void before(size_t i, Time t) {
    d_.now = t;
    d_.event = i;
    d_.series_at(d_.now);
  }
  void metric(uint8_t type, uint64_t value) { d_.series_changed(apply_series_metric(type, value, d_.values)); }
  void transition(const StateTransition& st) {
    d_.series_changed(apply_series_transition(st, d_.values));
    d_.goroutine_changed(st);
  }
  void after(size_t) {}
  void finish() {}

 private:
  OverviewData& d_;
};

}  // namespace
}  // namespace detail

using namespace detail;

struct TimelineOverview::State {
  explicit State(const EventStore& s) : data(s), series(data), rules(s, tracks, series, true) {
    for (size_t k = 0; k < kTrackKinds; k++) tracks[k].bind(&data, static_cast<TrackKind>(k));
  }
  OverviewData data;
  std::array<OverviewTracks, kTrackKinds> tracks;
  OverviewSeries series;
  TimelineRules<std::array<OverviewTracks, kTrackKinds>, OverviewSeries> rules;
};

TimelineOverview::TimelineOverview(const EventStore& store) : s_(std::make_unique<State>(store)) {}
TimelineOverview::~TimelineOverview() = default;

void TimelineOverview::add(size_t from, size_t to) {
  OverviewData& d = s_->data;
  if (from >= to || d.finished || !d.error.empty()) return;
  if (to > UINT32_MAX) {
    // The rules number events in 32 bits, as the index does: a trace of more is not drawn whole.
    d.error = "the whole trace's timeline is made for at most 2^32 - 1 events";
    return;
  }
  if (!d.started) {
    d.started = true;
    d.origin = d.last = d.store.time(from);
  }
  s_->rules.run(from, to);
}

void TimelineOverview::finish() {
  OverviewData& d = s_->data;
  if (d.finished) return;
  d.close_all();
  d.finished = true;
}

bool TimelineOverview::finished() const { return s_->data.finished; }
Time TimelineOverview::start() const { return s_->data.origin; }
Time TimelineOverview::end() const { return s_->data.last; }
Time TimelineOverview::bucket_ns() const { return s_->data.width(); }

bool TimelineOverview::has(TrackKind kind) const { return OverviewData::kept(kind); }

std::vector<int64_t> TimelineOverview::ids(TrackKind kind) const {
  std::vector<int64_t> out;
  for (const OverviewTrack& t : s_->data.tracks[static_cast<size_t>(kind)]) out.push_back(t.id);
  std::sort(out.begin(), out.end());
  return out;
}

SliceRects TimelineOverview::slices(Track track, const TimelineView& view) const {
  if (!s_->data.error.empty()) throw std::runtime_error(s_->data.error);
  if (!has(track.kind))
    throw std::runtime_error("the whole trace's overview has no " + std::string(to_string(track.kind)) + " tracks");
  SliceRects out;
  const OverviewData& d = s_->data;
  if (view.to <= view.from || view.pixels == 0) return out;
  const uint32_t i = d.track_of[static_cast<size_t>(track.kind)].get(track.id);
  if (i == ~uint32_t{0}) return out;
  const std::vector<Bucket>& buckets = d.tracks[static_cast<size_t>(track.kind)][i].buckets;
  const bool exec = track.kind == TrackKind::Proc || track.kind == TrackKind::Thread;
  const std::array<SliceState, 2> states = exec ? std::array{SliceState::Running, SliceState::Syscall}
                                                : std::array{SliceState::Active, SliceState::Active};
  const Pixels px(view);
  const size_t first = d.bucket_of(view.from);
  // One rectangle per run of buckets whose busy part begins in one pixel.
  Bucket run;
  int64_t run_pixel = -1;
  auto flush = [&] {
    if (!run.busy()) return;
    out.start.push_back(run.busy_start);
    out.end.push_back(run.busy_end);
    size_t top = 0;
    for (size_t k = 0; k < 2; k++)
      if (run.time_in[k] > run.time_in[top]) top = k;
    out.state.push_back(states[top]);
    out.count.push_back(std::max<uint32_t>(1, run.starts));
    out.detail.push_back(run.detail);
    for (auto& c : out.time_in) c.push_back(0);
    for (size_t k = 0; k < 2; k++) out.time_in[static_cast<size_t>(states[k])].back() += run.time_in[k];
    run = Bucket{};
  };
  for (size_t b = first; b < buckets.size(); b++) {
    Bucket k = buckets[b];
    if (!k.busy()) continue;
    if (k.busy_start >= view.to) break;
    if (k.busy_end <= view.from) continue;
    // A bucket the view cuts: the share of its busy time the view holds.
    const Time a = std::max(k.busy_start, view.from), z = std::min(k.busy_end, view.to);
    if (a != k.busy_start || z != k.busy_end) {
      const double share = k.busy_end > k.busy_start ? static_cast<double>(z - a) / static_cast<double>(k.busy_end - k.busy_start) : 1;
      for (Time& t : k.time_in) t = static_cast<Time>(static_cast<double>(t) * share);
      k.busy_start = a;
      k.busy_end = z;
    }
    const int64_t p = px.of(k.busy_start);
    if (p != run_pixel) flush();
    run_pixel = p;
    run.merge(k);
  }
  flush();
  return out;
}

SeriesPoints TimelineOverview::series(SeriesKind kind, const TimelineView& view) const {
  if (!s_->data.error.empty()) throw std::runtime_error(s_->data.error);
  SeriesPoints out;
  out.exact = false;
  const OverviewData& d = s_->data;
  if (view.to <= view.from || view.pixels == 0) return out;
  const auto& buckets = d.series[static_cast<size_t>(kind)];
  const Pixels px(view);
  int64_t pixel = -1;
  for (size_t b = d.bucket_of(view.from); b < buckets.size(); b++) {
    const Time bs = d.bucket_start(b);
    if (bs >= view.to) break;
    const SeriesBucket& k = buckets[b];
    const Time at = std::max(bs, view.from);
    const int64_t p = px.of(at);
    if (p == pixel && !out.time.empty()) {
      out.value.back() = k.last;
      out.min.back() = std::min(out.min.back(), k.lo);
      out.max.back() = std::max(out.max.back(), k.hi);
      continue;
    }
    pixel = p;
    out.time.push_back(at);
    out.value.push_back(k.last);
    out.min.push_back(k.lo);
    out.max.push_back(k.hi);
  }
  return out;
}

std::vector<std::string_view> TimelineOverview::groups() const { return s_->data.group_names; }

GroupActivity TimelineOverview::group_activity(std::string_view name, const TimelineView& view) const {
  if (!s_->data.error.empty()) throw std::runtime_error(s_->data.error);
  const OverviewData& d = s_->data;
  GroupActivity out = empty_activity(view);
  auto it = d.group_of_name.find(name);
  if (it == d.group_of_name.end() || view.to <= view.from) return out;
  const std::vector<GroupBucket>& buckets = d.groups[it->second];
  // Each bucket a rectangle, its times spread evenly over it.
  for (size_t b = d.bucket_of(view.from); b < buckets.size(); b++) {
    const Time bs = d.bucket_start(b);
    if (bs >= view.to) break;
    std::array<float, kSliceStates> in{};
    for (size_t k = 0; k < GoroutineFamily::kStates.size(); k++) in[static_cast<size_t>(GoroutineFamily::kStates[k])] = buckets[b][k];
    spread_activity(out, bs, bs + d.width(), [&](size_t s) { return in[s]; });
  }
  return out;
}

size_t TimelineOverview::memory() const {
  const OverviewData& d = s_->data;
  size_t bytes = 0;
  for (const auto& kind : d.tracks)
    for (const OverviewTrack& t : kind) bytes += sizeof(OverviewTrack) + t.buckets.capacity() * sizeof(Bucket);
  for (const auto& s : d.series) bytes += s.capacity() * sizeof(SeriesBucket);
  for (const auto& g : d.groups) bytes += g.capacity() * sizeof(GroupBucket);
  return bytes;
}

}  // namespace gotrace::analysis
