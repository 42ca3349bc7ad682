// The index of every wake-up edge: one pass over the events when it is built;
// a goroutine's edges are then two chains to walk.
#include "gotrace/analysis/wake_index.h"

#include <algorithm>
#include <unordered_map>

#include "gotrace/event_slices.h"
#include "gotrace/event_view.h"
#include "gotrace/v2_spec.h"
#include "gotrace/id_map.h"
#include "timeline_families.h"
#include "analysis/transition.h"
#include "wake_kind.h"

namespace gotrace::analysis {
namespace {

using namespace detail;

// Counts per counterpart, in the order edges come (the first seen is the first).
class Counter {
 public:
  void add(int64_t who, Time t) {
    auto [it, fresh] = at_.try_emplace(who, list_.size());
    if (fresh) list_.push_back({who, 0, t});
    list_[it->second].count++;
  }
  std::vector<WakeCount> take() {
    std::sort(list_.begin(), list_.end(), [](const WakeCount& a, const WakeCount& b) {
      return a.count != b.count ? a.count > b.count : a.goroutine < b.goroutine;
    });
    return std::move(list_);
  }

 private:
  std::vector<WakeCount> list_;
  std::unordered_map<int64_t, size_t> at_;
};

}  // namespace

WakeCounts count_wakeups(const WakeEdges& r, int64_t g) {
  Counter by, woke;
  for (size_t i = 0; i < r.size(); i++) {
    if (r.goroutine[i] == g) by.add(r.from_goroutine[i], r.to_time[i]);
    if (r.from_goroutine[i] == g && r.goroutine[i] != g) woke.add(r.goroutine[i], r.from_time[i]);
  }
  return {by.take(), woke.take()};
}

WakeCounts WakeIndex::count(int64_t g, Time from, Time to) const {
  if (!store_) return {};
  const EventStore& s = *store_;
  // The edges of a chain whose start is in [from, to), earliest first: the chain runs
  // from the latest edge back.
  std::vector<uint32_t> chain;
  auto collect = [&](uint32_t k, uint32_t Edge::*previous) {
    chain.clear();
    for (; k != kNone; k = edges_[k].*previous) {
      const Time t = s.time(edges_[k].start);
      if (t < from) break;
      if (t < to) chain.push_back(k);
    }
    std::reverse(chain.begin(), chain.end());
  };
  Counter by, woke;
  collect(latest_into_.get(g), &Edge::previous_into);
  for (uint32_t k : chain) by.add(s.context(edges_[k].wake).g, s.time(edges_[k].start));
  collect(latest_from_.get(g), &Edge::previous_from);
  for (uint32_t k : chain) {
    const auto woken = static_cast<int64_t>(static_cast<GoID>(s.ab(edges_[k].start)));
    if (woken != g) woke.add(woken, s.time(edges_[k].wake));
  }
  return {by.take(), woke.take()};
}

// A goroutine's track is its transitions that change its state (the timeline's goroutine
// lanes); an edge is a start whose previous entry there made it runnable.
struct WakeIndexBuild::State {
  State(const EventStore& s, const std::array<uint64_t, 256>* events_by_type) : store(s) {
    index.store_ = &s;
    // At most one edge per start: room for them all at once, so that the array does not
    // grow by copying into fresh memory (pages never touched are never paid for).
    index.edges_.reserve(events_by_type ? (*events_by_type)[v2::EvGoStart] : 0);
  }
  const EventStore& store;
  size_t next = 0;  // the first event not read
  IdMap<uint32_t, WakeIndex::kNone> last;  // each goroutine's last entry
  WakeIndex index;
  bool done = false;
};

WakeIndexBuild::WakeIndexBuild(const EventStore& store, const std::array<uint64_t, 256>* events_by_type)
    : s_(std::make_unique<State>(store, events_by_type)) {}
WakeIndexBuild::WakeIndexBuild(WakeIndexBuild&&) noexcept = default;
WakeIndexBuild& WakeIndexBuild::operator=(WakeIndexBuild&&) noexcept = default;
WakeIndexBuild::~WakeIndexBuild() = default;

bool WakeIndexBuild::step(size_t events) {
  State& st = *s_;
  if (st.done) return true;
  const EventStore& s = st.store;
  WakeIndex& w = st.index;
  const size_t to = st.next + std::min(events, s.size() - st.next);
  for_each_goroutine_change(s, st.next, to, [&](uint32_t e, uint8_t type, const StateTransition& tr, const auto&) {
    const GoID g = tr.resource.id;
    const uint32_t before = st.last.get(g);
    if (type == v2::EvGoStart && before != WakeIndex::kNone && wake_kind(s.type(before))) {
      const GoID waker = s.goroutine(before);
      const auto k = static_cast<uint32_t>(w.edges_.size());
      w.edges_.push_back({e, before, w.latest_into_.get(g), w.latest_from_.get(waker)});
      w.latest_into_.set(g, k);
      w.latest_from_.set(waker, k);
    }
    st.last.set(g, e);
  });
  st.next = to;
  if (to < s.size()) return false;
  st.last = {};
  st.done = true;
  return true;
}

WakeIndex WakeIndexBuild::take() {
  while (!step(SIZE_MAX)) {
  }
  return std::move(s_->index);
}

WakeIndex build_wake_index(const EventStore& s) {
  const std::array<uint64_t, 256> of_type = s.count_by_type();
  return WakeIndexBuild(s, &of_type).take();
}

}  // namespace gotrace::analysis
