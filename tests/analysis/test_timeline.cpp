// The timeline index against brute force: slices recomputed from the events with plain
// maps, per track, compared with what queries return — exactly when zoomed in, and per
// state totals (with a bounded number of rectangles) when zoomed out.
#include <catch2/catch.hpp>

#include <algorithm>

#include <map>
#include <set>
#include <random>
#include <span>

#include "corpus.h"
#include "gotrace/stats.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/timeline_group.h"
#include "gotrace/analysis/timeline_json.h"
#include "gotrace/event_view.h"
#include "gotrace/reader.h"
#include "gotrace/v2_spec.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

struct Slice {
  Time start, end;
  SliceState state;
  int64_t detail;
};
using Slices = std::map<int64_t, std::vector<Slice>>;  // by track id

bool executing(GoState s) { return s == GoState::Running || s == GoState::Syscall; }

// Open slices, closed into `out` when the track changes.
struct Open {
  bool open = false;
  Time since = 0;
  SliceState state = SliceState::Running;
  int64_t detail = 0;
};

void close(Slices& out, int64_t id, Open& o, Time t) {
  if (o.open) out[id].push_back({o.since, t, o.state, o.detail});
  o.open = false;
}

void open(Slices& out, int64_t id, Open& o, Time t, SliceState s, int64_t detail) {
  close(out, id, o, t);
  o = {true, t, s, detail};
}

// Per goroutine: every state but NotExist, from the transitions (back-dated to the
// trace's start when it comes out of Undetermined).
Slices goroutine_slices(const EventStore& s) {
  Slices out;
  std::map<int64_t, Open> cur;
  const Time first = s.time(0), last = s.time(s.size() - 1);
  for (size_t i = 0; i < s.size(); i++) {
    EventView ev(s, i);
    if (ev.kind() != EventKind::StateTransition) continue;
    StateTransition st = ev.state_transition();
    if (st.resource.kind != ResourceKind::Goroutine || st.old_state == st.new_state) continue;
    Time t = st.go_from() == GoState::Undetermined ? first : ev.time();
    Open& o = cur[st.resource.id];
    int64_t detail = ev.type() == v2::EvGoBlock || ev.type() == v2::EvGoStop ? s.a(i) : 0;
    switch (st.go_to()) {
      case GoState::Running: open(out, st.resource.id, o, t, SliceState::Running, 0); break;
      case GoState::Runnable: open(out, st.resource.id, o, t, SliceState::Runnable, detail); break;
      case GoState::Waiting: open(out, st.resource.id, o, t, SliceState::Waiting, detail); break;
      case GoState::Syscall: open(out, st.resource.id, o, t, SliceState::Syscall, 0); break;
      default: close(out, st.resource.id, o, t); break;
    }
  }
  for (auto& [id, o] : cur) close(out, id, o, last);
  return out;
}

// Per proc or thread: the goroutine executing there (procgen.go / threadgen.go): from
// its start there to its stop, in a syscall or not; a proc also ends when it stops or is
// stolen while its goroutine is in a syscall.
Slices exec_slices(const EventStore& s, bool threads) {
  Slices out;
  std::map<int64_t, Open> lanes;     // proc or thread
  std::map<int64_t, int64_t> where;  // goroutine -> proc or thread
  const Time first = s.time(0), last = s.time(s.size() - 1);
  for (size_t i = 0; i < s.size(); i++) {
    EventView ev(s, i);
    if (ev.kind() != EventKind::StateTransition) continue;
    StateTransition st = ev.state_transition();
    if (st.resource.kind == ResourceKind::Proc) {
      if (threads || st.proc_from() == st.proc_to() || st.proc_to() != ProcState::Idle) continue;
      Open& o = lanes[st.resource.id];
      if (o.open) {
        if (where.count(o.detail) && where[o.detail] == st.resource.id) where.erase(o.detail);
        close(out, st.resource.id, o, ev.time());
      }
      continue;
    }
    if (st.resource.kind != ResourceKind::Goroutine || st.old_state == st.new_state) continue;
    const GoID g = st.resource.id;
    const int64_t here = threads ? ev.thread() : ev.proc();
    auto w = where.find(g);
    if (executing(st.go_to())) {
      int64_t target = here >= 0 ? here : w != where.end() ? w->second : -1;
      if (target < 0) continue;
      SliceState state = st.go_to() == GoState::Running ? SliceState::Running : SliceState::Syscall;
      Open& o = lanes[target];
      if (!o.open || o.state != state || o.detail != g) {
        // Back-dated only as the track's first slice (timeline_families.h).
        Time t = out[target].empty() && !o.open && st.go_from() == GoState::Undetermined ? first : ev.time();
        open(out, target, o, t, state, g);
      }
      where[g] = target;
    } else if (executing(st.go_from()) && w != where.end()) {
      Open& o = lanes[w->second];
      if (o.open && o.detail == g) close(out, w->second, o, ev.time());
      where.erase(w);
    }
  }
  for (auto& [id, o] : lanes) close(out, id, o, last);
  return out;
}

// Clips slices to the view; drops those outside it (zero-length ones inside stay).
std::vector<Slice> clip(const std::vector<Slice>& all, const TimelineView& v) {
  std::vector<Slice> out;
  for (Slice sl : all) {
    bool in = sl.end > v.from || (sl.end == sl.start && sl.start >= v.from);
    if (!in || sl.start >= v.to) continue;
    sl.start = std::max(sl.start, v.from);
    sl.end = std::min(sl.end, v.to);
    out.push_back(sl);
  }
  return out;
}

// Zoomed out: time per state adds up, rectangles are ordered, disjoint, in view, and
// there are at most about two per pixel.
void check_totals(const SliceRects& r, const std::vector<Slice>& expected, const TimelineView& v) {
  std::array<Time, kSliceStates> want{}, got{};
  size_t slices = 0;
  for (const Slice& sl : expected) {
    want[static_cast<size_t>(sl.state)] += sl.end - sl.start;
    slices++;
  }
  size_t counted = 0;
  for (size_t i = 0; i < r.size(); i++) {
    for (size_t s = 0; s < kSliceStates; s++) got[s] += r.time_in[s][i];
    counted += r.count[i];
    CHECK(r.start[i] >= v.from);
    CHECK(r.end[i] <= v.to);
    CHECK(r.start[i] <= r.end[i]);
    if (i > 0) CHECK(r.start[i] >= r.end[i - 1]);
  }
  CHECK(got == want);
  CHECK(counted == slices);
  CHECK(r.size() <= 2 * size_t{v.pixels} + 2);
}

// Zoomed in to 1 ns per pixel: every slice comes back as it is (slices of no length
// may share a pixel).
void check_exact(const SliceRects& r, const std::vector<Slice>& expected) {
  std::vector<Slice> got, want;
  for (size_t i = 0; i < r.size(); i++) {
    if (r.end[i] == r.start[i]) continue;
    CHECK(r.count[i] == 1);
    got.push_back({r.start[i], r.end[i], r.state[i], r.detail[i]});
  }
  for (const Slice& sl : expected)
    if (sl.end > sl.start) want.push_back(sl);
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); i++) {
    INFO("slice " << i);
    CHECK(got[i].start == want[i].start);
    CHECK(got[i].end == want[i].end);
    CHECK(got[i].state == want[i].state);
    CHECK(got[i].detail == want[i].detail);
  }
}

std::vector<TimelineView> views(const TimelineIndex& index, uint32_t seed) {
  const Time a = index.start(), b = index.end() + 1, len = b - a;
  std::mt19937_64 rng(seed);
  Time mid = a + static_cast<Time>(rng() % static_cast<uint64_t>(len));
  return {
      {a, b, 2000},                                     // everything
      {a, b, 37},                                       // everything, small: runs of 1024 merge
      {a + len / 3, a + len / 3 + len / 50, 700},       // a fiftieth, somewhere
      {mid, std::min(b, mid + len / 1000), 1000},       // a thousandth
  };
}

// The brute force's slices of track `id`; none for a track the index lists without any
// (a proc that ran no goroutine, or the thread that only started or stopped one).
const std::vector<Slice>& slices_of(const Slices& expected, int64_t id) {
  static const std::vector<Slice> none;
  auto it = expected.find(id);
  return it == expected.end() ? none : it->second;
}

// Every track with slices is listed, each with its slices, the others empty.
void require_listed(std::span<const int64_t> ids, const Slices& expected) {
  for (const auto& [id, slices] : expected) {
    INFO("track " << id);
    REQUIRE(std::find(ids.begin(), ids.end(), id) != ids.end());
  }
}

void check_tracks(const TimelineIndex& index, TrackKind kind, const Slices& expected, uint32_t seed) {
  auto ids = index.ids(kind);
  require_listed(ids, expected);
  for (const TimelineView& v : views(index, seed)) {
    INFO(to_string(kind) << " view [" << v.from << ", " << v.to << ") in " << v.pixels);
    for (int64_t id : ids) {
      INFO("track " << id);
      check_totals(query_slices(index, {kind, id}, v), clip(slices_of(expected, id), v), v);
    }
  }
  // Zoomed in on the busiest track, where it is busiest.
  int64_t busiest = ids[0];
  for (int64_t id : ids)
    if (slices_of(expected, id).size() > slices_of(expected, busiest).size()) busiest = id;
  const auto& all = expected.at(busiest);
  const Slice& pivot = all[all.size() / 2];
  TimelineView v{pivot.start - 20000, pivot.start + 20000, 40000};
  check_exact(query_slices(index, {kind, busiest}, v), clip(all, v));
}

}  // namespace

TEST_CASE("timeline slices equal brute force", "[timeline][corpus]") {
  for (std::string name : {"go123-stress", "go122-workload", "stress_1_21_good", "go123-iter-pull"}) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      if (!r.ok()) {
        WARN(name << " not read: " << r.error->what());
        continue;
      }
      TimelineIndex index = build_timeline_index(r.store);
      CHECK(index.start() == r.store.time(0));
      CHECK(index.end() == r.store.time(r.store.size() - 1));
      check_tracks(index, TrackKind::Goroutine, goroutine_slices(r.store), 1);
      check_tracks(index, TrackKind::Proc, exec_slices(r.store, false), 2);
      check_tracks(index, TrackKind::Thread, exec_slices(r.store, true), 3);
    }
  }
}

namespace {

// A group's activity by brute force: every slice of its goroutines spread over the
// pixels it overlaps.
GroupActivity group_activity_brute(const Slices& all, std::span<const GoID> group, const TimelineView& v) {
  GroupActivity out;
  const uint32_t pixels = v.pixels;
  out.from = v.from;
  out.ns_per_pixel = static_cast<double>(v.to - v.from) / pixels;
  for (auto& c : out.in) c.assign(pixels, 0.0);
  const double w = out.ns_per_pixel;
  for (GoID g : group) {
    for (const Slice& sl : clip(slices_of(all, g), v)) {
      for (uint32_t p = 0; p < pixels; p++) {
        const double a = std::max<double>(static_cast<double>(sl.start - v.from), p * w);
        const double b = std::min<double>(static_cast<double>(sl.end - v.from), (p + 1) * w);
        if (b > a) out.in[static_cast<size_t>(sl.state)][p] += (b - a) / w;
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("a goroutine group's activity per pixel equals brute force", "[timeline][corpus]") {
  for (std::string name : {"go123-stress", "go122-workload", "http_1_5_good"}) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      REQUIRE(r.ok());
      TimelineIndex index = build_timeline_index(r.store);
      const Slices all = goroutine_slices(r.store);
      auto ids = index.ids(TrackKind::Goroutine);
      std::vector<GoID> everyone(ids.begin(), ids.end());
      std::vector<GoID> some;
      for (size_t i = 0; i < everyone.size(); i += 3) some.push_back(everyone[i]);
      // Where the busiest goroutine is busiest, at 1 ns per pixel: every slice is exact.
      GoID busiest = everyone[0];
      for (GoID g : everyone)
        if (slices_of(all, g).size() > slices_of(all, busiest).size()) busiest = g;
      const Slice& pivot = all.at(busiest)[all.at(busiest).size() / 2];
      const Time a = index.start(), b = index.end() + 1, len = b - a;
      for (const std::vector<GoID>* group : {&everyone, &some}) {
        INFO(group->size() << " goroutines");
        {
          TimelineView v{pivot.start - 2000, pivot.start + 2000, 4000};
          GroupActivity got = query_group_activity(index, *group, v);
          GroupActivity want = group_activity_brute(all, *group, v);
          for (size_t s = 0; s < kSliceStates; s++)
            for (uint32_t p = 0; p < v.pixels; p++) {
              INFO("state " << s << " pixel " << p);
              REQUIRE(got.in[s][p] == Approx(want.in[s][p]).margin(1e-9));
            }
        }
        // Zoomed out, narrow slices merge: each state's time adds up exactly, and at
        // every pixel's edge no more than a pixel of each goroutine lies on the wrong side.
        for (TimelineView v : {TimelineView{a, b, 300}, TimelineView{a + len / 3, a + len / 3 + len / 50, 200}}) {
          INFO("view [" << v.from << ", " << v.to << ") in " << v.pixels);
          GroupActivity got = query_group_activity(index, *group, v);
          GroupActivity want = group_activity_brute(all, *group, v);
          for (size_t s = 0; s < kSliceStates; s++) {
            double sum_got = 0, sum_want = 0;
            for (uint32_t p = 0; p < v.pixels; p++) {
              sum_got += got.in[s][p];
              sum_want += want.in[s][p];
              REQUIRE(std::abs(sum_got - sum_want) <= static_cast<double>(group->size()) + 1e-6);
            }
            REQUIRE(sum_got == Approx(sum_want).epsilon(1e-9).margin(1e-9));
          }
        }
      }
    }
  }
}

// A group's activity from its goroutines' queried rectangles, each spread over its
// pixels: query_group_activity's definition, which it answers from the lanes' extents
// where a goroutine is one rectangle (timeline_extents.h).
static GroupActivity group_activity_from_rects(const TimelineIndex& index, std::span<const GoID> group,
                                        const TimelineView& v) {
  GroupActivity out;
  out.from = v.from;
  out.ns_per_pixel = std::max(1.0, static_cast<double>(v.to - v.from)) / v.pixels;
  for (auto& c : out.in) c.assign(v.pixels, 0.0);
  const double w = out.ns_per_pixel;
  for (GoID g : group) {
    const SliceRects r = query_slices(index, {TrackKind::Goroutine, g}, v);
    for (size_t i = 0; i < r.size(); i++) {
      const double a = static_cast<double>(r.start[i] - v.from), b = static_cast<double>(r.end[i] - v.from);
      if (!(b > a)) continue;
      const auto first = static_cast<int64_t>(std::floor(a / w));
      const auto last = std::min<int64_t>(v.pixels - 1, static_cast<int64_t>(std::ceil(b / w)) - 1);
      for (int64_t p = std::max<int64_t>(0, first); p <= last; p++) {
        const double part = (std::min(b, (p + 1) * w) - std::max(a, p * w)) / (b - a);
        if (part <= 0) continue;
        for (size_t s = 0; s < kSliceStates; s++)
          if (r.time_in[s][i] > 0) out.in[s][static_cast<size_t>(p)] += part * static_cast<double>(r.time_in[s][i]) / w;
      }
    }
  }
  return out;
}

TEST_CASE("a group's activity taken from short goroutines' extents is exactly that of their rectangles",
          "[timeline][corpus]") {
  for (const std::string& name : corpus_traces({"*"})) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      if (!r.ok()) continue;
      TimelineIndex index = build_timeline_index(r.store);
      auto ids = index.ids(TrackKind::Goroutine);
      std::vector<GoID> everyone(ids.begin(), ids.end()), some;
      for (size_t i = 0; i < everyone.size(); i += 3) some.push_back(everyone[i]);
      const Time a = index.start(), len = index.end() + 1 - index.start();
      std::vector<TimelineView> views;
      for (uint32_t pixels : {1u, 7u, 300u, 1200u, 5000u}) views.push_back({a, a + len, pixels});
      for (Time k = 0; k < 6; k++) views.push_back({a + k * len / 7, a + k * len / 7 + len / (k + 2), 500});
      views.push_back({a - len / 10, a + len + len / 10, 999});  // beyond both ends
      for (const TimelineView& v : views) {
        for (const std::vector<GoID>* group : {&everyone, &some}) {
          INFO("view [" << v.from << ", " << v.to << ") in " << v.pixels << ", " << group->size() << " goroutines");
          const GroupActivity got = query_group_activity(index, *group, v);
          const GroupActivity want = group_activity_from_rects(index, *group, v);
          for (size_t s = 0; s < kSliceStates; s++) REQUIRE(got.in[s] == want.in[s]);  // bit for bit
        }
      }
    }
  }
}

TEST_CASE("every proc the trace names has a timeline track, as the stats count them", "[timeline][corpus]") {
  for (const std::string& name : corpus_traces({"*"})) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      TimelineIndex index = build_timeline_index(r.store);
      CHECK(index.ids(TrackKind::Proc).size() == compute_stats(r).procs);
    }
  }
}

TEST_CASE("the threads with a timeline track are cmd/trace's: those of every state transition", "[timeline][corpus]") {
  // threadgen.go names each thread a goroutine's or a proc's transition happened on,
  // whether or not anything ran on it (a thread that only unblocks goroutines).
  size_t idle_threads = 0;
  for (const std::string& name : corpus_traces({"*"})) {
    INFO(name);
    ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
    if (r.store.size() == 0) continue;
    std::set<int64_t> expected;
    for (size_t i = 0; i < r.store.size(); i++) {
      EventView ev(r.store, i);
      if (ev.kind() != EventKind::StateTransition) continue;
      const ResourceKind k = ev.state_transition().resource.kind;
      if ((k == ResourceKind::Goroutine || k == ResourceKind::Proc) && ev.thread() >= 0) expected.insert(ev.thread());
    }
    TimelineIndex index = build_timeline_index(r.store);
    const auto ids = index.ids(TrackKind::Thread);
    CHECK(std::set<int64_t>(ids.begin(), ids.end()) == expected);
    const Slices ran = exec_slices(r.store, true);
    for (int64_t m : expected) idle_threads += slices_of(ran, m).empty() ? 1 : 0;
  }
  CHECK(idle_threads >= 1);  // the case this is about is in the corpus
}

// The issue's own check: the whole 94 MB trace (16.8 M events, half a million
// goroutines) in one 2000-pixel view. Every track, zoomed out that far, comes back as a
// few thousand rectangles at most whose time per state is exactly the brute force's.
TEST_CASE("the whole large trace zoomed out gives few rectangles and the exact time per state",
          "[timeline][corpus][large]") {
  std::optional<std::string> large = large_trace_path();
  if (!large) {
    WARN("test skipped: the 94 MB trace (../shared/corpus/go/go123-workload-large.trace.zst) is not beside this checkout");
    return;
  }
  const std::string bytes = read_zstd(*large);
  ReadResult r = read_trace(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  REQUIRE(r.ok());
  TimelineIndex index = build_timeline_index(r.store);
  const TimelineView all{index.start(), index.end() + 1, 2000};
  auto check = [&](TrackKind kind, const Slices& expected) {
    auto ids = index.ids(kind);
    require_listed(ids, expected);
    for (int64_t id : ids) {
      INFO(to_string(kind) << " " << id);
      check_totals(query_slices(index, {kind, id}, all), clip(slices_of(expected, id), all), all);
    }
  };
  check(TrackKind::Proc, exec_slices(r.store, false));
  check(TrackKind::Thread, exec_slices(r.store, true));
  check(TrackKind::Goroutine, goroutine_slices(r.store));
}

TEST_CASE("proc time is goroutine running time", "[timeline][corpus]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-stress.trace")));
  REQUIRE(r.ok());
  TimelineIndex index = build_timeline_index(r.store);
  TimelineView all{index.start(), index.end() + 1, 100};
  auto total = [&](TrackKind kind, SliceState s) {
    Time t = 0;
    for (int64_t id : index.ids(kind)) {
      SliceRects rects = query_slices(index, {kind, id}, all);
      for (Time x : rects.time_in[static_cast<size_t>(s)]) t += x;
    }
    return t;
  };
  // A running goroutine holds a proc and a thread.
  const Time running = total(TrackKind::Goroutine, SliceState::Running);
  CHECK(running > 0);
  CHECK(total(TrackKind::Proc, SliceState::Running) == running);
  CHECK(total(TrackKind::Thread, SliceState::Running) == running);
  // A syscall keeps its thread, not always its proc.
  const Time syscall = total(TrackKind::Goroutine, SliceState::Syscall);
  CHECK(total(TrackKind::Thread, SliceState::Syscall) <= syscall);
  CHECK(total(TrackKind::Proc, SliceState::Syscall) <= total(TrackKind::Thread, SliceState::Syscall));

  // Goroutine time per state is Go's summary (Go's Summarizer, summary.h) for goroutines
  // that were running or created in the trace.
  Summary sum = summarize(r.store);
  size_t compared = 0;
  for (const GoroutineSummary& g : sum.goroutines) {
    if (g.creation_time != r.store.time(0) && g.end_time != 0) {
      SliceRects rects = query_slices(index, {TrackKind::Goroutine, g.id}, all);
      Time exec = 0;
      for (Time x : rects.time_in[static_cast<size_t>(SliceState::Running)]) exec += x;
      CHECK(exec == g.stats.exec);
      compared++;
    }
  }
  CHECK(compared > 0);
}

TEST_CASE("GC, STW and ranges", "[timeline][corpus]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-gc-stress.trace")));
  REQUIRE(r.ok());
  TimelineIndex index = build_timeline_index(r.store);
  // Brute force: begin/end pairs per track.
  std::map<TrackKind, std::map<int64_t, Open>> opened;
  std::map<TrackKind, Slices> want;
  const Time first = r.store.time(0), last = r.store.time(r.store.size() - 1);
  for (size_t i = 0; i < r.store.size(); i++) {
    EventView ev(r.store, i);
    EventKind k = ev.kind();
    if (k != EventKind::RangeBegin && k != EventKind::RangeActive && k != EventKind::RangeEnd) continue;
    Range range = ev.range();
    TrackKind kind = range.name.starts_with("stop-the-world")      ? TrackKind::STW
                     : range.name == "GC concurrent mark phase" ? TrackKind::GC
                     : range.name == "GC incremental sweep"     ? TrackKind::Sweep
                                                                : TrackKind::MarkAssist;
    int64_t id = kind == TrackKind::GC || kind == TrackKind::STW ? 0 : range.scope.id;
    Open& o = opened[kind][id];
    Slices& out = want[kind];
    if (k == EventKind::RangeEnd) {
      close(out, id, o, ev.time());
    } else if (!o.open) {
      bool backdate = k == EventKind::RangeActive && out[id].empty();
      int64_t detail = ev.type() == v2::EvSTWBegin ? static_cast<int64_t>(r.store.a(i)) : 0;
      open(out, id, o, backdate ? first : ev.time(), SliceState::Active, detail);
    }
  }
  for (auto& [kind, lanes] : opened)
    for (auto& [id, o] : lanes) close(want[kind], id, o, last);
  for (TrackKind kind : {TrackKind::GC, TrackKind::STW, TrackKind::Sweep, TrackKind::MarkAssist}) {
    INFO(to_string(kind));
    REQUIRE(!want[kind].empty());
    check_tracks(index, kind, want[kind], 5);
  }
  // STW slices name their kind.
  SliceRects stw = query_slices(index, {TrackKind::STW, 0}, {first, last + 1, 1u << 30});
  REQUIRE(stw.size() > 0);
  for (int64_t kind : stw.detail) CHECK(!r.store.strings.get(static_cast<StringID>(kind)).empty());
}

TEST_CASE("series follow the events", "[timeline][corpus]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-stress.trace")));
  REQUIRE(r.ok());
  TimelineIndex index = build_timeline_index(r.store);
  const EventStore& s = r.store;
  // Brute force: the value of each series after every event.
  std::vector<std::array<int64_t, kSeriesKinds>> after(s.size());
  std::array<int64_t, kSeriesKinds> v{};
  auto go = [](GoState g) -> int {
    switch (g) {
      case GoState::Running: return 0;
      case GoState::Runnable: return 1;
      case GoState::Waiting: return 2;
      case GoState::Syscall: return 3;
      default: return -1;
    }
  };
  for (size_t i = 0; i < s.size(); i++) {
    EventView ev(s, i);
    if (ev.kind() == EventKind::Metric) {
      Metric m = ev.metric();
      int k = m.name == "/memory/classes/heap/objects:bytes" ? 5 : m.name == "/gc/heap/goal:bytes" ? 6 : 7;
      v[k] = static_cast<int64_t>(m.value);
    } else if (ev.kind() == EventKind::StateTransition) {
      StateTransition st = ev.state_transition();
      if (st.old_state != st.new_state && st.resource.kind == ResourceKind::Goroutine) {
        if (go(st.go_from()) >= 0) v[go(st.go_from())]--;
        if (go(st.go_to()) >= 0) v[go(st.go_to())]++;
      } else if (st.old_state != st.new_state && st.resource.kind == ResourceKind::Proc) {
        v[4] += (st.proc_to() == ProcState::Running) - (st.proc_from() == ProcState::Running);
      }
    }
    after[i] = v;
  }
  auto value_at = [&](Time t) {  // after every event at or before t
    size_t lo = 0, hi = s.size();
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (s.time(mid) <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo == 0 ? std::array<int64_t, kSeriesKinds>{} : after[lo - 1];
  };
  for (size_t k = 0; k < kSeriesKinds; k++) {
    INFO(to_string(static_cast<SeriesKind>(k)));
    // Zoomed in: exact steps.
    Time mid = s.time(s.size() / 2);
    TimelineView near{mid - 100000, mid + 100000, 2000};
    SeriesPoints p = query_series(index, static_cast<SeriesKind>(k), near);
    REQUIRE(p.exact);
    REQUIRE(p.size() > 0);
    CHECK(p.time[0] == near.from);
    for (size_t i = 0; i < p.size(); i++) {
      CHECK(p.value[i] == value_at(p.time[i])[k]);
      if (i > 0) {
        CHECK(p.time[i] > p.time[i - 1]);
        CHECK(p.value[i] != p.value[i - 1]);
        // Nothing changes between two points.
        CHECK(value_at(p.time[i] - 1)[k] == p.value[i - 1]);
      }
    }
    // Zoomed out: one point per pixel, holding the true extremes.
    TimelineView all{index.start(), index.end() + 1, 500};
    SeriesPoints q = query_series(index, static_cast<SeriesKind>(k), all);
    CHECK(!q.exact);
    CHECK(q.size() == all.pixels);
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < s.size(); i++) {
      lo = std::min(lo, after[i][k]);
      hi = std::max(hi, after[i][k]);
    }
    int64_t qlo = INT64_MAX, qhi = INT64_MIN;
    for (size_t i = 0; i < q.size(); i++) {
      CHECK(q.min[i] <= q.value[i]);
      CHECK(q.value[i] <= q.max[i]);
      qlo = std::min(qlo, q.min[i]);
      qhi = std::max(qhi, q.max[i]);
    }
    CHECK(qlo == std::min<int64_t>(lo, 0));
    CHECK(qhi == hi);
    CHECK(q.value.back() == after.back()[k]);
  }
}

TEST_CASE("regions, tasks, logs and samples", "[timeline][corpus]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-annotations-stress.trace")));
  REQUIRE(r.ok());
  const EventStore& s = r.store;
  TimelineIndex index = build_timeline_index(s);
  Summary sum = summarize(s);
  const Time first = index.start(), last = index.end();
  // At most 1 ns per pixel: everything exact.
  TimelineView exact{first, last + 1, static_cast<uint32_t>(std::min<Time>(last + 1 - first, UINT32_MAX))};
  REQUIRE(exact.pixels == last + 1 - first);

  // Regions: Go's summary's named regions, goroutine by goroutine.
  size_t regions = 0;
  for (const GoroutineSummary& g : sum.goroutines) {
    if (is_system_goroutine(g.name)) continue;
    std::multiset<std::tuple<Time, Time, std::string_view>> want, got;
    for (uint32_t k : g.regions) {
      const RegionSummary& reg = sum.regions[k];
      if (reg.name.empty()) continue;
      want.insert({reg.has_start() ? reg.start : first, reg.has_end() ? reg.end : last, reg.name});
    }
    SpanRects rects = query_regions(index, g.id, exact);
    for (size_t i = 0; i < rects.size(); i++) {
      CHECK(rects.count[i] == 1);
      got.insert({rects.start[i], rects.end[i], s.strings.get(rects.name[i])});
    }
    CHECK(got == want);
    regions += want.size();
  }
  CHECK(regions > 0);

  // Tasks: every task with a begin or an end once, rows without overlaps. (Go's summary
  // also lists tasks only named by regions and logs.)
  SpanRects tasks = query_tasks(index, exact);
  size_t traced = 0;
  for (const TaskSummary& t : sum.tasks) traced += t.start_event != kNoEvent || t.end_event != kNoEvent;
  CHECK(tasks.size() == traced);
  std::map<uint32_t, Time> row_end;
  for (size_t i = 0; i < tasks.size(); i++) {
    CHECK(tasks.count[i] == 1);
    CHECK(tasks.row[i] < task_rows(index));
    if (row_end.count(tasks.row[i])) CHECK(tasks.start[i] >= row_end[tasks.row[i]]);
    row_end[tasks.row[i]] = tasks.end[i];
    const TaskSummary* t = sum.task(tasks.task[i]);
    REQUIRE(t);
    CHECK(s.strings.get(tasks.name[i]) == t->name);
  }
  // Zoomed out, tasks merge.
  SpanRects few = query_tasks(index, {first, last + 1, 10});
  size_t counted = 0;
  for (uint32_t c : few.count) counted += c;
  CHECK(counted == tasks.size());
  CHECK(few.size() <= 10 + tasks.size());

  // Logs: all of them, by goroutine.
  size_t logs = 0;
  for (size_t i = 0; i < s.size(); i++) logs += EventView(s, i).kind() == EventKind::Log;
  InstantMarks marks = query_instants(index, InstantKind::Log, ResourceKind::Goroutine, exact);
  size_t total = 0;
  for (size_t i = 0; i < marks.size(); i++) {
    total += marks.count[i];
    CHECK(EventView(s, marks.event[i]).kind() == EventKind::Log);
    CHECK(s.context(marks.event[i]).g == marks.resource[i]);
  }
  CHECK(total == logs);
  CHECK(logs > 0);
  InstantMarks coarse = query_instants(index, InstantKind::Log, ResourceKind::Proc, {first, last + 1, 4});
  total = 0;
  for (uint32_t c : coarse.count) total += c;
  CHECK(total == logs);
}

// go tool trace's Network and Syscalls lanes, as gstate.go finds them from the state
// transitions alone: a goroutine leaving Waiting whose block reason names the network,
// and one leaving Syscall for anything but Running.
TEST_CASE("Network and Syscalls instants are the transitions go tool trace marks", "[timeline][corpus]") {
  size_t network_seen = 0, syscalls_seen = 0;
  for (const char* name : {"go119-workload.trace", "go122-workload.trace", "http_1_5_good.trace", "go123-iter-pull.trace"}) {
    INFO(name);
    ReadResult r = read_trace(read_bytes(corpus_path(name)));
    REQUIRE(r.ok());
    const EventStore& s = r.store;
    TimelineIndex index = build_timeline_index(s);
    std::set<uint64_t> network, syscalls;
    std::map<int64_t, std::string_view> blocked_for;  // goroutine -> its block reason
    for (size_t i = 0; i < s.size(); i++) {
      EventView ev(s, i);
      if (ev.kind() != EventKind::StateTransition) continue;
      StateTransition st = ev.state_transition();
      if (st.resource.kind != ResourceKind::Goroutine || st.old_state == st.new_state) continue;
      const GoState from = st.go_from(), to = st.go_to();
      const bool was_running = from == GoState::Running || from == GoState::Syscall;
      if (was_running && to == GoState::Waiting) blocked_for[st.resource.id] = st.reason;
      if (from == GoState::Waiting) {
        if (blocked_for[st.resource.id].find("network") != std::string_view::npos) network.insert(i);
        blocked_for[st.resource.id] = {};
      }
      if (from == GoState::Syscall && to != GoState::Running) syscalls.insert(i);
    }
    for (auto [kind, want] : {std::pair{InstantKind::NetworkUnblock, &network}, std::pair{InstantKind::SyscallExit, &syscalls}}) {
      InstantMarks m = query_instants(index, kind, ResourceKind::Proc, {index.start(), index.end() + 1, 100000000});
      std::set<uint64_t> got(m.event.begin(), m.event.end());
      size_t total = 0;
      for (uint32_t c : m.count) total += c;
      CHECK(total == want->size());
      CHECK(got == *want);
    }
    network_seen += network.size();
    syscalls_seen += syscalls.size();
  }
  CHECK(network_seen > 0);
  CHECK(syscalls_seen > 0);
  CHECK(instant_kind("network") == InstantKind::NetworkUnblock);
  CHECK(instant_kind("syscalls") == InstantKind::SyscallExit);
  CHECK(!instant_kind("threads"));
}

TEST_CASE("CPU samples and wake edges", "[timeline][corpus]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-cpu-profile.trace")));
  REQUIRE(r.ok());
  const EventStore& s = r.store;
  TimelineIndex index = build_timeline_index(s);
  size_t samples = 0;
  for (size_t i = 0; i < s.size(); i++) samples += EventView(s, i).kind() == EventKind::StackSample;
  InstantMarks m = query_instants(index, InstantKind::CPUSample, ResourceKind::Proc, {index.start(), index.end() + 1, 1000});
  size_t total = 0;
  for (uint32_t c : m.count) total += c;
  CHECK(total == samples);
  CHECK(samples > 0);

  // Brute force: each GoStart in view, and the transition that made its goroutine runnable.
  TimelineView v{index.start(), index.end() + 1, 1000};
  std::map<int64_t, size_t> last_transition;  // goroutine -> event
  std::vector<std::pair<size_t, size_t>> want;  // (wake, start)
  for (size_t i = 0; i < s.size(); i++) {
    EventView ev(s, i);
    if (ev.kind() != EventKind::StateTransition) continue;
    StateTransition st = ev.state_transition();
    if (st.resource.kind != ResourceKind::Goroutine || st.old_state == st.new_state) continue;
    if (ev.type() == v2::EvGoStart && last_transition.count(st.resource.id)) {
      size_t w = last_transition[st.resource.id];
      uint8_t t = s.type(w);
      if (t == v2::EvGoUnblock || t == v2::EvGoCreate || t == v2::EvGoSyscallEndBlocked || t == v2::EvGoSwitch ||
          t == v2::EvGoSwitchDestroy)
        want.push_back({w, i});
    }
    last_transition[st.resource.id] = i;
  }
  REQUIRE(!want.empty());
  WakeEdges e = query_wake_edges(index, v, 1u << 30);
  CHECK(!e.sampled);
  REQUIRE(e.size() == want.size());
  for (size_t i = 0; i < e.size(); i++) {
    CHECK(e.from_time[i] == s.time(want[i].first));
    CHECK(e.to_time[i] == s.time(want[i].second));
    CHECK(e.goroutine[i] == static_cast<int64_t>(s.ab(want[i].second)));
    CHECK(e.to_proc[i] == s.context(want[i].second).p);
    CHECK(e.from_goroutine[i] == s.context(want[i].first).g);
  }
  WakeEdges sampled = query_wake_edges(index, v, 10);
  CHECK(sampled.sampled);
  CHECK(sampled.size() <= v.pixels);
  CHECK(sampled.size() > 0);
}

TEST_CASE("the index is small and queries are bounded", "[timeline][corpus]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-workload.trace")));
  REQUIRE(r.ok());
  TimelineIndex index = build_timeline_index(r.store);
  const double per_event = static_cast<double>(index.memory().total()) / static_cast<double>(r.store.size());
  INFO("index bytes per event: " << per_event);
  CHECK(per_event < 8.0);
  TimelineIndex no_threads = build_timeline_index(r.store, {false});
  CHECK(no_threads.memory().threads < index.memory().threads);
  CHECK(no_threads.ids(TrackKind::Thread).empty());
  TimelineView all{index.start(), index.end() + 1, 2000};
  for (TrackKind kind : {TrackKind::Goroutine, TrackKind::Proc, TrackKind::Thread})
    for (int64_t id : index.ids(kind)) CHECK(query_slices(index, {kind, id}, all).size() <= 4002);
  // Unknown tracks and empty views give nothing.
  CHECK(query_slices(index, {TrackKind::Goroutine, -42}, all).size() == 0);
  CHECK(query_slices(index, {TrackKind::Proc, 0}, {all.to, all.from, 10}).size() == 0);
  // JSON has every column.
  std::string json;
  JsonWriter w(json);
  slices_json(w, r.store, TrackKind::Goroutine, query_slices(index, {TrackKind::Goroutine, 1}, all));
  CHECK(json.find("\"time_in\"") != std::string::npos);
}

TEST_CASE("gotrace timeline", "[timeline][cli][corpus]") {
  std::string out;
  std::string gotrace = "'";
  gotrace.append(cli_path()).append("'");
  std::string query = gotrace;
  query.append(" timeline '").append(corpus_path("go123-stress.trace")).append("' --track=proc:0 --pixels=100 --json");
  REQUIRE(run_command(query, &out) == 0);
  CHECK(out.find("\"start\":[") != std::string::npos);
  std::string help = gotrace;
  REQUIRE(run_command(help.append(" timeline --help"), &out) == 0);
  CHECK(out.find("--track") != std::string::npos);
}

TEST_CASE("an empty store has an empty timeline", "[timeline]") {
  EventStore empty;
  TimelineIndex index = build_timeline_index(empty);
  TimelineView v{0, 1000, 100};
  for (size_t k = 0; k < kTrackKinds; k++) CHECK(query_slices(index, {static_cast<TrackKind>(k), 0}, v).size() == 0);
  CHECK(query_regions(index, 1, v).size() == 0);
  CHECK(query_tasks(index, v).size() == 0);
  CHECK(query_instants(index, InstantKind::Log, ResourceKind::Goroutine, v).size() == 0);
  CHECK(query_wake_edges(index, v, 10).size() == 0);
  SeriesPoints p = query_series(index, SeriesKind::HeapAlloc, v);
  for (int64_t x : p.value) CHECK(x == 0);
}
