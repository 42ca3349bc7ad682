// The index of every wake-up edge: one pass over the events when it is built;
// a goroutine's edges are then two binary searches away.
#include "gotrace/analysis/wake_index.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "gotrace/event_slices.h"
#include "gotrace/event_view.h"
#include "gotrace/v2_spec.h"
#include "gotrace/id_map.h"
#include "timeline_families.h"
#include "transition.h"
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
  // The edges of g's group whose start is in [from, to).
  auto range = [&](const Grouped& gr) -> std::pair<uint32_t, uint32_t> {
    auto it = std::lower_bound(gr.ids.begin(), gr.ids.end(), g);
    if (it == gr.ids.end() || *it != g) return {0, 0};
    const auto k = static_cast<size_t>(it - gr.ids.begin());
    auto b = gr.edges.begin() + gr.begin[k], e = gr.edges.begin() + gr.end[k];
    auto lo = std::partition_point(b, e, [&](const auto& x) { return s.time(x.first) < from; });
    auto hi = std::partition_point(lo, e, [&](const auto& x) { return s.time(x.first) < to; });
    return {static_cast<uint32_t>(lo - gr.edges.begin()), static_cast<uint32_t>(hi - gr.edges.begin())};
  };
  Counter by, woke;
  auto [a, b] = range(into_);
  for (uint32_t i = a; i < b; i++) by.add(s.context(into_.edges[i].second).g, s.time(into_.edges[i].first));
  std::tie(a, b) = range(from_);
  for (uint32_t i = a; i < b; i++) {
    const auto [start, wake] = from_.edges[i];
    const auto woken = static_cast<int64_t>(s.ab(start));
    if (woken != g) woke.add(woken, s.time(wake));
  }
  return {by.take(), woke.take()};
}

namespace {

// Edges (given in start order) grouped by key[k] (ascending), each group in start order:
// a counting sort when the keys are small integers (goroutine ids nearly always are),
// else a stable sort.
void group_edges(const std::vector<std::pair<uint32_t, uint32_t>>& edges, const std::vector<int64_t>& key,
                 WakeIndex::Grouped& out) {
  const size_t n = edges.size();
  int64_t lo = 0, hi = -1;
  for (int64_t k : key) {
    lo = std::min(lo, k);
    hi = std::max(hi, k);
  }
  out.edges.resize(n);
  auto add_group = [&](int64_t id, size_t begin, size_t end) {
    out.ids.push_back(id);
    out.begin.push_back(static_cast<uint32_t>(begin));
    out.end.push_back(static_cast<uint32_t>(end));
  };
  if (n > 0 && lo >= -1 && static_cast<uint64_t>(hi) < 4 * n + (uint64_t{1} << 20)) {
    std::vector<uint32_t> at(static_cast<size_t>(hi - lo) + 2, 0);
    for (int64_t k : key) at[static_cast<size_t>(k - lo) + 1]++;
    for (size_t b = 1; b < at.size(); b++) {
      const size_t begin = at[b - 1], end = begin + at[b];
      if (at[b] != 0) add_group(static_cast<int64_t>(b - 1) + lo, begin, end);
      at[b] = static_cast<uint32_t>(end);
    }
    // at[b] is now where the group of key b + lo begins (at[0] = 0).
    for (size_t i = 0; i < n; i++) out.edges[at[static_cast<size_t>(key[i] - lo)]++] = edges[i];
    return;
  }
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; i++) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
  for (size_t i = 0; i < n; i++) {
    out.edges[i] = edges[order[i]];
    if (i == 0 || key[order[i]] != key[order[i - 1]]) add_group(key[order[i]], i, i);
    out.end.back() = static_cast<uint32_t>(i + 1);
  }
}

}  // namespace

// A goroutine's track is its transitions that change its state (the timeline's goroutine
// lanes); an edge is a start whose previous entry there made it runnable.
struct WakeIndexBuild::State {
  explicit State(const EventStore& s) : store(s) {}
  static constexpr uint32_t kNone = ~0u;
  const EventStore& store;
  size_t next = 0;  // the first event not read
  IdMap<uint32_t, kNone> last;  // each goroutine's last entry
  std::vector<std::pair<uint32_t, uint32_t>> edges;  // (start, wake), in start order
  std::vector<int64_t> woken, waker;
  std::optional<WakeIndex> result;
};

WakeIndexBuild::WakeIndexBuild(const EventStore& store) : s_(std::make_unique<State>(store)) {}
WakeIndexBuild::WakeIndexBuild(WakeIndexBuild&&) noexcept = default;
WakeIndexBuild& WakeIndexBuild::operator=(WakeIndexBuild&&) noexcept = default;
WakeIndexBuild::~WakeIndexBuild() = default;

bool WakeIndexBuild::step(size_t events) {
  State& st = *s_;
  if (st.result) return true;
  const EventStore& s = st.store;
  if (st.next < s.size()) {
    const size_t to = st.next + std::min(events, s.size() - st.next);
    for_each_goroutine_change(s, st.next, to, [&](uint32_t e, uint8_t type, const StateTransition& tr) {
      const GoID g = tr.resource.id;
      const uint32_t before = st.last.get(g);
      if (type == v2::EvGoStart && before != State::kNone && wake_kind(s.type(before))) {
        st.edges.emplace_back(e, before);
        st.woken.push_back(g);
        st.waker.push_back(s.goroutine(before));
      }
      st.last.set(g, e);
    });
    st.next = to;
    return false;  // the grouping is a step of its own
  }
  WakeIndex out;
  out.store_ = &s;
  group_edges(st.edges, st.woken, out.into_);
  group_edges(st.edges, st.waker, out.from_);
  st.result = std::move(out);
  st.edges = {};
  st.woken = {};
  st.waker = {};
  return true;
}

WakeIndex WakeIndexBuild::take() {
  while (!step(SIZE_MAX)) {
  }
  WakeIndex out = std::move(*s_->result);
  s_->result.reset();
  return out;
}

WakeIndex build_wake_index(const EventStore& s) { return WakeIndexBuild(s).take(); }

}  // namespace gotrace::analysis
