#include "reader.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <exception>
#include <memory>
#include <thread>
#include <tuple>
#include <vector>

#include "go_numbers.h"
#include "gotrace/event_slices.h"
#include "gotrace/v2_spec.h"
#include "strings_util.h"
#include "generation.h"
#include "emit.h"
#include "frontier.h"
#include "order.h"
#include "order_events.h"
#include "resume_point.h"
#include "varint.h"

namespace gotrace::v2 {
namespace {

// Reading a generation ahead needs a second thread; WebAssembly has one.
#ifdef __EMSCRIPTEN__
constexpr bool kCanReadAhead = false;
#else
constexpr bool kCanReadAhead = true;
#endif

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
  uint64_t offset_base = 0;  // an event's file offset, less its address (in *batch)
  WireEvent ev;  // the decoded next event
  bool parked = false;  // its event waits on a resource (see Reader::park)
  uint32_t park_token = 0;
};

class Reader {
 public:
  Reader(ByteWindow& bytes, int go_minor, EventStore& store, const ReadOptions& options, ReadWork& work,
         const ReadStart& start)
      : store_(store), options_(options), work_(work), start_(start), gens_(bytes, start.offset, go_minor, store),
        out_(store, go_minor), order_(store.strings, out_), read_ahead_(kCanReadAhead && bytes.in_memory()) {
    if (start.resume) {
      order_.restore(start.resume->ordering);
      out_.resume_after(start.resume->last_time);
    }
    // An error naming regions reads the string table, which a read ahead may be adding to.
    order_.set_before_naming([this] { wait_ahead(); });
  }
  ~Reader() { take_back_ahead(); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Reads the next generation: false once the trace is read. Throws TraceError at a
  // problem, the events before it stored.
  bool step();

 private:
  bool order_and_hand_on(uint64_t read_to);
  // Go 1.27 begins each generation with a Sync and ends the stream with one, also
  // before an error in reading a generation; Go 1.23 ends each generation with one.
  bool leading_syncs() const { return options_.syncs == SyncPlacement::Go127; }
  // The Sync that ends a Go 1.27 stream.
  void final_sync() { out_.sync(static_cast<uint32_t>(store_.generations.size())); }
  void order_generation();
  [[gnu::always_inline]] bool next_event(Cursor& c);
  struct Decoded {
    const uint8_t* end;  // past the event
    uint64_t dt;         // its time delta
  };
  [[gnu::noinline]] Decoded decode_careful(Cursor& c, const TypePlan& plan);
  [[gnu::always_inline]] bool try_advance_top();
  TraceError placed(std::string msg, const Cursor* c, const WireEvent* ev) const;
  [[noreturn]] void fail_at(std::string msg, const Cursor* c, const WireEvent* ev);
  enum class BadEvent { InvalidType, Untimed, Timestamp, Argument };
  [[noreturn, gnu::cold, gnu::noinline]] void bad_event(const Cursor& c, BadEvent what);
  std::string dump_frontier(std::vector<const Cursor*> cursors) const;

  void park(Cursor* c);
  void wake(uint64_t key);
  Time earliest_parked();

  EventStore& store_;
  const ReadOptions& options_;
  ReadWork& work_;
  const ReadStart start_;
  GenerationReader gens_;
  Emitter out_;
  Ordering order_;
  std::unique_ptr<Generation> gen_;
  std::vector<Cursor> cursors_;
  // The threads whose next event may advance, by its time.
  Frontier<Cursor> frontier_;
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
  uint64_t attempts_ = 0;  // this generation's share of work_.advance_attempts
  std::optional<TraceError> deferred_;  // a read error found after a valid generation

  // Reading ahead: the next generation is read (its batches found, its strings and stacks
  // interned) on a second thread while this one is ordered, which reads neither table.
  // The read looks as if it were made in its turn: its result and errors come at the next
  // step, and a read that ends before then takes back the strings and stacks it added.
  struct Ahead {
    std::thread thread;
    std::unique_ptr<Generation> gen;  // null at the trace's end
    std::optional<TraceError> deferred;
    std::exception_ptr failed;
    size_t strings_before = 0, stacks_before = 0, frames_before = 0;
  };
  void start_ahead();
  void wait_ahead();
  std::unique_ptr<Generation> next_generation(std::optional<TraceError>& deferred);
  void take_back_ahead() noexcept;
  const bool read_ahead_;
  std::unique_ptr<Ahead> ahead_;
};

void Reader::start_ahead() {
  ahead_ = std::make_unique<Ahead>();
  Ahead& a = *ahead_;
  a.strings_before = store_.strings.size();
  a.stacks_before = store_.stacks.size();
  a.frames_before = store_.stacks.frame_count();
  auto read = [this, &a] {
    try {
      a.gen = gens_.next(a.deferred);
    } catch (...) {
      a.failed = std::current_exception();  // thrown when its turn comes
    }
  };
  try {
    a.thread = std::thread(read);
  } catch (...) {  // no thread to be had (a process at its limit): read it here
    read();
  }
}

void Reader::wait_ahead() {
  if (ahead_ && ahead_->thread.joinable()) ahead_->thread.join();
}

std::unique_ptr<Generation> Reader::next_generation(std::optional<TraceError>& deferred) {
  if (!ahead_) return gens_.next(deferred);
  wait_ahead();
  std::unique_ptr<Ahead> a = std::move(ahead_);
  if (a->failed) std::rethrow_exception(a->failed);
  deferred = std::move(a->deferred);
  return std::move(a->gen);
}

void Reader::take_back_ahead() noexcept {
  if (!ahead_) return;
  wait_ahead();
  try {
    store_.strings.truncate(ahead_->strings_before);
    store_.stacks.truncate(ahead_->stacks_before, ahead_->frames_before);
  } catch (...) {  // out of memory (a table shared with a copy is copied): the tables keep them
  }
  ahead_.reset();
}

TraceError Reader::placed(std::string msg, const Cursor* c, const WireEvent* ev) const {
  ErrorLocation where;
  if (gen_) where.generation = gen_->number;
  if (c && c->m != kNoThread) where.thread = c->m;
  if (ev) {
    where.offset = ev->offset;
    where.event = event_name(ev->type);
  }
  return TraceError(std::move(msg), where);
}

void Reader::fail_at(std::string msg, const Cursor* c, const WireEvent* ev) { throw placed(std::move(msg), c, ev); }

void Reader::bad_event(const Cursor& c, BadEvent what) {
  switch (what) {
    case BadEvent::InvalidType: fail_at(fmt("found invalid event type: %d", c.ev.type), &c, nullptr);
    case BadEvent::Untimed: fail_at(fmt("found event without a timestamp: type=%d", c.ev.type), &c, nullptr);
    case BadEvent::Timestamp: fail_at("found invalid uvarint for timestamp", &c, &c.ev);
    case BadEvent::Argument: fail_at("found invalid uvarint", &c, &c.ev);
  }
  fail_at("bad event", &c, &c.ev);
}

// Decodes one varint with no bounds checks: the caller has made sure that 10 bytes
// are readable. False on overflow (Go's rules, as read_uvarint).
[[gnu::always_inline]] inline bool read_uvarint_unchecked(const uint8_t*& p, uint64_t& out) {
  uint64_t b = p[0];
  if (b < 0x80) {
    out = b;
    p += 1;
    return true;
  }
  uint64_t x = b & 0x7f;
  b = p[1];
  if (b < 0x80) {
    out = x | b << 7;
    p += 2;
    return true;
  }
  x |= (b & 0x7f) << 7;
  unsigned s = 14;
  for (int i = 2; i < 10; i++, s += 7) {
    b = p[i];
    if (b < 0x80) {
      if (i == 9 && b > 1) return false;
      out = x | b << s;
      p += i + 1;
      return true;
    }
    x |= (b & 0x7f) << s;
  }
  return false;
}

// Decodes the thread's next event (Go's batchCursor.nextEvent): false when the
// thread has no more events in this generation.
inline bool Reader::next_event(Cursor& c) {
  while (c.p == c.end) {
    if (++c.batch == c.batch_end) return false;
    c.p = c.batch->data;
    c.end = c.p + c.batch->size;
    c.offset_base = c.batch->data_offset - reinterpret_cast<uintptr_t>(c.batch->data);
    c.last_ts = 0;
  }
  // Go re-bases on the batch time whenever the running time is 0.
  if (c.last_ts == 0) c.last_ts = gen_->ns(c.batch->time);
  WireEvent& ev = c.ev;
  const uint8_t* p = c.p;
  ev.offset = c.offset_base + reinterpret_cast<uintptr_t>(p);
  uint8_t type = *p++;
  ev.type = type;
  const TypePlan& plan = out_.plan(type);  // types past Go's table are never timed
  if (!plan.timed) [[unlikely]] {
    bad_event(c, type >= kGo123TableSize ? BadEvent::InvalidType : BadEvent::Untimed);
  }
  uint64_t dt = 0;
  // Far from the batch's end no varint can run past it: decode without bounds checks.
  // Anything unusual is decoded again the careful way, which finds the error.
  constexpr ptrdiff_t kMaxEventBytes = 10 * (1 + static_cast<ptrdiff_t>(std::tuple_size_v<decltype(ev.args)>));
  bool fast = c.end - p >= kMaxEventBytes;
  if (fast) [[likely]] {
    // Unrolled: a failed varint leaves p where it was, so the rest stay in bounds.
    static_assert(std::tuple_size_v<decltype(ev.args)> == 5);
    const uint8_t n = plan.nargs;
    fast = read_uvarint_unchecked(p, dt);
    if (n > 0) fast &= read_uvarint_unchecked(p, ev.args[0]);
    if (n > 1) fast &= read_uvarint_unchecked(p, ev.args[1]);
    if (n > 2) fast &= read_uvarint_unchecked(p, ev.args[2]);
    if (n > 3) fast &= read_uvarint_unchecked(p, ev.args[3]);
    if (n > 4) fast &= read_uvarint_unchecked(p, ev.args[4]);
  }
  if (!fast) [[unlikely]] {
    const Decoded d = decode_careful(c, plan);
    p = d.end;
    dt = d.dt;
  }
  c.p = p;
  ev.time = wrap_add(gen_->ns(dt), c.last_ts);
  c.last_ts = ev.time;
  return true;
}

// next_event's careful decoding, bounds checked. Out of line and returning what it
// decodes, so that the fast path's position and time never have their address taken
// (WebAssembly would keep them in memory).
Reader::Decoded Reader::decode_careful(Cursor& c, const TypePlan& plan) {
  Decoded d{c.p + 1, 0};
  if (read_uvarint(d.end, c.end, d.dt) != VarintStatus::Ok) [[unlikely]] bad_event(c, BadEvent::Timestamp);
  for (int i = 0; i < plan.nargs; i++) {
    if (read_uvarint(d.end, c.end, c.ev.args[i]) != VarintStatus::Ok) [[unlikely]] bad_event(c, BadEvent::Argument);
  }
  return d;
}

// Go's frontier dump, earliest first.
std::string Reader::dump_frontier(std::vector<const Cursor*> cursors) const {
  std::stable_sort(cursors.begin(), cursors.end(), [](const Cursor* x, const Cursor* y) { return x->ev.time < y->ev.time; });
  std::string out;
  for (const Cursor* c : cursors) {
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
inline bool Reader::try_advance_top() {
  Cursor* c = frontier_.top();
  attempts_++;
  out_.set_slot(&c->ctx);
  // Errors thrown here have no place yet: run() gives them this event's.
  if (!order_.advance(c->ev, *gen_, c->m, c->m_state)) return false;
  if (next_event(*c)) {
    frontier_.update_top(c->ev.time);
  } else {
    frontier_.pop_top();
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
  order_.set_tracking(true);  // advances now record what they touch, for wake()
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
    frontier_.push(x.c->ev.time, x.c);
  }
  if (parked_ == 0) {  // nothing waits: stop tracking, recycle the pool
    order_.set_tracking(false);
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

bool Reader::step() {
  std::optional<TraceError>& deferred = deferred_;
  const bool leading = leading_syncs();
  store_.format.leading_syncs = leading;
  // Read the next generation (Go: only at the start or after a spilled batch).
  if (!leading) {
    gen_ = next_generation(deferred);
  } else {
    try {
      gen_ = next_generation(deferred);
    } catch (TraceError&) {
      final_sync();
      throw;
    }
  }
  if (!gen_) {
    if (leading && start_.at_trace_end) final_sync();
    return false;
  }
  const uint64_t read_to = gens_.offset();  // for progress: where this generation's read left off
  if (read_ahead_ && !deferred) start_ahead();
  try {
    return order_and_hand_on(read_to);
  } catch (...) {
    take_back_ahead();
    throw;
  }
}

// The rest of step(): orders the generation just read, then hands it on.
bool Reader::order_and_hand_on(uint64_t read_to) {
  std::optional<TraceError>& deferred = deferred_;
  const bool leading = leading_syncs();
  GenerationInfo info;
  info.number = gen_->number;
  info.first_event = store_.size();
  info.frequency = gen_->frequency;
  info.file_offset = gen_->file_offset;
  info.file_bytes = gen_->file_end - gen_->file_offset;
  info.batches = gen_->batch_count;
  info.clock = gen_->clock;
  info.earliest = gen_->ns(gen_->min_ts);
  info.experimental = std::move(gen_->experimental);
  if (options_.resume_points) info.resume = std::make_shared<const ResumePoint>(ResumePoint{order_.snapshot(), out_.last_time()});
  store_.generations.push_back(std::move(info));

  out_.set_generation(gen_.get());
  cursors_.assign(gen_->threads.size(), Cursor{});
  frontier_.reset(gen_->threads.size());
  for (size_t k = 0; k < gen_->threads.size(); k++) {
    Cursor& c = cursors_[k];
    const std::vector<Batch>& batches = gen_->threads[k].batches;
    c.m = gen_->threads[k].m;
    c.batch = batches.data();
    c.batch_end = batches.data() + batches.size();
    c.p = c.batch->data;
    c.end = c.p + c.batch->size;
    c.offset_base = c.batch->data_offset - reinterpret_cast<uintptr_t>(c.batch->data);
    if (next_event(c)) frontier_.push(c.ev.time, &c);
  }
  if (leading) out_.sync_at(store_.generations.back().earliest, static_cast<uint32_t>(store_.generations.size() - 1));
  try {
    // A call of its own per generation, so that WebAssembly engines run it in
    // optimized code from the second generation on (gotrace/event_slices.h).
    auto order = [this] { order_generation(); };
    attempts_ = 0;
    call_out_of_line(order);
    wait_ahead();  // what comes next may read the tables
    work_.advance_attempts += attempts_;
  } catch (TraceError& raw) {
    work_.advance_attempts += attempts_;
    // Errors of ordering and emitting come without a place, so that judging an event
    // needs no handler: the event judged is the frontier's top (nothing moves it meanwhile).
    const Cursor* judged = raw.where().generation || frontier_.empty() ? nullptr : frontier_.top();
    const TraceError e = judged ? placed(raw.message(), judged, &judged->ev) : raw;
    // A generation cut short by a read error usually cannot be ordered: say first
    // that the trace is truncated, which is the cause.
    if (!deferred) throw e;
    // Go reports the problem itself; Go 1.23 said first that the trace is truncated.
    if (leading) throw TraceError(e.message() + " (the trace is also truncated: " + deferred->message() + ")", e.where());
    throw TraceError(deferred->message() + " — the trace is truncated, and its last generation is incomplete (" +
                         e.message().substr(0, e.message().find('\n')) + ")",
                     deferred->where());
  }
  if (!leading) out_.sync(static_cast<uint32_t>(store_.generations.size() - 1));
  GenerationInfo& done = store_.generations.back();
  done.event_count = store_.size() - done.first_event;
  if (options_.on_progress) {
    ReadProgress p{read_to, gens_.size(), store_.size()};
    if (!options_.on_progress(p)) throw TraceError("canceled");
  }
  if (options_.on_generation && !options_.on_generation(store_)) throw TraceError("canceled");
  if (deferred) {
    if (leading) final_sync();
    throw *deferred;
  }
  return true;
}

// Merges the threads' streams of the current generation (Go's ReadEvent loop).
void Reader::order_generation() {
  const auto& samples = gen_->cpu_samples;
  size_t next_sample = 0;
  waiters_.clear();
  waiter_pool_.clear();
  parked_by_time_.clear();
  parked_ = 0;
  order_.set_tracking(false);
  order_.begin_generation(gen_->number, !frontier_.empty());
  // The next sample's time, capped below the greatest time (an empty frontier's top
  // time): the loop's one test, for samples and for an empty frontier, is then a
  // comparison with the top. The careful path below decides with the real times.
  auto sample_time = [&] {
    return next_sample < samples.size() ? std::min<Time>(samples[next_sample].time, INT64_MAX - 1) : INT64_MAX - 1;
  };
  Time next_sample_t = sample_time();
  for (;;) {
    if (next_sample_t < frontier_.top_time()) [[unlikely]] {
      // A CPU sample goes first if it is strictly earlier than every thread's next event.
      if (next_sample < samples.size()) {
        Time first = std::min(frontier_.top_time(), earliest_parked());
        if ((frontier_.empty() && parked_ == 0) || samples[next_sample].time < first) {
          out_.cpu_sample(samples[next_sample++]);
          next_sample_t = sample_time();
          continue;
        }
      }
      if (frontier_.empty()) {
        if (parked_ == 0) return;
        std::vector<const Cursor*> stuck;
        for (const Cursor& c : cursors_) {
          if (c.parked) stuck.push_back(&c);
        }
        fail_at(fmt("broken trace: failed to advance: frontier:\n[gen=%llu]\n\n%s\n%s\n",
                    (unsigned long long)gen_->number, dump_frontier(std::move(stuck)).c_str(), order_.dump().c_str()),
                nullptr, nullptr);
      }
    }
    if (!try_advance_top()) {
      Cursor* c = frontier_.top();
      frontier_.pop_top();
      park(c);
    }
  }
}

}  // namespace

void read(ByteWindow& bytes, int go_minor, EventStore& store, const ReadOptions& options, ReadWork& work,
          const ReadStart& start) {
  Reader r(bytes, go_minor, store, options, work, start);
  while (r.step()) {
  }
}

struct Steps::Impl : Reader {
  using Reader::Reader;
};

Steps::Steps(ByteWindow& bytes, int go_minor, EventStore& store, const ReadOptions& options, ReadWork& work,
             const ReadStart& start)
    : impl_(std::make_unique<Impl>(bytes, go_minor, store, options, work, start)) {}
Steps::~Steps() = default;
bool Steps::step() { return impl_->step(); }

}  // namespace gotrace::v2
