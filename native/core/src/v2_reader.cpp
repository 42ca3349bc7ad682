#include "v2_reader.h"

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "go_numbers.h"
#include "gotrace/v2_spec.h"
#include "strings_util.h"
#include "v2_generation.h"
#include "v2_order.h"
#include "varint.h"

namespace gotrace::v2 {
namespace {

// What the hot loop needs to know about an event type, precomputed from the spec
// table for the trace's version: 8 bytes instead of a walk over the spec.
struct TypePlan {
  uint8_t nargs = 0;      // wire arguments after dt
  bool timed = false;     // may appear in an event batch
  uint8_t stack[2] = {};  // argument indices (after dt, 1-based; 0 = none) of stack ids
  uint8_t str[2] = {};    // ... and of string ids
};

std::array<TypePlan, 256> make_plans(int go_minor) {
  std::array<TypePlan, 256> plans{};
  for (int t = 0; t < kGo123TableSize; t++) {
    const EventSpec& sp = spec(static_cast<uint8_t>(t));
    TypePlan& p = plans[t];
    p.timed = sp.timed && sp.nargs > 0 && (sp.since <= 23 || go_minor >= sp.since);
    p.nargs = sp.nargs ? static_cast<uint8_t>(sp.nargs - 1) : 0;
    for (int k = 0; k < 2; k++) {
      p.stack[k] = sp.stack_ids[k];
      p.str[k] = sp.string_ids[k];
    }
  }
  return plans;
}

struct CtxSlot {
  Context ctx;
  ContextID id = 0;
  bool valid = false;
};

// One thread's events in a generation, decoded one at a time (Go's batchCursor).
struct Cursor {
  ThreadID m = kNoThread;
  CtxSlot ctx;              // the context of this thread's last event: usually the next one's too
  void* m_state = nullptr;  // the ordering engine's state for this thread
  const Batch* batch = nullptr;  // current batch
  const Batch* batch_end = nullptr;
  const uint8_t* p = nullptr;  // next byte in *batch
  const uint8_t* end = nullptr;
  Time last_ts = 0;
  WireEvent ev;  // the decoded next event
  bool parked = false;  // its event waits on a resource (see Reader::park)
  uint32_t park_token = 0;
};

// The frontier is a min-heap on the next event's time; the time is kept in the
// entry so comparisons do not chase pointers.
struct HeapEntry {
  Time t;
  Cursor* c;
};

class Reader {
 public:
  Reader(std::span<const uint8_t> bytes, int go_minor, EventStore& store, const ReadOptions& options, ReadWork& work)
      : bytes_(bytes), store_(store), options_(options), work_(work), gens_(bytes, 16, go_minor, store),
        order_(store.strings), plans_(make_plans(go_minor)) {}

  void run();

 private:
  void order_generation();
  bool next_event(Cursor& c);
  bool try_advance(size_t i);
  void emit(const OutEvent& o, CtxSlot& slot);
  void emit_sync();
  void emit_cpu_sample(const CpuSample& s);
  Time fix_time(Time t) {
    if (t <= last_ts_) t = wrap_add(last_ts_, 1);
    last_ts_ = t;
    return t;
  }
  // Contexts repeat: most events have the context of their thread's previous event.
  ContextID ctx_id(const Context& c, CtxSlot& last) {
    // Field by field: a whole-struct compare loads 16 bytes across fresh 8-byte stores.
    if (last.valid && last.ctx.m == c.m && last.ctx.p == c.p) {
      if (last.ctx.g == c.g) return last.id;
      // Same thread and proc, another goroutine: no lookup needed.
      if (store_.rebind_goroutine(last.id, c.g, last.id)) {
        last.ctx.g = c.g;
        return last.id;
      }
    }
    last.ctx.m = c.m;
    last.ctx.p = c.p;
    last.ctx.g = c.g;
    last.id = store_.intern_context(c);
    last.valid = true;
    return last.id;
  }
  uint32_t resolve(const LocalIds& table, uint64_t id, const char* what, const OutEvent& o) {
    if (id == 0) return 0;
    uint32_t g = table.get(id);
    if (g == LocalIds::kMissing) [[unlikely]] {
      fail_at(fmt("found invalid %s ID %llu for event %s", what, (unsigned long long)id, event_name(o.ev.type).c_str()),
              nullptr, &o.ev);
    }
    return g;
  }
  [[noreturn]] void fail_at(std::string msg, const Cursor* c, const WireEvent* ev);
  std::string dump_frontier() const;

  void heap_insert(Cursor* c);
  void heap_update(size_t i);
  void heap_remove(size_t i);
  size_t sift_up(size_t i);
  void sift_down(size_t i);

  void park(Cursor* c);
  void wake(uint64_t key);
  Time earliest_parked();

  std::span<const uint8_t> bytes_;
  EventStore& store_;
  const ReadOptions& options_;
  ReadWork& work_;
  GenerationReader gens_;
  Ordering order_;
  const std::array<TypePlan, 256> plans_;
  std::unique_ptr<Generation> gen_;
  std::vector<Cursor> cursors_;
  // The threads whose next event may advance, as a min-heap on its time.
  std::vector<HeapEntry> frontier_;
  // The threads whose next event waits: by the resources it waits on, and by time
  // (a min-heap whose stale entries are dropped when they reach the top).
  struct ParkedEntry {
    Time t;
    Cursor* c;
    uint32_t token;
  };
  struct Waiter {
    Cursor* c;
    uint32_t token;
    uint32_t next;  // index of the next waiter on the same key, or kNoWaiter
  };
  static constexpr uint32_t kNoWaiter = ~uint32_t{0};
  FlatMap<uint32_t> waiters_;     // resource key -> first waiter
  std::vector<Waiter> waiter_pool_;
  std::vector<ParkedEntry> parked_by_time_;
  size_t parked_ = 0;
  Time last_ts_ = 0;
  CtxSlot other_ctx_;  // for events outside any thread's stream (Sync, CPU samples)
};

void Reader::fail_at(std::string msg, const Cursor* c, const WireEvent* ev) {
  ErrorLocation where;
  if (gen_) where.generation = gen_->number;
  if (c && c->m != kNoThread) where.thread = c->m;
  if (ev) {
    where.offset = ev->offset;
    where.event = event_name(ev->type);
  }
  throw TraceError(std::move(msg), where);
}

// Decodes the thread's next event (Go's batchCursor.nextEvent): false when the
// thread has no more events in this generation.
bool Reader::next_event(Cursor& c) {
  while (c.p == c.end) {
    if (++c.batch == c.batch_end) return false;
    c.p = c.batch->data;
    c.end = c.p + c.batch->size;
    c.last_ts = 0;
  }
  // Go re-bases on the batch time whenever the running time is 0.
  if (c.last_ts == 0) c.last_ts = gen_->ns(c.batch->time);
  WireEvent& ev = c.ev;
  const uint8_t* p = c.p;
  ev.offset = c.batch->data_offset + static_cast<uint64_t>(p - c.batch->data);
  uint8_t type = *p++;
  ev.type = type;
  if (type >= kGo123TableSize) [[unlikely]] {
    fail_at(fmt("found invalid event type: %d", type), &c, nullptr);
  }
  const TypePlan& plan = plans_[type];
  if (!plan.timed) [[unlikely]] {
    fail_at(fmt("found event without a timestamp: type=%d", type), &c, nullptr);
  }
  uint64_t dt;
  if (read_uvarint(p, c.end, dt) != VarintStatus::Ok) [[unlikely]] {
    fail_at("found invalid uvarint for timestamp", &c, &ev);
  }
  for (int i = 0; i < plan.nargs; i++) {
    if (read_uvarint(p, c.end, ev.args[i]) != VarintStatus::Ok) [[unlikely]] {
      fail_at("found invalid uvarint", &c, &ev);
    }
  }
  c.p = p;
  ev.time = wrap_add(gen_->ns(dt), c.last_ts);
  c.last_ts = ev.time;
  return true;
}

size_t Reader::sift_up(size_t i) {
  auto& h = frontier_;
  while (i > 0 && h[(i - 1) / 2].t > h[i].t) {
    std::swap(h[(i - 1) / 2], h[i]);
    i = (i - 1) / 2;
  }
  return i;
}

// Go's heapSiftDown with min3: the smallest of a node and its children, the node on ties.
void Reader::sift_down(size_t i) {
  auto& h = frontier_;
  size_t n = h.size();
  for (;;) {
    size_t m = i, l = 2 * i + 1, r = l + 1;
    if (l < n && h[l].t < h[m].t) m = l;
    if (r < n && h[r].t < h[m].t) m = r;
    if (m == i) return;
    std::swap(h[i], h[m]);
    i = m;
  }
}

void Reader::heap_insert(Cursor* c) {
  frontier_.push_back({c->ev.time, c});
  sift_up(frontier_.size() - 1);
}

void Reader::heap_update(size_t i) {
  frontier_[i].t = frontier_[i].c->ev.time;
  if (sift_up(i) != i) return;
  sift_down(i);
}

void Reader::heap_remove(size_t i) {
  auto& h = frontier_;
  while (i > 0) {
    std::swap(h[(i - 1) / 2], h[i]);
    i = (i - 1) / 2;
  }
  std::swap(h[0], h.back());
  h.pop_back();
  sift_down(0);
}

// Stores one ordered event (Go's validateTableIDs and time fix-up, then the payload
// layout documented in event_view.h).
void Reader::emit(const OutEvent& o, CtxSlot& slot) {
  const WireEvent& ev = o.ev;
  const TypePlan& plan = plans_[ev.type];
  const uint64_t* a = ev.args.data();
  StackID stack = 0, stack2 = 0;
  StringID str = 0, str2 = 0;
  if (plan.stack[0]) {
    stack = resolve(gen_->stacks, a[plan.stack[0] - 1], "stack", o);
    if (plan.stack[1]) stack2 = resolve(gen_->stacks, a[plan.stack[1] - 1], "stack", o);
  }
  if (plan.str[0]) {
    str = resolve(gen_->strings, a[plan.str[0] - 1], "string", o);
    if (plan.str[1]) str2 = resolve(gen_->strings, a[plan.str[1] - 1], "string", o);
  }
  Time t = fix_time(ev.time);
  ContextID ctx = ctx_id(o.ctx, slot);
  switch (ev.type) {
    case EvGoSyscallBegin:
    case EvGoSyscallEnd:
    case EvGoSyscallEndBlocked:
    case EvGoDestroy:
    case EvGoDestroySyscall:
    case EvProcStop:
    case EvGCSweepBegin:
    case EvGCMarkAssistBegin:
    case EvGCMarkAssistEnd:
      store_.push(t, ev.type, ctx, stack, 0, 0, 0);
      break;
    case EvProcsChange:
    case EvHeapAlloc:
    case EvHeapGoal:
    case EvProcStart:
    case EvGCSweepActive:
    case EvGoCreateSyscall:
    case EvGoStart:
    case EvGoUnblock:
    case EvGoSwitch:
    case EvGoSwitchDestroy:
    case EvGCMarkAssistActive:
    case EvGCActive:
    case EvGCBegin:
    case EvGCEnd:
      store_.push64(t, ev.type, ctx, stack, a[0], 0);
      break;
    case EvProcSteal:
      store_.push64(t, ev.type, ctx, stack, a[0], static_cast<uint32_t>(o.extra0));
      break;
    case EvProcStatus:
    case EvGoStatus:
    case EvGoStatusStack: {
      uint64_t wire = ev.type == EvProcStatus ? a[1] : a[2];
      store_.push64(t, ev.type, ctx, stack, a[0], static_cast<uint32_t>(o.extra0 | wire << 8));
      break;
    }
    case EvGoCreate:
    case EvGoCreateBlocked:
      store_.push64(t, ev.type, ctx, stack, a[0], stack2);
      break;
    case EvGoStop:
    case EvGoBlock:
    case EvSTWBegin:
    case EvGoLabel:
      store_.push(t, ev.type, ctx, stack, str, 0, 0);
      break;
    case EvSTWEnd:
      store_.push(t, ev.type, ctx, stack, o.resolved_name, 0, 0);
      break;
    case EvGCSweepEnd:
      store_.push(t, ev.type, ctx, stack, store_.push_extra({a[0], a[1]}), 0, 0);
      break;
    case EvUserTaskBegin:
      store_.push(t, ev.type, ctx, stack, store_.push_extra({a[0], a[1], str}), 0, 0);
      break;
    case EvUserTaskEnd:
      store_.push(t, ev.type, ctx, stack, store_.push_extra({a[0], o.extra0, o.resolved_name}), 0, 0);
      break;
    case EvUserRegionBegin:
    case EvUserRegionEnd:
      store_.push64(t, ev.type, ctx, stack, a[0], str);
      break;
    case EvUserLog:
      store_.push(t, ev.type, ctx, stack, store_.push_extra({a[0], str, str2}), 0, 0);
      break;
    default:
      if (spec(ev.type).experimental()) {
        store_.push(t, ev.type, ctx, stack, store_.push_extra(std::span<const uint64_t>(a, plan.nargs)), 0, 0);
      } else {
        store_.push(t, ev.type, ctx, stack, 0, 0, 0);
      }
  }
}

void Reader::emit_sync() {
  Time t = fix_time(last_ts_);
  store_.push(t, EvSyncOut, ctx_id(Context{}, other_ctx_), 0, static_cast<uint32_t>(store_.generations.size() - 1), 0,
              0);
}

void Reader::emit_cpu_sample(const CpuSample& s) {
  OutEvent o;
  o.ev.type = EvCPUSample;
  o.ev.offset = s.offset;
  StackID stack = resolve(gen_->stacks, s.stack, "stack", o);
  Time t = fix_time(s.time);
  store_.push(t, EvCPUSample, ctx_id(s.ctx, other_ctx_), stack, 0, 0, 0);
}

std::string Reader::dump_frontier() const {
  std::string out;
  for (const HeapEntry& e : frontier_) {
    const Cursor* c = e.c;
    const EventSpec& sp = spec(c->ev.type);
    out += fmt("M %lld [%s time=%lld", (long long)c->m, std::string(sp.name).c_str(), (long long)c->ev.time);
    for (int i = 1; i < sp.nargs; i++) {
      out += fmt(" %s=%llu", std::string(sp.args[i]).c_str(), (unsigned long long)c->ev.args[i - 1]);
    }
    out += "]\n";
  }
  return out;
}

// Tries the earliest event that may advance (the top of the frontier). Go tries the
// earliest event of all, then the others in time order; events known to wait are
// parked instead, so a chain of waiting threads costs no rescans.
bool Reader::try_advance(size_t i) {
  Cursor* c = frontier_[i].c;
  work_.advance_attempts++;
  order_.set_tracking(parked_ > 0);
  bool ok;
  try {
    ok = order_.advance(c->ev, *gen_, c->m, c->m_state);
  } catch (TraceError& e) {
    fail_at(e.message(), c, &c->ev);
  }
  if (!ok) return false;
  for (int k = 0; k < order_.queue_size(); k++) emit(order_.queue()[k], c->ctx);
  order_.clear_queue();
  if (next_event(*c)) {
    heap_update(i);
  } else {
    heap_remove(i);
  }
  if (parked_ > 0) {
    for (uint64_t key : order_.touched()) wake(key);
  }
  order_.clear_touched();
  return true;
}

void Reader::park(Cursor* c) {
  uint64_t keys[2];
  int n = order_.wait_keys(c->ev, c->m, keys);
  c->parked = true;
  c->park_token++;
  parked_++;
  work_.parked++;
  for (int k = 0; k < n; k++) {
    auto [head, inserted] = waiters_.try_emplace(keys[k]);
    uint32_t next = inserted ? kNoWaiter : *head;
    *head = static_cast<uint32_t>(waiter_pool_.size());
    waiter_pool_.push_back({c, c->park_token, next});
  }
  parked_by_time_.push_back({c->ev.time, c, c->park_token});
  std::push_heap(parked_by_time_.begin(), parked_by_time_.end(),
                 [](const ParkedEntry& x, const ParkedEntry& y) { return x.t > y.t; });
}

void Reader::wake(uint64_t key) {
  uint32_t* head = waiters_.find(key);
  if (!head) return;
  uint32_t w = *head;
  waiters_.erase(key);
  for (; w != kNoWaiter; w = waiter_pool_[w].next) {
    Waiter& x = waiter_pool_[w];
    if (!x.c->parked || x.c->park_token != x.token) continue;  // already woken by another key
    x.c->parked = false;
    parked_--;
    heap_insert(x.c);
  }
  if (parked_ == 0) {  // nothing waits: recycle the pool
    waiters_.clear();
    waiter_pool_.clear();
  }
}

Time Reader::earliest_parked() {
  auto later = [](const ParkedEntry& x, const ParkedEntry& y) { return x.t > y.t; };
  while (!parked_by_time_.empty()) {
    const ParkedEntry& top = parked_by_time_.front();
    if (top.c->parked && top.c->park_token == top.token) return top.t;
    std::pop_heap(parked_by_time_.begin(), parked_by_time_.end(), later);
    parked_by_time_.pop_back();
  }
  return INT64_MAX;
}

void Reader::run() {
  std::optional<TraceError> deferred;
  for (;;) {
    // Read the next generation (Go: only at the start or after a spilled batch).
    gen_ = gens_.next(deferred);
    if (!gen_) break;
    GenerationInfo info;
    info.number = gen_->number;
    info.first_event = store_.size();
    info.frequency = gen_->frequency;
    info.file_offset = gen_->file_offset;
    info.file_bytes = gen_->file_end - gen_->file_offset;
    info.batches = gen_->batch_count;
    info.clock = gen_->clock;
    info.experimental = std::move(gen_->experimental);
    store_.generations.push_back(std::move(info));

    cursors_.assign(gen_->threads.size(), Cursor{});
    frontier_.clear();
    for (size_t k = 0; k < gen_->threads.size(); k++) {
      Cursor& c = cursors_[k];
      const std::vector<Batch>& batches = gen_->threads[k].batches;
      c.m = gen_->threads[k].m;
      c.batch = batches.data();
      c.batch_end = batches.data() + batches.size();
      c.p = c.batch->data;
      c.end = c.p + c.batch->size;
      if (next_event(c)) heap_insert(&c);
    }
    try {
      order_generation();
    } catch (TraceError& e) {
      // A generation cut short by a read error usually cannot be ordered: say first
      // that the trace is truncated, which is the cause.
      if (!deferred) throw;
      throw TraceError(deferred->message() + " — the trace is truncated, and its last generation is incomplete (" +
                           e.message().substr(0, e.message().find('\n')) + ")",
                       deferred->where());
    }
    emit_sync();
    GenerationInfo& done = store_.generations.back();
    done.event_count = store_.size() - done.first_event;
    if (options_.on_progress) {
      ReadProgress p{gens_.offset(), bytes_.size(), store_.size()};
      if (!options_.on_progress(p)) throw TraceError("canceled");
    }
    if (deferred) throw *deferred;
  }
}

// Merges the threads' streams of the current generation (Go's ReadEvent loop).
void Reader::order_generation() {
  const auto& samples = gen_->cpu_samples;
  size_t next_sample = 0;
  waiters_.clear();
  waiter_pool_.clear();
  parked_by_time_.clear();
  parked_ = 0;
  for (;;) {
    // A CPU sample goes first if it is strictly earlier than every thread's next event.
    if (next_sample < samples.size()) {
      Time first = std::min(frontier_.empty() ? INT64_MAX : frontier_[0].t, earliest_parked());
      if ((frontier_.empty() && parked_ == 0) || samples[next_sample].time < first) {
        emit_cpu_sample(samples[next_sample++]);
        continue;
      }
    }
    if (frontier_.empty()) {
      if (parked_ == 0) return;
      for (Cursor& c : cursors_) {
        if (c.parked) frontier_.push_back({c.ev.time, &c});
      }
      std::stable_sort(frontier_.begin(), frontier_.end(), [](const HeapEntry& x, const HeapEntry& y) { return x.t < y.t; });
      fail_at(fmt("broken trace: failed to advance: frontier:\n[gen=%llu]\n\n%s\n%s\n",
                  (unsigned long long)gen_->number, dump_frontier().c_str(), order_.dump().c_str()),
              nullptr, nullptr);
    }
    if (!try_advance(0)) {
      Cursor* c = frontier_[0].c;
      heap_remove(0);
      park(c);
    }
  }
}

}  // namespace

void read(std::span<const uint8_t> bytes, int go_minor, EventStore& store, const ReadOptions& options, ReadWork& work) {
  Reader r(bytes, go_minor, store, options, work);
  r.run();
}

}  // namespace gotrace::v2
