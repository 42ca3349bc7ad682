// User regions on goroutine tracks: nested spans per goroutine, matched as Go's
// Summarizer matches them (summary.go): a RegionEnd closes the goroutine's innermost
// open region, whatever its type; one with nothing open stands for a region begun
// before the trace. A goroutine created inside a region inherits an unnamed region,
// which a stray RegionEnd closes instead (and which is never drawn). Regions still
// open when their goroutine ends close there; at the end of the trace, there. Generations
// read again begin with the regions open then (EventStore::regions_at_start), as the
// whole trace has them there.
#include <algorithm>

#include "gotrace/analysis/timeline_query.h"
#include "gotrace/event_slices.h"
#include "gotrace/event_view.h"
#include "timeline_data.h"
#include "timeline_families.h"
#include "timeline_span_merger.h"
#include "analysis/transition.h"

namespace gotrace::analysis {
namespace detail {
namespace {

struct Open {
  uint32_t begin = kAbsent;
  bool inherited = false;
  uint32_t seed = 0;  // RegionSpans::seed
};

struct Span {
  int64_t g;
  Time start;
  uint32_t begin, end;
  uint8_t depth;
  uint32_t seed;
};

}  // namespace

void build_regions(TimelineData& d) {
  const EventStore& s = *d.store;
  FlatMap<uint32_t> slot;               // goroutine -> index into stacks
  std::vector<std::vector<Open>> stacks;
  std::vector<int64_t> owner;
  auto stack_of = [&](GoID g) -> std::vector<Open>& {
    auto [k, inserted] = slot.try_emplace(static_cast<uint64_t>(g));
    if (inserted) {
      *k = static_cast<uint32_t>(stacks.size());
      stacks.emplace_back();
      owner.push_back(g);
    }
    return stacks[*k];
  };
  auto existing = [&](GoID g) -> std::vector<Open>* {
    uint32_t* k = slot.find(static_cast<uint64_t>(g));
    return k ? &stacks[*k] : nullptr;
  };
  std::vector<Span> spans;
  auto depth_below = [](const std::vector<Open>& st, size_t n) {
    size_t depth = 0;
    for (size_t i = 0; i < n; i++) depth += !st[i].inherited;
    return static_cast<uint8_t>(std::min<size_t>(depth, 255));
  };
  auto close = [&](GoID g, const std::vector<Open>& st, size_t i, uint32_t end) {
    if (st[i].inherited) return;
    Time start = st[i].begin == kAbsent ? d.start : s.time(st[i].begin);
    spans.push_back({g, start, st[i].begin, end, depth_below(st, i), st[i].seed});
  };
  // A goroutine's first status in generations read again does not clear what it was in.
  FlatMap<uint8_t> seeded;
  for (size_t k = 0; k < s.regions_at_start.size(); k++) {
    const GoID g = s.regions_at_start[k].g;
    stack_of(g).push_back({kAbsent, false, static_cast<uint32_t>(k + 1)});
    seeded[static_cast<uint64_t>(g)] = 1;
  }

  const auto& kinds = event_kinds();
  // A chunk's columns at a time (EventStore::ChunkColumns), in slices (event_slices.h).
  auto pass = [&](const EventStore::ChunkColumns& col, size_t from, size_t to) {
    for (size_t i = from; i < to; i++) {
      const auto e = static_cast<uint32_t>(i);
      const uint8_t type = col.type(i);
      switch (kinds[type]) {
        case EventKind::RegionBegin:
          stack_of(col.context(i).g).push_back({e, false});
          break;
        case EventKind::RegionEnd: {
          GoID g = col.context(i).g;
          std::vector<Open>& st = stack_of(g);
          if (st.empty()) {
            spans.push_back({g, d.start, kAbsent, e, 0, 0});
          } else {
            close(g, st, st.size() - 1, e);
            st.pop_back();
          }
          break;
        }
        case EventKind::StateTransition: {
          // Only creations and ends matter here.
          using namespace v2;
          if (type != EvGoCreate && type != EvGoCreateBlocked && type != EvGoCreateSyscall && !is_go_status(type) &&
              type != EvGoDestroy && type != EvGoDestroySyscall && type != EvGoBlock)
            break;
          const StateTransition t = read_transition(s, col, i, type);
          if (t.resource.kind != ResourceKind::Goroutine || t.old_state == t.new_state) break;
          GoID g = t.resource.id;
          if (t.go_from() == GoState::NotExist ||
              (t.go_from() == GoState::Undetermined && !seeded.find(static_cast<uint64_t>(g)))) {
            // A new goroutine: it starts with no regions, or inherits its creator's task.
            std::vector<Open>* creator = existing(col.context(i).g);
            bool inherit = creator && !creator->empty();
            if (std::vector<Open>* st = existing(g)) st->clear();
            if (inherit) stack_of(g).push_back({e, true});
          }
          if (t.go_to() == GoState::NotExist || (t.go_to() == GoState::Waiting && t.reason == "forever")) {
            if (std::vector<Open>* st = existing(g)) {
              for (size_t k = st->size(); k-- > 0;) close(g, *st, k, e);
              st->clear();
            }
          }
          break;
        }
        default: break;
      }
    }
  };
  for_each_event_slice(s.size(), [&](size_t from, size_t to) { s.for_each_chunk(from, to, pass); });
  for (size_t k = 0; k < stacks.size(); k++)
    for (size_t i = stacks[k].size(); i-- > 0;) close(owner[k], stacks[k], i, kAbsent);

  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
    if (a.g != b.g) return a.g < b.g;
    if (a.start != b.start) return a.start < b.start;
    return a.depth < b.depth;
  });
  RegionSpans& r = d.regions;
  r.begin.reserve(spans.size());
  r.seed.reserve(spans.size());
  r.end.reserve(spans.size());
  r.depth.reserve(spans.size());
  for (const Span& sp : spans) {
    if (r.goroutines.empty() || r.goroutines.back() != sp.g) {
      r.goroutines.push_back(sp.g);
      r.goroutine_begin.push_back(static_cast<uint32_t>(r.begin.size()));
    }
    r.begin.push_back(sp.begin);
    r.end.push_back(sp.end);
    r.depth.push_back(sp.depth);
    r.seed.push_back(sp.seed);
  }
  r.goroutine_begin.push_back(static_cast<uint32_t>(r.begin.size()));
}

}  // namespace detail

SpanRects query_regions(const TimelineIndex& index, GoID goroutine, const TimelineView& view) {
  using namespace detail;
  SpanRects out;
  const TimelineData& d = index.data();
  const RegionSpans& r = d.regions;
  if (view.to <= view.from || view.pixels == 0) return out;
  auto it = std::lower_bound(r.goroutines.begin(), r.goroutines.end(), goroutine);
  if (it == r.goroutines.end() || *it != goroutine) return out;
  const size_t g = static_cast<size_t>(it - r.goroutines.begin());
  const EventStore& s = *d.store;
  // RegionBegin and RegionEnd: ab = task, c = type (event_view.h). A region open through
  // generations read again is named by the store's regions_at_start, here by the indices
  // just below kAbsent (no run read again comes near 2^32 events).
  const auto& seeds = s.regions_at_start;
  const uint32_t first_seed_name = kAbsent - static_cast<uint32_t>(seeds.size());
  SpanMerger merger(view, out, [&](uint32_t e) {
    if (e >= first_seed_name) {
      const EventStore::RegionAtStart& seed = seeds[kAbsent - 1 - e];
      return std::pair<uint64_t, StringID>{seed.task, seed.name};
    }
    return std::pair<uint64_t, StringID>{s.ab(e), s.c(e)};
  });
  for (uint32_t k = r.goroutine_begin[g]; k < r.goroutine_begin[g + 1]; k++) {
    // A region's task and type are on both its begin and its end.
    uint32_t named = r.begin[k] != kAbsent ? r.begin[k] : r.end[k];
    if (named == kAbsent) {
      if (r.seed[k] == 0) continue;  // (every region has a begin, an end or a seed)
      named = kAbsent - r.seed[k];
    }
    Time start = r.begin[k] != kAbsent ? s.time(r.begin[k]) : d.start;
    if (start >= view.to) break;  // by start
    Time end = r.end[k] != kAbsent ? s.time(r.end[k]) : d.end;
    merger.add(start, end, r.depth[k], named, false);
  }
  merger.finish();
  return out;
}

}  // namespace gotrace::analysis
