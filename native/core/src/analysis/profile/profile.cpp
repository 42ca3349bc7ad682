// A port of cmd/trace/pprof.go (Go 1.23, and Go 1.27's change: transitions without a
// stack count too): makeComputePprofFunc, pprofOverlappingDuration and stackMap.
#include "gotrace/analysis/profile.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "analysis/event_kinds.h"
#include "gotrace/event_slices.h"
#include "gotrace/event_view.h"
#include "gotrace/go_int.h"
#include "gotrace/id_map.h"
#include "analysis/transition.h"

namespace gotrace::analysis {
namespace {

struct TypeRule {
  GoState state;
  bool (*track_reason)(std::string_view reason);
};

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// Go's computePprofIO / computePprofBlock / computePprofSyscall / computePprofSched.
TypeRule rule_of(ProfileType type) {
  switch (type) {
    case ProfileType::Net:
      return {GoState::Waiting, [](std::string_view r) { return r == "network"; }};
    case ProfileType::Sync:
      return {GoState::Waiting,
              [](std::string_view r) { return contains(r, "chan") || contains(r, "sync") || contains(r, "select"); }};
    case ProfileType::Syscall:
      return {GoState::Syscall, [](std::string_view) { return true; }};
    case ProfileType::Sched:
      break;
  }
  return {GoState::Runnable, [](std::string_view) { return true; }};
}

// rule.track_reason of the few reasons a trace has, remembered by the address of their
// text (the store's string table keeps one copy of each string).
class ReasonCache {
 public:
  explicit ReasonCache(bool (*rule)(std::string_view)) : rule_(rule) {}
  bool tracked(std::string_view reason) {
    for (size_t k = 0; k < n_; k++)
      if (seen_[k].data == reason.data() && seen_[k].size == reason.size()) return seen_[k].tracked;
    const bool tracked = rule_(reason);
    if (n_ < kSize) seen_[n_++] = {reason.data(), reason.size(), tracked};
    return tracked;
  }

 private:
  static constexpr size_t kSize = 16;
  struct Seen {
    const char* data;
    size_t size;
    bool tracked;
  };
  bool (*rule_)(std::string_view);
  Seen seen_[kSize] = {};
  size_t n_ = 0;
};

}  // namespace

void GoroutineLifetimes::add(GoID g, Interval span) {
  if (count_ == 0) first_ = g;
  if (dense_) {
    const uint64_t at = static_cast<uint64_t>(g) - static_cast<uint64_t>(first_);
    if (at >= spans_.size() && at - spans_.size() <= kMaxGap) {
      spans_.resize(at, Interval{kAbsent, kAbsent});
      spans_.push_back(span);
      count_++;
      return;
    }
    // A gap too wide: the ids kept beside the spans from now on.
    std::vector<Interval> spans;
    spans.reserve(count_ + 1);
    for (size_t k = 0; k < spans_.size(); k++) {
      if (spans_[k].start == kAbsent) continue;
      ids_.push_back(first_ + static_cast<GoID>(k));
      spans.push_back(spans_[k]);
    }
    spans_.swap(spans);
    dense_ = false;
  }
  ids_.push_back(g);
  spans_.push_back(span);
  count_++;
}

const Interval* GoroutineLifetimes::of(GoID g) const {
  if (dense_) {
    const uint64_t at = static_cast<uint64_t>(g) - static_cast<uint64_t>(first_);
    return at < spans_.size() && spans_[at].start != kAbsent ? &spans_[at] : nullptr;
  }
  auto it = std::lower_bound(ids_.begin(), ids_.end(), g);
  return it != ids_.end() && *it == g ? &spans_[it - ids_.begin()] : nullptr;
}

namespace {

// Go's interval.overlap: 0 when disjoint, else the length of the intersection (which
// can be 0 when they only touch).
int64_t overlap(Interval a, Interval b) {
  if (a.end < b.start || b.end < a.start) return 0;
  return std::min(a.end, b.end) - std::max(a.start, b.start);
}

// Go's pprofOverlappingDuration, with the optional window applied to the sample first.
int64_t overlapping_duration(const ProfileFilter& f, GoID g_id, Interval sample) {
  if (f.window) {
    if (sample.end < f.window->start || f.window->end < sample.start) return 0;
    sample = {std::max(sample.start, f.window->start), std::min(sample.end, f.window->end)};
  }
  if (f.lifetimes) {
    const GoroutineSummary* g = f.lifetimes->goroutine(g_id);
    if (!g) return 0;
    const int64_t o = overlap(lifetime(*g, f.lifetimes->last_time), sample);
    return o > 0 ? o : 0;
  }
  if (f.lifetime_table) {
    const Interval* span = f.lifetime_table->of(g_id);
    if (!span) return 0;
    const int64_t o = overlap(*span, sample);
    return o > 0 ? o : 0;
  }
  if (!f.goroutines) return sample.duration();
  int64_t total = 0;
  for (const Interval& iv : f.goroutines->of(g_id)) {
    int64_t o = overlap(iv, sample);
    if (o > 0) total += o;
  }
  return total;
}

// Go's stackMap: records keyed by stack, deduplicated on the stack's first 128 PCs.
// Go keeps the newest stack of a PC sequence; so do we.
class StackMap {
 public:
  explicit StackMap(const StackTable& stacks) : stacks_(stacks) {}

  ProfileRecord& get_or_add(StackID stack) {
    if (const uint32_t* r = by_stack_.find(stack)) return records_[*r];
    uint64_t h = pc_hash(stack);
    uint32_t* head = by_pcs_.find(h);
    for (uint32_t r = head ? *head : kNone; r != kNone; r = next_[r]) {
      if (!same_pcs(records_[r].stack, stack)) continue;
      by_stack_.erase(records_[r].stack);
      records_[r].stack = stack;
      by_stack_[stack] = r;
      return records_[r];
    }
    auto r = static_cast<uint32_t>(records_.size());
    records_.push_back({stack, 0, 0});
    next_.push_back(head ? *head : kNone);
    by_pcs_[h] = r;
    by_stack_[stack] = r;
    return records_.back();
  }

  std::vector<ProfileRecord> take() { return std::move(records_); }

 private:
  static constexpr uint32_t kNone = ~uint32_t{0};

  std::span<const FrameID> pcs_frames(StackID stack) const {
    auto f = stacks_.frames(stack);
    return f.first(std::min(f.size(), kPprofMaxStack));
  }
  // Trailing zero PCs left out: same_pcs reads them as the end of the stack.
  uint64_t pc_hash(StackID stack) const {
    auto frames = pcs_frames(stack);
    while (!frames.empty() && stacks_.frame(frames.back()).pc == 0) frames = frames.first(frames.size() - 1);
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (FrameID f : frames) h = mix64(h ^ stacks_.frame(f).pc);
    return h;
  }
  // Go compares [128]uint64 arrays: PCs past the end of the stack read as 0.
  bool same_pcs(StackID a, StackID b) const {
    auto fa = pcs_frames(a), fb = pcs_frames(b);
    size_t n = std::max(fa.size(), fb.size());
    for (size_t i = 0; i < n; i++) {
      uint64_t pa = i < fa.size() ? stacks_.frame(fa[i]).pc : 0;
      uint64_t pb = i < fb.size() ? stacks_.frame(fb[i]).pc : 0;
      if (pa != pb) return false;
    }
    return true;
  }

  const StackTable& stacks_;
  std::vector<ProfileRecord> records_;
  std::vector<uint32_t> next_;  // records with the same PC hash
  FlatMap<uint32_t> by_stack_;  // stack -> record
  FlatMap<uint32_t> by_pcs_;    // PC hash -> newest record with that hash
};

}  // namespace

std::string_view to_string(ProfileType type) {
  switch (type) {
    case ProfileType::Net: return "net";
    case ProfileType::Sync: return "sync";
    case ProfileType::Syscall: return "syscall";
    case ProfileType::Sched: return "sched";
  }
  return "";
}

std::optional<ProfileType> parse_profile_type(std::string_view name) {
  for (ProfileType t : kProfileTypes)
    if (to_string(t) == name) return t;
  return std::nullopt;
}

void GoroutineIntervals::add(GoID g, Interval interval) {
  uint32_t k = slot_.get(g);
  if (k == kNoSlot) {
    k = static_cast<uint32_t>(ids_.size());
    slot_.set(g, k);
    ids_.push_back(g);
    if (begin_.empty()) begin_.push_back(0);
    begin_.push_back(begin_.back());
  }
  // Intervals are kept grouped by goroutine; adding to an earlier one (not the last)
  // shifts the later ones, which the filters here never need.
  intervals_.insert(intervals_.begin() + begin_[k + 1], interval);
  for (size_t j = k + 1; j < begin_.size(); j++) begin_[j]++;
}

void GoroutineIntervals::reserve(size_t goroutines, size_t intervals) {
  ids_.reserve(goroutines);
  begin_.reserve(goroutines + 1);
  intervals_.reserve(intervals);
}

std::span<const Interval> GoroutineIntervals::of(GoID g) const {
  const uint32_t k = slot_.get(g);
  if (k == kNoSlot) return {};
  return {intervals_.data() + begin_[k], begin_[k + 1] - begin_[k]};
}

struct ProfilePass::State {
  // Where a tracked goroutine entered its state (its event may be gone by its end).
  struct Entered {
    Time time;
    StackID stack;
  };
  // Each type's own state; the pass over the events and the reading of each transition
  // are shared.
  struct Computation {
    ProfileType type;
    TypeRule rule;
    ReasonCache reasons;
    StackMap stacks;
    std::vector<Entered> entered;
    std::vector<uint32_t> free;  // slots of `entered` no goroutine holds
  };
  static constexpr size_t kMaxTypes = std::size(kProfileTypes);
  // What each type tracks of a goroutine: index + 1 in its `entered`, 0 for none.
  using Tracking = std::array<uint32_t, kMaxTypes>;

  State(const EventStore& s, std::span<const ProfileType> types, const ProfileFilter& f) : store(s), filter(f) {
    if (types.size() > kMaxTypes) throw std::logic_error("a profile pass of more types than there are");
    each.reserve(types.size());
    for (ProfileType type : types) {
      const TypeRule rule = rule_of(type);
      each.push_back({type, rule, ReasonCache{rule.track_reason}, StackMap(store.stacks), {}, {}});
    }
  }

  void add(size_t from, size_t to);

  const EventStore& store;
  const ProfileFilter& filter;
  std::vector<Computation> each;
  // One map of the goroutines any type tracks (its array by goroutine id is 4 bytes for
  // every id up to the largest: 32 MB on a trace of 5 M goroutines, once for all types).
  IdMap<uint32_t, 0> tracked;  // goroutine -> index + 1 in `tracking`
  std::vector<Tracking> tracking;
  std::vector<uint32_t> free_tracking;
};

void ProfilePass::State::add(size_t from, size_t to) {
  const auto& kinds = detail::event_kinds();
  // Go 1.27's rules for a store with its Syncs, Go 1.23's otherwise.
  const bool go127 = store.format.leading_syncs;
  // A chunk's columns at a time (EventStore::ChunkColumns), in slices (event_slices.h): a
  // WebAssembly engine optimizes the loop between them.
  auto pass = [&](const EventStore::ChunkColumns& col, size_t first, size_t end) {
    for (size_t i = first; i < end; i++) {
      // State transitions; Go 1.23 only those with a stack.
      const uint8_t ev_type = col.type(i);
      if (kinds[ev_type] != EventKind::StateTransition) continue;
      if (!go127 && col.stack(i) == 0) continue;
      const StateTransition st = detail::read_transition(store, col, i, ev_type);
      if (st.resource.kind != ResourceKind::Goroutine) continue;
      const GoID id = st.resource.id;
      const GoState to_state = st.go_to();

      uint32_t t = tracked.get(id);  // index + 1 in `tracking`, 0 while no type tracks it
      bool ended = false;
      for (size_t k = 0; k < each.size(); k++) {
        Computation& c = each[k];
        const uint32_t slot = t ? tracking[t - 1][k] : 0;
        if (slot == 0) {
          if (to_state == c.rule.state && c.reasons.tracked(st.reason)) {
            const Entered e{col.time(i), col.stack(i)};
            uint32_t at;
            if (c.free.empty()) {
              c.entered.push_back(e);
              at = static_cast<uint32_t>(c.entered.size());
            } else {
              c.entered[c.free.back()] = e;
              at = c.free.back() + 1;
              c.free.pop_back();
            }
            if (t == 0) {
              if (free_tracking.empty()) {
                tracking.push_back({});
                t = static_cast<uint32_t>(tracking.size());
              } else {
                t = free_tracking.back() + 1;
                free_tracking.pop_back();
              }
              tracked.set(id, t);
            }
            tracking[t - 1][k] = at;
          }
          continue;
        }
        if (to_state == c.rule.state) continue;  // still in the state: nothing new
        const Entered began = c.entered[slot - 1];
        c.free.push_back(slot - 1);
        tracking[t - 1][k] = 0;
        ended = true;

        int64_t d = overlapping_duration(filter, id, {began.time, col.time(i)});
        if (d > 0) {
          ProfileRecord& rec = c.stacks.get_or_add(began.stack);
          rec.count++;
          rec.nanoseconds = wrap_add(rec.nanoseconds, d);
        }
      }
      if (ended && tracking[t - 1] == Tracking{}) {  // no type tracks it now
        free_tracking.push_back(t - 1);
        tracked.erase(id);
      }
    }
  };
  for_each_event_slice_between(from, to, [&](size_t first, size_t end) { store.for_each_chunk(first, end, pass); });
}

ProfilePass::ProfilePass(const EventStore& store, std::span<const ProfileType> types, const ProfileFilter& filter)
    : s_(std::make_unique<State>(store, types, filter)) {}
ProfilePass::ProfilePass(ProfilePass&&) noexcept = default;
ProfilePass& ProfilePass::operator=(ProfilePass&&) noexcept = default;
ProfilePass::~ProfilePass() = default;

void ProfilePass::add(size_t from, size_t to) { s_->add(from, to); }

std::vector<Profile> ProfilePass::take() {
  std::vector<Profile> out;
  for (State::Computation& c : s_->each) out.push_back({c.type, c.stacks.take()});
  return out;
}

std::vector<Profile> compute_profiles(const EventStore& store, std::span<const ProfileType> types,
                                      const ProfileFilter& filter) {
  ProfilePass pass(store, types, filter);
  pass.add(0, store.size());
  return pass.take();
}

Profile compute_profile(const EventStore& store, ProfileType type, const ProfileFilter& filter) {
  return std::move(compute_profiles(store, {&type, 1}, filter)[0]);
}

}  // namespace gotrace::analysis
