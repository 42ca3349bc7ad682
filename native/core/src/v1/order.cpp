#include "order.h"

#include <algorithm>
#include <array>
#include <limits>

#include "strings_util.h"
#include "id_map.h"
#include "stream.h"

namespace gotrace::v1 {
namespace {

// ---- goroutine sequence states (Go's stateTransition) ---------------------------

enum GStatus : uint8_t { gDead, gRunnable, gRunning, gWaiting };

struct GState {
  uint64_t seq = 0;
  uint8_t status = gDead;
  uint32_t waiting = ~0u;  // Go123Merger: the first P whose head waits on this goroutine
};

constexpr uint64_t kUnordered = ~uint64_t{0};    // the event needs no goroutine state
constexpr uint64_t kGarbage = ~uint64_t{0} - 1;  // the pseudo-goroutine GC starts order on
constexpr uint64_t kNoSeq = ~uint64_t{0};        // ready at any sequence number
constexpr uint64_t kSeqInc = ~uint64_t{0} - 1;   // "current + 1": the Local events' next

struct Transition {
  uint64_t g = kUnordered;
  GState init, next;
};

// The goroutine state an event needs to be merged (init) and leaves behind (next), as a
// table by type: the merge asks for every event, and a table lookup does not mispredict
// the way a switch over event types does.
enum Key : uint8_t { kKeyNone, kKeyG, kKeyArg0, kKeyGarbage };  // whose state
// kSeqArg: the event's sequence argument (args[1]; GCStart's GC number, args[0]).
enum Seq : uint8_t { kSeq0, kSeq1, kSeq2, kSeqArg, kSeqArgPlus1, kSeqAny, kSeqNext };

// A sequence number as a transition needs it: the event's sequence argument plus
// `value`, or `value` itself.
struct SeqRule {
  bool from_arg = false;
  uint64_t value = 0;
};

constexpr SeqRule seq_rule(Seq s) {
  switch (s) {
    case kSeq0:
    case kSeq1:
    case kSeq2:
      return {false, s};
    case kSeqArg:
      return {true, 0};
    case kSeqArgPlus1:
      return {true, 1};
    case kSeqAny:
      return {false, kNoSeq};
    case kSeqNext:
      return {false, kSeqInc};
  }
  return {};
}

struct TransitionSpec {
  Key key = kKeyNone;
  uint8_t init_status = gDead;
  uint8_t next_status = gDead;
  SeqRule init_seq, next_seq;

  constexpr TransitionSpec() = default;
  constexpr TransitionSpec(Key k, Seq init, uint8_t init_st, Seq next, uint8_t next_st)
      : key(k), init_status(init_st), next_status(next_st), init_seq(seq_rule(init)), next_seq(seq_rule(next)) {}
};

constexpr std::array<TransitionSpec, 64> build_transitions() {
  std::array<TransitionSpec, 64> t{};
  t[EvGoCreate] = {kKeyArg0, kSeq0, gDead, kSeq1, gRunnable};
  t[EvGoWaiting] = t[EvGoInSyscall] = {kKeyG, kSeq1, gRunnable, kSeq2, gWaiting};
  t[EvGoStart] = t[EvGoStartLabel] = {kKeyG, kSeqArg, gRunnable, kSeqArgPlus1, gRunning};
  // Written on the P of the create or unblock that made it runnable, which P order has
  // therefore merged already.
  t[EvGoStartLocal] = {kKeyG, kSeqAny, gRunnable, kSeqNext, gRunning};
  for (uint8_t e : {EvGoBlock, EvGoBlockSend, EvGoBlockRecv, EvGoBlockSelect, EvGoBlockSync, EvGoBlockCond,
                    EvGoBlockNet, EvGoSleep, EvGoSysBlock, EvGoBlockGC}) {
    t[e] = {kKeyG, kSeqAny, gRunning, kSeqAny, gWaiting};
  }
  t[EvGoSched] = t[EvGoPreempt] = {kKeyG, kSeqAny, gRunning, kSeqAny, gRunnable};
  t[EvGoUnblock] = t[EvGoSysExit] = {kKeyArg0, kSeqArg, gWaiting, kSeqArgPlus1, gRunnable};
  t[EvGoUnblockLocal] = t[EvGoSysExitLocal] = {kKeyArg0, kSeqAny, gWaiting, kSeqNext, gRunnable};
  t[EvGCStart] = {kKeyGarbage, kSeqArg, gDead, kSeqArgPlus1, gDead};
  return t;
}

constexpr std::array<TransitionSpec, 64> kTransitions = build_transitions();

inline Transition state_transition(const Rec& ev) {
  const uint8_t type = ev.type();
  const TransitionSpec& sp = kTransitions[type];
  if (sp.key == kKeyNone) return {};
  const uint64_t seq = type == EvGCStart ? ev.args[0] : ev.args[1];
  const uint64_t init = sp.init_seq.from_arg ? seq + sp.init_seq.value : sp.init_seq.value;
  const uint64_t next = sp.next_seq.from_arg ? seq + sp.next_seq.value : sp.next_seq.value;
  const uint64_t g = sp.key == kKeyG ? ev.g : sp.key == kKeyArg0 ? ev.args[0] : kGarbage;
  return {g, {init, sp.init_status}, {next, sp.next_status}};
}

inline bool ready(const Transition& tr, GState cur) {
  return tr.g == kUnordered || ((tr.init.seq == kNoSeq || tr.init.seq == cur.seq) && tr.init.status == cur.status);
}

class GoroutineStates {
 public:
  explicit GoroutineStates(const Trace& t) : states_(t.recs.size() + 4096) {}
  GState get(uint64_t g) const {
    const GState* s = states_.find(g);
    return s ? *s : GState{};
  }
  // Applies a transition that was ready; false if it no longer is.
  bool apply(const Transition& tr) {
    if (tr.g == kUnordered) return true;
    GState& cur = states_[tr.g];
    if (!ready(tr, cur)) return false;
    advance(cur, tr);
    return true;
  }
  static void advance(GState& cur, const Transition& tr) {
    uint64_t seq = tr.next.seq;
    if (seq == kNoSeq)
      seq = cur.seq;
    else if (seq == kSeqInc)
      seq = cur.seq + 1;
    cur.seq = seq;
    cur.status = tr.next.status;
  }
  GState& slot(uint64_t g) { return states_[g]; }

 private:
  IdMap<GState> states_;
};

// ---- the merged stream ----------------------------------------------------------------

// Collects the merged events and, on the way, does what Go does after the merge: the
// check that times do not go backwards, and the move of each syscall exit to the time
// the syscall really returned (FORMAT.md §3.4 "Timestamps and post-processing"). A
// syscall exit is written when the goroutine gets a P back, long after the return; Go
// moves it only after checking the merged order, so broken clocks show as broken clocks.
//
// It also answers, for each GoSysCall, whether the goroutine's next event is its
// GoSysBlock, which the conversion needs (Go looks ahead in its final stream; in a trace
// that validates, a moved exit never comes between a syscall and that next event).
class MergedStream {
  // The (merged) types that push() looks at beyond the time order.
  static constexpr std::array<bool, 64> kSyscallTypes = [] {
    std::array<bool, 64> t{};
    t[EvGoSysCall] = t[EvGoSysBlock] = t[EvGoInSyscall] = t[EvGoSysExit] = true;
    return t;
  }();

 public:
  explicit MergedStream(Trace& t) : t_(t), last_block_(t.recs.size() + 4096), pending_map_(t.recs.size() + 4096) {
    s_.order.reserve(t.recs.size());
  }

  [[gnu::always_inline]] void push(uint32_t index) {
    Rec& ev = t_.recs[index];
    auto pos = static_cast<uint32_t>(s_.order.size());
    s_.order.push_back(index);
    const uint8_t type = merged_type(ev.type());
    if (ev.ts < last_ts_) sorted_ = false;
    last_ts_ = ev.ts;
    // Most events neither answer a waiting GoSysCall nor take part in syscall exits.
    if (!pending_.empty() || many_ || kSyscallTypes[type]) [[unlikely]] {
      syscall_bookkeeping(index, type, pos);
    }
  }

  Stream finish() {
    if (!sorted_) throw TraceError("time stamps out of order");
    if (problem_) fail_at(problem_, t_.event(problem_at_));
    if (!moved_.empty()) splice_moved();
    return std::move(s_);
  }

 private:
  // A GoSysCall waits for its goroutine's next event. Nearly always that is the very
  // next event, so the waiting ones sit in a short list; a map takes over if many wait.
  void track_syscalls(uint64_t g, uint8_t type, uint32_t pos) {
    if (!pending_.empty() || many_) {
      uint32_t at = ~0u;
      if (many_) {
        uint32_t& slot = pending_map_[g];
        if (slot) {
          at = slot - 1;
          slot = 0;
        }
      } else {
        for (size_t i = 0; i < pending_.size(); i++) {
          if (pending_[i].first == g) {
            at = pending_[i].second;
            pending_[i] = pending_.back();
            pending_.pop_back();
            break;
          }
        }
      }
      if (at != ~0u && type == EvGoSysBlock) s_.order[at] |= Stream::kSyscallBlocks;
    }
    if (type != EvGoSysCall) return;
    if (!many_ && pending_.size() < 16) {
      pending_.push_back({g, pos});
      return;
    }
    if (!many_) {
      many_ = true;
      for (auto& [pg, ppos] : pending_) pending_map_[pg] = ppos + 1;
      pending_.clear();
    }
    pending_map_[g] = pos + 1;
  }

  [[gnu::noinline]] void syscall_bookkeeping(uint32_t index, uint8_t type, uint32_t pos) {
    Rec& ev = t_.recs[index];
    if (!(t_.rules.drop_futile_events && type == EvFutileWakeup)) track_syscalls(ev.g, type, pos);
    if (!sorted_ || problem_) return;  // Go reports the disorder, and moves nothing
    switch (type) {
      case EvGoSysBlock:
      case EvGoInSyscall:
        last_block_[ev.g] = ev.ts;
        break;
      case EvGoSysExit: {
        auto real = static_cast<int64_t>(ev.args[2]);
        if (real == 0) break;
        const int64_t* block = last_block_.find(ev.g);
        if (!block || *block == 0) {
          problem_ = "stray syscall exit";
          problem_at_ = index;
        } else if (real < *block) {
          problem_ = "time stamps out of order";
          problem_at_ = index;
        } else {
          moved_.push_back({index, pos, ev.ts});
          ev.ts = real;
          s_.order.back() |= Stream::kMoved;
        }
        break;
      }
    }
  }

  // Go's stable sort by time. The merge order is in time order (finish() has checked),
  // so each moved exit goes before the first event that is later than it in (time, merge
  // position) order, found by binary search; the events in between are copied in runs.
  void splice_moved() {
    const Rec* recs = t_.recs.data();
    const std::vector<uint32_t>& in = s_.order;
    const auto n = static_cast<uint32_t>(in.size());
    // The merge times of the positions the moved exits leave (moved_ is in merge order).
    std::vector<uint32_t> left(moved_.size());
    std::vector<int64_t> left_ts(moved_.size());
    for (size_t k = 0; k < moved_.size(); k++) {
      left[k] = moved_[k].pos;
      left_ts[k] = moved_[k].merge_ts;
    }
    auto merge_ts = [&](uint32_t q) {
      const uint32_t entry = in[q];
      if (!(entry & Stream::kMoved)) return recs[entry & Stream::kIndexMask].ts;
      return left_ts[static_cast<size_t>(std::lower_bound(left.begin(), left.end(), q) - left.begin())];
    };
    std::stable_sort(moved_.begin(), moved_.end(),
                     [&](const Moved& a, const Moved& b) { return recs[a.index].ts < recs[b.index].ts; });
    std::vector<uint32_t> at(moved_.size());
    for (size_t k = 0; k < moved_.size(); k++) {
      const int64_t ts = recs[moved_[k].index].ts;
      const uint32_t pos = moved_[k].pos;
      uint32_t lo = k == 0 ? 0 : at[k - 1], hi = n;  // the first q with (merge_ts(q), q) > (ts, pos)
      while (lo < hi) {
        const uint32_t q = lo + (hi - lo) / 2;
        const int64_t qts = merge_ts(q);
        if (qts > ts || (qts == ts && q > pos)) {
          hi = q;
        } else {
          lo = q + 1;
        }
      }
      at[k] = lo;
    }
    std::vector<uint32_t> order;
    order.reserve(n);
    uint32_t copied = 0;
    size_t k = 0, d = 0;
    for (;;) {
      const uint32_t next_in = k < at.size() ? at[k] : n;
      const uint32_t next_out = d < left.size() ? left[d] : n;
      const uint32_t until = std::min(next_in, next_out);
      order.insert(order.end(), in.begin() + copied, in.begin() + until);
      copied = until;
      if (k < at.size() && at[k] == until) {
        order.push_back(moved_[k++].index);
      } else if (d < left.size() && left[d] == until) {
        copied = until + 1;
        d++;
      } else {
        break;
      }
    }
    s_.order = std::move(order);
  }

  // A syscall exit moved to its real time: where the merge put it, at which time.
  struct Moved {
    uint32_t index;
    uint32_t pos;
    int64_t merge_ts;
  };

  Trace& t_;
  Stream s_;
  std::vector<Moved> moved_;  // in merge order
  bool sorted_ = true;
  int64_t last_ts_ = std::numeric_limits<int64_t>::min();
  IdMap<int64_t> last_block_;
  const char* problem_ = nullptr;
  uint32_t problem_at_ = 0;
  std::vector<std::pair<uint64_t, uint32_t>> pending_;  // goroutine, position of its GoSysCall
  bool many_ = false;
  IdMap<uint32_t> pending_map_;  // goroutine -> position + 1
};

// ---- Go 1.21's merge, step by step (its tie order) --------------------------------

// Go 1.21's order1007: every round scans the lists in a fixed order, moves each ready
// head into the frontier, sorts the frontier by time (an insertion sort: Go's sort.Sort
// below 13 elements), takes entry 0 and moves the last entry into its slot. Used when
// there are at most 12 lists, so the frontier never needs Go's unstable pdqsort.
Stream merge_go121(Trace& t) {
  struct Entry {
    uint32_t list;
    uint32_t index;
    Transition tr;
  };
  size_t nlists = t.lists.size();
  std::vector<size_t> pos(nlists, 0);
  std::vector<uint8_t> selected(nlists, 0);
  std::vector<Entry> frontier;
  GoroutineStates gs(t);
  size_t pending = 0;
  for (const auto& l : t.lists) pending += l.events.size();
  MergedStream out(t);
  for (; pending != 0; pending--) {
    for (uint32_t i = 0; i < nlists; i++) {
      const auto& list = t.lists[i].events;
      if (selected[i] || pos[i] == list.size()) continue;
      uint32_t index = list[pos[i]];
      Transition tr = state_transition(t.recs[index]);
      if (!ready(tr, gs.get(tr.g))) continue;
      frontier.push_back({i, index, tr});
      pos[i]++;
      selected[i] = 1;
    }
    if (frontier.empty()) throw TraceError("no consistent ordering of events possible");
    for (size_t i = 1; i < frontier.size(); i++) {
      for (size_t j = i; j > 0 && t.recs[frontier[j].index].ts < t.recs[frontier[j - 1].index].ts; j--) {
        std::swap(frontier[j], frontier[j - 1]);
      }
    }
    Entry f = frontier[0];
    frontier[0] = frontier.back();
    frontier.pop_back();
    if (!gs.apply(f.tr)) fail_at("event sequences are broken", t.event(f.index));
    out.push(f.index);
    selected[f.list] = 0;
  }
  return out.finish();
}

// ---- the general merge ---------------------------------------------------------------

// Go 1.23's merge: a min-heap of the lists' ready heads. A head that is not ready waits
// on its goroutine and is looked at again only when that goroutine's state changes, so
// the cost does not grow with the number of lists. Ties go to the lower list index.
class Merger {
 public:
  explicit Merger(Trace& t) : t_(t), nlists_(t.lists.size()), pos_(nlists_, 0), gs_(t), next_waiting_(nlists_, kNone) {}

  Stream run() {
    size_t total = 0;
    for (const auto& l : t_.lists) total += l.events.size();
    MergedStream out(t_);
    size_t merged = 0;
    for (uint32_t i = 0; i < nlists_; i++) offer(i);
    std::vector<uint32_t> woken;
    uint32_t list = 0;
    bool have = pop(list);
    bool known = false;  // tr is already the head's transition
    Transition tr;
    while (have) {
      const auto& events = t_.lists[list].events;
      const uint32_t index = events[pos_[list]];
      // Go computes the transition again when it takes the event (a pure function; the
      // fast path below has just computed it).
      if (!known) tr = state_transition(t_.recs[index]);
      known = false;
      if (!gs_.apply(tr)) {
        fail_at(t_.go121() ? "event sequences are broken" : "encountered impossible goroutine state transition",
                t_.event(index));
      }
      out.push(index);
      merged++;
      pos_[list]++;
      // The goroutine changed state: the lists waiting on it may go on.
      if (uint32_t* chain = tr.g != kUnordered && !waiting_.empty() ? waiting_.find(tr.g) : nullptr) {
        woken.clear();
        for (uint32_t w = *chain; w != kNone; w = next_waiting_[w]) woken.push_back(w);
        waiting_.erase(tr.g);
        std::sort(woken.begin(), woken.end());
        for (uint32_t w : woken) offer(w);
      }
      // Events of one P come in runs: while this list's next head is ready and earlier
      // than every other, it goes next without a trip through the heap.
      if (pos_[list] < events.size()) {
        const Rec& next = t_.recs[events[pos_[list]]];
        Transition ntr = state_transition(next);
        if (ntr.g == kUnordered || ready(ntr, gs_.get(ntr.g))) {
          if (heap_.empty() || next.ts < heap_.front().ts ||
              (next.ts == heap_.front().ts && list < heap_.front().list)) {
            tr = ntr;
            known = true;
            continue;
          }
          push(list, next.ts);
        } else {
          park(list, ntr.g);
        }
      }
      have = pop(list);
    }
    if (merged != total) throw TraceError("no consistent ordering of events possible");
    return out.finish();
  }

 private:
  static constexpr uint32_t kNone = ~0u;
  struct Entry {
    int64_t ts;
    uint32_t list;
  };
  static bool later(const Entry& a, const Entry& b) { return a.ts != b.ts ? a.ts > b.ts : a.list > b.list; }

  // Puts list i's head into the heap if it is ready, else parks it on its goroutine.
  void offer(uint32_t i) {
    const auto& events = t_.lists[i].events;
    if (pos_[i] == events.size()) return;
    const Rec& h = t_.recs[events[pos_[i]]];
    Transition tr = state_transition(h);
    if (tr.g == kUnordered || ready(tr, gs_.get(tr.g))) {
      push(i, h.ts);
    } else {
      park(i, tr.g);
    }
  }
  void push(uint32_t i, int64_t ts) {
    heap_.push_back({ts, i});
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  bool pop(uint32_t& i) {
    if (heap_.empty()) return false;
    std::pop_heap(heap_.begin(), heap_.end(), later);
    i = heap_.back().list;
    heap_.pop_back();
    return true;
  }
  void park(uint32_t i, uint64_t g) {
    auto [head, inserted] = waiting_.try_emplace(g);
    next_waiting_[i] = inserted ? kNone : *head;
    *head = i;
  }

  Trace& t_;
  size_t nlists_;
  std::vector<size_t> pos_;
  std::vector<Entry> heap_;
  GoroutineStates gs_;
  FlatMap<uint32_t> waiting_;           // goroutine -> first list waiting on it
  std::vector<uint32_t> next_waiting_;  // list -> next list waiting on the same goroutine
};

// ---- Go 1.23's merge, step by step (its tie order) --------------------------------

// Go 1.23's parseEventBatches, mechanics and all, because they decide the order of
// events with equal times: the Ps sit in a scan list (the map's order, taken here as the
// order of each P's first batch, then the CPU-sample list, present even when empty); a
// scan moves every ready head into a binary min-heap by time, removing its P from the
// scan list by swapping the last entry into its slot; each round pops the heap's root
// (Go's own heapUp/heapDown, which break ties by position) and appends that P to the
// scan list again. Between two scans only the popped P and the Ps waiting on the
// goroutine that changed state can have become ready, so those are the only ones looked
// at, in scan-list order: the work per event does not grow with the number of Ps.
class Go123Merger {
 public:
  explicit Go123Merger(Trace& t)
      : t_(t),
        nlists_(t.lists.size()),
        nprocs_(nlists_ + (nlists_ != 0 && t.lists.back().p == kProfileP ? 0 : 1)),
        heads_(nprocs_),
        gs_(t),
        head_tr_(nprocs_),
        head_ts_(nprocs_, 0),
        next_waiting_(nprocs_, kNone),
        at_(nprocs_, 0),
        in_round_(nprocs_, 0) {}

  Stream run() {
    size_t total = 0;
    for (const auto& l : t_.lists) total += l.events.size();
    MergedStream out(t_);
    for (uint32_t i = 0; i < nlists_; i++) {
      const auto& events = t_.lists[i].events;
      heads_[i] = {events.data(), events.data() + events.size()};
    }
    avail_.resize(nprocs_);
    for (uint32_t i = 0; i < nprocs_; i++) avail_[i] = at_[i] = i;
    for (uint32_t i = 0; i < avail_.size();) {
      const uint32_t p = avail_[i];
      if (exhausted(p)) {
        remove_at(i);
      } else if (head_ready(p)) {
        push(p);
        remove_at(i);
      } else {
        park(p);
        i++;
      }
    }
    size_t merged = 0;
    while (!heap_.empty()) {
      const uint32_t list = pop();
      const uint32_t index = *heads_[list].next++;
      const Transition& tr = head_tr_[list];
      uint32_t woken = kNone;
      if (tr.g != kUnordered) {
        GState& cur = gs_.slot(tr.g);
        if (!ready(tr, cur)) {
          fail_at(t_.go121() ? "event sequences are broken" : "encountered impossible goroutine state transition",
                  t_.event(index));
        }
        GoroutineStates::advance(cur, tr);
        woken = cur.waiting;
        cur.waiting = kNone;
      }
      out.push(index);
      merged++;
      if (woken == kNone) [[likely]] {
        // Go appends the P to the scan list and the scan looks at it alone: if its head
        // is ready (or it has none left) it leaves the list again from the end, which
        // changes nothing; else it stays there, waiting.
        if (exhausted(list)) continue;
        if (head_ready(list)) {
          push(list);
        } else {
          at_[list] = static_cast<uint32_t>(avail_.size());
          avail_.push_back(list);
          park(list);
        }
        continue;
      }
      at_[list] = static_cast<uint32_t>(avail_.size());
      avail_.push_back(list);
      round_.clear();
      woken_.clear();
      for (uint32_t w = woken; w != kNone; w = next_waiting_[w]) woken_.push_back(w);
      for (uint32_t w : woken_) consider(w);
      consider(list);
      scan_round();
    }
    if (merged != total) throw TraceError("no consistent ordering of events possible");
    return out.finish();
  }

 private:
  static constexpr uint32_t kNone = ~0u;

  bool exhausted(uint32_t p) const { return heads_[p].next == heads_[p].end; }
  // Computes the head's transition (kept for when the head is merged) and whether the
  // head may be merged now.
  bool head_ready(uint32_t p) {
    const Rec& r = t_.recs[*heads_[p].next];
    head_ts_[p] = r.ts;
    Transition& tr = head_tr_[p];
    tr = state_transition(r);
    return tr.g == kUnordered || ready(tr, gs_.get(tr.g));
  }
  // A P that the coming scan takes out of the scan list (its head is ready, or it has no
  // events left); any other goes back to waiting on its head's goroutine.
  void consider(uint32_t p) {
    if (exhausted(p) || head_ready(p)) {
      in_round_[p] = 1;
      round_.push_back(p);
    } else {
      park(p);
    }
  }
  // Go's scan over the scan list, visiting only the entries it would take out: in order
  // of position, and an entry swapped into the slot just emptied is visited next (it was
  // the last, so among the round's entries it is the one furthest on).
  void scan_round() {
    if (round_.size() > 1) {
      std::sort(round_.begin(), round_.end(), [&](uint32_t a, uint32_t b) { return at_[a] < at_[b]; });
    }
    size_t lo = 0, hi = round_.size();
    while (lo < hi) {
      const uint32_t p = round_[lo];
      in_round_[p] = 0;
      if (!exhausted(p)) push(p);
      const uint32_t last = avail_.back();
      remove_at(at_[p]);
      if (last != p && in_round_[last]) {
        round_[lo] = last;
        hi--;
      } else {
        lo++;
      }
    }
  }
  void remove_at(uint32_t i) {
    const uint32_t last = avail_.back();
    avail_[i] = last;
    at_[last] = i;
    avail_.pop_back();
  }
  // The head's goroutine (head_tr_) keeps the P waiting.
  void park(uint32_t p) {
    GState& s = gs_.slot(head_tr_[p].g);
    next_waiting_[p] = s.waiting;
    s.waiting = p;
  }

  // Go's orderEventList: Less is "earlier time"; heapUp and heapDown as Go writes them
  // (moving a hole instead of swapping ends in the same arrangement). The heap holds P
  // numbers; their heads' times sit in head_ts_.
  void push(uint32_t p) {
    heap_.push_back(p);
    uint32_t* h = heap_.data();
    const int64_t* ts_of = head_ts_.data();
    const int64_t ts = ts_of[p];
    size_t j = heap_.size() - 1;
    while (j > 0) {
      size_t i = (j - 1) / 2;
      if (!(ts < ts_of[h[i]])) break;
      h[j] = h[i];
      j = i;
    }
    h[j] = p;
  }
  uint32_t pop() {
    uint32_t* h = heap_.data();
    const int64_t* ts_of = head_ts_.data();
    const size_t n = heap_.size() - 1;
    const uint32_t top = h[0];
    const uint32_t moved = h[n];
    const int64_t ts = ts_of[moved];
    size_t i = 0;
    for (;;) {
      size_t j = 2 * i + 1;
      if (j >= n) break;
      if (j + 1 < n && ts_of[h[j + 1]] < ts_of[h[j]]) j++;
      if (!(ts_of[h[j]] < ts)) break;
      h[i] = h[j];
      i = j;
    }
    h[i] = moved;
    heap_.pop_back();
    return top;
  }

  Trace& t_;
  size_t nlists_;
  size_t nprocs_;  // the lists, and an empty CPU-sample list where the trace has none
  // P -> its list's events not merged yet (none for the CPU-sample list a trace lacks).
  struct Head {
    const uint32_t* next = nullptr;
    const uint32_t* end = nullptr;
  };
  std::vector<Head> heads_;
  GoroutineStates gs_;
  std::vector<uint32_t> heap_;
  std::vector<Transition> head_tr_;     // P -> its head's transition (while it has one)
  std::vector<int64_t> head_ts_;        // P -> its head's time
  std::vector<uint32_t> next_waiting_;  // P -> next P waiting on the same goroutine
  std::vector<uint32_t> woken_;
  std::vector<uint32_t> avail_;         // the scan list
  std::vector<uint32_t> at_;            // P -> its position in the scan list
  std::vector<uint8_t> in_round_;
  std::vector<uint32_t> round_;
};

// ---- Go 1.5: the global sequence -------------------------------------------------------

// Go 1.5/1.6 number every event from one process-wide counter; a syscall exit carries
// the number (and time) taken when the syscall returned.
Stream order_by_seq(Trace& t) {
  std::vector<uint32_t> all;
  all.reserve(t.recs.size());
  for (const auto& l : t.lists) all.insert(all.end(), l.events.begin(), l.events.end());
  for (uint32_t index : all) {
    Rec& r = t.recs[index];
    if (r.type() != EvGoSysExit) continue;
    t.seqs[index] = r.args[1];
    if (r.args[2] != 0) r.ts = static_cast<int64_t>(r.args[2]);
  }
  std::stable_sort(all.begin(), all.end(), [&](uint32_t a, uint32_t b) {
    return static_cast<int64_t>(t.seqs[a]) < static_cast<int64_t>(t.seqs[b]);
  });
  for (size_t i = 1; i < all.size(); i++) {
    if (t.recs[all[i]].ts < t.recs[all[i - 1]].ts) throw TraceError("time stamps out of order");
  }
  // Whether each syscall blocked: the goroutine's next event is its GoSysBlock.
  Stream s;
  s.order = std::move(all);
  IdMap<uint8_t> next_type(t.recs.size() + 4096);
  for (size_t i = s.order.size(); i-- > 0;) {
    const Rec& r = t.recs[s.order[i]];
    if (t.rules.drop_futile_events && r.type() == EvFutileWakeup) continue;
    uint8_t& next = next_type[r.g];
    if (r.type() == EvGoSysCall && next == EvGoSysBlock) s.order[i] |= Stream::kSyscallBlocks;
    next = r.type();
  }
  return s;
}

}  // namespace

Stream order_events(Trace& t) {
  if (t.minor < 7) return order_by_seq(t);
  if (!t.go121()) return Go123Merger(t).run();
  return t.rules.exact_go121_ties && t.lists.size() <= 12 ? merge_go121(t) : Merger(t).run();
}

}  // namespace gotrace::v1
