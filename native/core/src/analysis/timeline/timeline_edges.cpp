// Wake-up edges (cmd/trace's flow arrows, gstate.go's startCause): when a goroutine
// starts running, what made it runnable — an unblock, its creation, or the end of a
// syscall that had lost its proc. Nothing extra is stored: a start is an entry of a
// proc track, and the goroutine's own track holds, just before it, the event that made
// it runnable.
#include <algorithm>
#include <cmath>
#include <optional>

#include "gotrace/analysis/timeline_query.h"
#include "gotrace/v2_spec.h"
#include "timeline_data.h"
#include "wake_kind.h"

namespace gotrace::analysis {

std::optional<WakeKind> detail::wake_kind(uint8_t type) {
  switch (type) {
    case v2::EvGoUnblock:
    case v2::EvGoSwitch:
    case v2::EvGoSwitchDestroy: return WakeKind::Unblock;
    case v2::EvGoCreate: return WakeKind::Create;
    case v2::EvGoSyscallEndBlocked: return WakeKind::SyscallExit;
    default: return std::nullopt;
  }
}

namespace {

using namespace detail;

struct Edge {
  uint32_t wake = 0, start = 0;
  WakeKind kind = WakeKind::Unblock;
  StringID reason = 0;
};

// The edge into the start at event `start` (a GoStart), if the goroutine was woken.
std::optional<Edge> edge_into(const TimelineData& d, uint32_t start) {
  const EventStore& s = *d.store;
  const SliceTracks& gs = d.of(TrackKind::Goroutine);
  int64_t lane = gs.lane_of(static_cast<int64_t>(s.ab(start)));
  if (lane < 0) return std::nullopt;
  const auto l = static_cast<uint32_t>(lane);
  uint32_t k = gs.lanes.lower_bound(l, start);
  if (k == 0 || k >= gs.lanes.size(l)) return std::nullopt;
  LaneSet::Reader r = gs.lanes.at(l, k >= 2 ? k - 2 : k - 1);
  uint32_t before = kAbsent;
  if (k >= 2) {
    before = r.event();
    r.next();
  }
  const uint32_t wake = r.event();
  std::optional<WakeKind> kind = wake_kind(s.type(wake));
  if (!kind) return std::nullopt;
  Edge e{wake, start, *kind, 0};
  if (*kind == WakeKind::Unblock && before != kAbsent && s.type(before) == v2::EvGoBlock) e.reason = s.a(before);
  return e;
}

void append(const EventStore& s, const Edge& e, WakeEdges& out) {
  const Context& from = s.context(e.wake);
  const Context& to = s.context(e.start);
  out.from_time.push_back(s.time(e.wake));
  out.to_time.push_back(s.time(e.start));
  out.kind.push_back(e.kind);
  out.goroutine.push_back(static_cast<int64_t>(s.ab(e.start)));
  out.from_goroutine.push_back(from.g);
  out.from_proc.push_back(from.p);
  out.from_thread.push_back(from.m);
  out.to_proc.push_back(to.p);
  out.to_thread.push_back(to.m);
  out.reason.push_back(e.reason);
}

}  // namespace

std::string_view to_string(WakeKind k) {
  switch (k) {
    case WakeKind::Unblock: return "unblock";
    case WakeKind::Create: return "go";
    case WakeKind::SyscallExit: return "exit blocked syscall";
  }
  return "";
}

WakeEdges query_wake_edges(const TimelineIndex& index, const TimelineView& view, uint32_t limit) {
  WakeEdges out;
  const TimelineData& d = index.data();
  if (view.to <= view.from || view.pixels == 0) return out;
  const EventStore& s = *d.store;
  const SliceTracks& procs = d.of(TrackKind::Proc);
  const uint32_t lanes = procs.lanes.lanes();

  // Proc track entries in view: an upper bound on the starts.
  std::vector<uint32_t> first(lanes), last(lanes);
  uint64_t in_view = 0;
  for (uint32_t l = 0; l < lanes; l++) {
    first[l] = first_at_or_after(s, procs.lanes, l, view.from);
    last[l] = first_at_or_after(s, procs.lanes, l, view.to);
    in_view += last[l] - first[l];
  }

  if (in_view <= limit) {
    std::vector<Edge> edges;
    for (uint32_t l = 0; l < lanes; l++) {
      LaneSet::Reader r = procs.lanes.at(l, first[l]);
      for (; !r.done() && r.index() < last[l]; r.next()) {
        if (s.type(r.event()) != v2::EvGoStart) continue;
        if (auto e = edge_into(d, r.event())) edges.push_back(*e);
      }
    }
    // One stream, in the order the goroutines started.
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.start < b.start; });
    for (const Edge& e : edges) append(s, e, out);
    return out;
  }

  // Too many to draw: per pixel, the start that waited longest among the first start
  // of each proc in that pixel. Each proc track is walked forward block by block (the
  // summaries give each block's length without reading the events).
  out.sampled = true;
  const Pixels px(view);
  std::vector<std::optional<Edge>> best(view.pixels);
  std::vector<Time> best_wait(view.pixels, -1);
  for (uint32_t l = 0; l < lanes; l++) {
    const uint32_t blocks = procs.lanes.blocks(l);
    const SliceTracks::LaneSummaries sums = procs.summaries_of(l);
    auto block_start = [&](uint32_t k) { return s.time(procs.lanes.block_event(l, k)); };
    uint32_t k = first[l] / LaneSet::kBlock;
    if (k >= blocks) continue;  // nothing at or after the view's start
    Time kt = block_start(k);
    for (uint32_t p = 0; p < view.pixels; p++) {
      const Time a = px.start(p), b = std::min(view.to, px.start(p + 1));
      if (a >= b) continue;
      // The last block starting at or before a.
      while (k + 1 < blocks) {
        const BlockSummary* sum = k < sums.count[0] ? &procs.levels[0].blocks[sums.first[0] + k] : nullptr;
        const Time next = sum && sum->mergeable ? kt + Time{sum->span} : block_start(k + 1);
        if (next > a) break;
        k++;
        kt = next;
      }
      // Its first start in [a, b), looking a block and a few entries ahead at most.
      int budget = static_cast<int>(LaneSet::kBlock) + 8;
      for (LaneSet::Reader r(procs.lanes, l, k); !r.done() && budget-- > 0; r.next()) {
        const Time t = s.time(r.event());
        if (t >= b) break;
        if (t < a || s.type(r.event()) != v2::EvGoStart) continue;
        if (auto e = edge_into(d, r.event())) {
          Time wait = s.time(e->start) - s.time(e->wake);
          if (wait > best_wait[p]) {
            best[p] = e;
            best_wait[p] = wait;
          }
          break;
        }
      }
    }
  }
  for (const auto& e : best)
    if (e) append(s, *e, out);
  return out;
}

}  // namespace gotrace::analysis
