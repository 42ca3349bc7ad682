// Instants: user logs and CPU profile samples, drawn on the goroutine, proc or thread
// they happened on (cmd/trace's logEventGenerator and stackSampleGenerator); and the
// instants of go tool trace's "Network" and "Syscalls" lanes (gstate.go's unblock and
// blockedSyscallEnd): a goroutine blocked on the network made runnable, and the end of
// a syscall that had lost its proc.
#include <array>

#include "gotrace/analysis/timeline_query.h"
#include "gotrace/event_slices.h"
#include "gotrace/event_view.h"
#include "gotrace/flat_map.h"
#include "gotrace/v2_spec.h"
#include "timeline_data.h"
#include "timeline_families.h"

namespace gotrace::analysis {
namespace detail {
namespace {

int lane_of(uint8_t type) {
  switch (event_kinds()[type]) {
    case EventKind::Log: return static_cast<int>(InstantKind::Log);
    case EventKind::StackSample: return static_cast<int>(InstantKind::CPUSample);
    default: return -1;
  }
}

// The types the pass looks at: those of an instant, and the blocks, unblocks and
// statuses that make a network unblock.
const std::array<bool, 256>& instant_types() {
  static const std::array<bool, 256> wanted = [] {
    std::array<bool, 256> w{};
    for (int t = 0; t < 256; t++) w[t] = lane_of(static_cast<uint8_t>(t)) >= 0;
    for (uint8_t t : {v2::EvGoBlock, v2::EvGoUnblock, v2::EvGoSwitch, v2::EvGoSwitchDestroy, v2::EvGoSyscallEndBlocked,
                      v2::EvGoDestroySyscall, v2::EvGoStatus, v2::EvGoStatusStack})
      w[t] = true;
    return w;
  }();
  return wanted;
}

}  // namespace

void build_instants(TimelineData& d) {
  const EventStore& s = *d.store;
  LaneSetBuilder b;
  // Go names an unblock "network" when the reason the goroutine blocked for contains
  // the word (the reason of its last GoBlock). Only goroutines blocked on the network
  // are kept; a reason string is looked at once.
  FlatMap<uint8_t> blocked_on_network;  // goroutine -> its last block was on the network
  FlatMap<uint8_t> network_reason;      // reason string -> it names the network
  auto is_network = [&](uint32_t reason) {
    auto [v, inserted] = network_reason.try_emplace(reason);
    if (inserted) *v = s.strings.get(reason).find("network") != std::string_view::npos;
    return *v;
  };
  const std::array<bool, 256>& wanted = instant_types();
  // A chunk's columns at a time (EventStore::ChunkColumns), in slices (event_slices.h).
  auto pass = [&](const EventStore::ChunkColumns& col, size_t from, size_t to) {
    for (size_t i = from; i < to; i++) {
      const uint8_t type = col.type(i);
      if (!wanted[type]) [[likely]] continue;
      int lane = lane_of(type);
      if (type == v2::EvGoBlock) {
        const auto g = static_cast<uint64_t>(col.goroutine(i));
        if (is_network(col.a(i))) {
          *blocked_on_network.try_emplace(g).first = 1;
        } else if (uint8_t* v = blocked_on_network.find(g)) {
          *v = 0;
        }
      } else if (type == v2::EvGoUnblock || type == v2::EvGoSwitch || type == v2::EvGoSwitchDestroy) {
        // A switch also blocks the switching goroutine (on its coroutine).
        if (uint8_t* v = type == v2::EvGoSwitch ? blocked_on_network.find(static_cast<uint64_t>(col.goroutine(i))) : nullptr) *v = 0;
        if (uint8_t* v = blocked_on_network.find(col.ab(i)); v && *v) {
          *v = 0;
          lane = static_cast<int>(InstantKind::NetworkUnblock);
        }
      } else if (type == v2::EvGoStatus || type == v2::EvGoStatusStack) {
        // Waiting since before a part of the trace began: its first status carries the
        // reason of the block (EventStore::status_reasons).
        if (const StringID reason = col.status_reason(i); reason != 0 && is_network(reason)) {
          *blocked_on_network.try_emplace(col.ab(i)).first = 1;
        }
      } else if (type == v2::EvGoSyscallEndBlocked || type == v2::EvGoDestroySyscall) {
        lane = static_cast<int>(InstantKind::SyscallExit);
      }
      if (lane >= 0) b.add(static_cast<uint32_t>(lane), static_cast<uint32_t>(i));
    }
  };
  for_each_event_slice(s.size(), [&](size_t from, size_t to) { s.for_each_chunk(from, to, pass); });
  d.instants = b.finish(kInstantKinds);
}

}  // namespace detail

std::optional<InstantKind> instant_kind(std::string_view track) {
  if (track == "logs") return InstantKind::Log;
  if (track == "samples") return InstantKind::CPUSample;
  if (track == "network") return InstantKind::NetworkUnblock;
  if (track == "syscalls") return InstantKind::SyscallExit;
  return std::nullopt;
}

InstantMarks query_instants(const TimelineIndex& index, InstantKind kind, ResourceKind by, const TimelineView& view) {
  using namespace detail;
  InstantMarks out;
  const TimelineData& d = index.data();
  if (view.to <= view.from || view.pixels == 0) return out;
  const EventStore& s = *d.store;
  const LaneSet& lanes = d.instants;
  const auto lane = static_cast<uint32_t>(kind);
  if (lane >= lanes.lanes() || lanes.size(lane) == 0) return out;
  const Pixels px(view);

  const uint32_t first = first_at_or_after(s, lanes, lane, view.from);
  // Open group per resource: resource -> index of its rectangle in `out`, and its pixel.
  struct Open {
    uint32_t rect = 0;
    int64_t bucket = -1;
  };
  FlatMap<Open> open;
  for (LaneSet::Reader r = lanes.at(lane, first); !r.done(); r.next()) {
    const uint32_t e = r.event();
    const Time t = s.time(e);
    if (t >= view.to) break;
    const Context& c = s.context(e);
    const int64_t res = by == ResourceKind::Goroutine ? c.g : by == ResourceKind::Proc ? c.p : c.m;
    const int64_t p = px.of(t);
    Open& o = open[static_cast<uint64_t>(res)];
    if (o.bucket == p) {
      out.count[o.rect]++;
      continue;
    }
    o = {static_cast<uint32_t>(out.size()), p};
    out.time.push_back(t);
    out.resource.push_back(res);
    out.count.push_back(1);
    out.event.push_back(e);
  }
  return out;
}

}  // namespace gotrace::analysis
