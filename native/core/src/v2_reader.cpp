#include "v2_reader.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "go_numbers.h"
#include "varint.h"
#include "gotrace/v2_spec.h"
#include "strings_util.h"
#include "v2_generation.h"
#include "v2_order.h"

namespace gotrace::v2 {
namespace {

// One thread's events in a generation, decoded one at a time (Go's batchCursor).
struct CtxSlot {
  Context ctx;
  ContextID id = 0;
  bool valid = false;
};

struct Cursor {
  ThreadID m = kNoThread;
  CtxSlot ctx;     // the context of this thread's last event: usually the next one's too
  void* m_state = nullptr;  // the ordering engine's state for this thread
  const std::vector<Batch>* batches = nullptr;
  size_t idx = 0;
  const uint8_t* p = nullptr;  // next byte in batches[idx]
  const uint8_t* end = nullptr;
  Time last_ts = 0;
  WireEvent ev;
};

class Reader {
 public:
  Reader(std::span<const uint8_t> bytes, int go_minor, EventStore& store, const ReadOptions& options)
      : bytes_(bytes), go_minor_(go_minor), store_(store), options_(options), gens_(bytes, 16, go_minor, store),
        order_(store.strings) {}

  void run();

 private:
  bool next_event(Cursor& c);
  void decode(Cursor& c);
  bool try_advance(size_t i);
  void emit(const OutEvent& o, CtxSlot& slot);
  void emit_sync();
  void emit_cpu_sample(const CpuSample& s);
  Time fix_time(Time t) {
    if (t <= last_ts_) t = wrap_add(last_ts_, 1);
    last_ts_ = t;
    return t;
  }
  // Contexts repeat constantly: first the thread's last context, then a small
  // direct-mapped cache, and only then the interning hash table.
  ContextID ctx_id(const Context& c, CtxSlot& last) {
    if (last.valid && last.ctx == c) return last.id;
    last.ctx = c;
    last.id = store_.intern_context(c);
    last.valid = true;
    return last.id;
  }
  StackID resolve_stack(uint64_t id, const OutEvent& o);
  StringID resolve_string(uint64_t id, const OutEvent& o);
  [[noreturn]] void fail_at(std::string msg, const Cursor* c, const WireEvent* ev);
  std::string dump_frontier() const;

  // Go's heap over the frontier, keyed by the next event's time.
  void heap_insert(Cursor* c);
  void heap_update(size_t i);
  void heap_remove(size_t i);
  size_t sift_up(size_t i);
  size_t sift_down(size_t i);

  std::span<const uint8_t> bytes_;
  int go_minor_;
  EventStore& store_;
  const ReadOptions& options_;
  GenerationReader gens_;
  Ordering order_;
  std::unique_ptr<Generation> gen_;
  std::vector<Cursor> cursors_;
  std::vector<Cursor*> frontier_;
  size_t next_sample_ = 0;
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

bool Reader::next_event(Cursor& c) {
  const std::vector<Batch>& batches = *c.batches;
  while (c.idx < batches.size() && c.p == c.end) {
    c.idx++;
    c.last_ts = 0;
    if (c.idx < batches.size()) {
      c.p = batches[c.idx].data;
      c.end = c.p + batches[c.idx].size;
    }
  }
  if (c.idx == batches.size()) return false;
  if (c.last_ts == 0) c.last_ts = gen_->ns(batches[c.idx].time);
  decode(c);
  return true;
}

void Reader::decode(Cursor& c) {
  const Batch& b = (*c.batches)[c.idx];
  WireEvent& ev = c.ev;
  ev.offset = b.data_offset + static_cast<uint64_t>(c.p - b.data);
  uint8_t type = *c.p;
  ev.type = type;
  if (type >= kGo123TableSize) fail_at(fmt("found invalid event type: %d", type), &c, nullptr);
  const EventSpec& sp = spec(type);
  bool timed = sp.timed && sp.nargs > 0 && (sp.since <= 23 || go_minor_ >= sp.since);
  if (!timed) fail_at(fmt("found event without a timestamp: type=%d", type), &c, nullptr);
  const uint8_t* p = c.p + 1;
  uint64_t dt;
  if (read_uvarint(p, c.end, dt) != VarintStatus::Ok) fail_at("found invalid uvarint for timestamp", &c, &ev);
  for (int i = 0; i + 1 < sp.nargs; i++) {
    if (read_uvarint(p, c.end, ev.args[i]) != VarintStatus::Ok) fail_at("found invalid uvarint", &c, &ev);
  }
  c.p = p;
  ev.time = wrap_add(gen_->ns(dt), c.last_ts);
  c.last_ts = ev.time;
}

size_t Reader::sift_up(size_t i) {
  auto& h = frontier_;
  while (i > 0 && h[(i - 1) / 2]->ev.time > h[i]->ev.time) {
    std::swap(h[(i - 1) / 2], h[i]);
    i = (i - 1) / 2;
  }
  return i;
}

size_t Reader::sift_down(size_t i) {
  auto& h = frontier_;
  for (;;) {
    size_t m = i;
    Time mt = i < h.size() ? h[i]->ev.time : INT64_MAX;
    if (size_t l = 2 * i + 1; l < h.size() && h[l]->ev.time < mt) {
      m = l;
      mt = h[l]->ev.time;
    }
    if (size_t r = 2 * i + 2; r < h.size() && h[r]->ev.time < mt) m = r;
    if (m == i) return i;
    std::swap(h[i], h[m]);
    i = m;
  }
}

void Reader::heap_insert(Cursor* c) {
  frontier_.push_back(c);
  sift_up(frontier_.size() - 1);
}

void Reader::heap_update(size_t i) {
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

StackID Reader::resolve_stack(uint64_t id, const OutEvent& o) {
  if (id == 0) return 0;
  uint32_t s = gen_->stacks.get(id);
  if (s == LocalIds::kMissing) {
    fail_at(fmt("found invalid stack ID %llu for event %s", (unsigned long long)id, event_name(o.ev.type).c_str()),
            nullptr, &o.ev);
  }
  return s;
}

StringID Reader::resolve_string(uint64_t id, const OutEvent& o) {
  if (id == 0) return 0;
  uint32_t s = gen_->strings.get(id);
  if (s == LocalIds::kMissing) {
    fail_at(fmt("found invalid string ID %llu for event %s", (unsigned long long)id, event_name(o.ev.type).c_str()),
            nullptr, &o.ev);
  }
  return s;
}

// Stores one ordered event (Go's validateTableIDs and time fix-up, then the payload
// layout documented in event_view.h).
void Reader::emit(const OutEvent& o, CtxSlot& slot) {
  const WireEvent& ev = o.ev;
  const EventSpec& sp = spec(ev.type);
  StackID stacks[2] = {0, 0};
  StringID strs[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    if (sp.stack_ids[k]) stacks[k] = resolve_stack(ev.args[sp.stack_ids[k] - 1], o);
    if (sp.string_ids[k]) strs[k] = resolve_string(ev.args[sp.string_ids[k] - 1], o);
  }
  Time t = fix_time(ev.time);
  ContextID ctx = ctx_id(o.ctx, slot);
  StackID own = stacks[0];
  const uint64_t* a = ev.args.data();
  switch (ev.type) {
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
      store_.push64(t, ev.type, ctx, own, a[0], 0);
      break;
    case EvProcSteal:
      store_.push64(t, ev.type, ctx, own, a[0], static_cast<uint32_t>(o.extra0));
      break;
    case EvProcStatus:
    case EvGoStatus:
    case EvGoStatusStack: {
      uint64_t wire = ev.type == EvProcStatus ? a[1] : a[2];
      store_.push64(t, ev.type, ctx, own, a[0], static_cast<uint32_t>(o.extra0 | wire << 8));
      break;
    }
    case EvGoCreate:
    case EvGoCreateBlocked:
      store_.push64(t, ev.type, ctx, own, a[0], stacks[1]);
      break;
    case EvGoStop:
    case EvGoBlock:
    case EvSTWBegin:
    case EvGoLabel:
      store_.push(t, ev.type, ctx, own, strs[0], 0, 0);
      break;
    case EvSTWEnd:
      store_.push(t, ev.type, ctx, own, o.resolved_name, 0, 0);
      break;
    case EvGCSweepEnd:
      store_.push(t, ev.type, ctx, own, store_.push_extra({a[0], a[1]}), 0, 0);
      break;
    case EvUserTaskBegin:
      store_.push(t, ev.type, ctx, own, store_.push_extra({a[0], a[1], strs[0]}), 0, 0);
      break;
    case EvUserTaskEnd:
      store_.push(t, ev.type, ctx, own, store_.push_extra({a[0], o.extra0, o.resolved_name}), 0, 0);
      break;
    case EvUserRegionBegin:
    case EvUserRegionEnd:
      store_.push64(t, ev.type, ctx, own, a[0], strs[0]);
      break;
    case EvUserLog:
      store_.push(t, ev.type, ctx, own, store_.push_extra({a[0], strs[0], strs[1]}), 0, 0);
      break;
    default:
      if (sp.experiment) {
        store_.push(t, ev.type, ctx, own, store_.push_extra(std::span<const uint64_t>(a, sp.nargs - 1)), 0, 0);
      } else {
        store_.push(t, ev.type, ctx, own, 0, 0, 0);
      }
  }
}

void Reader::emit_sync() {
  Time t = fix_time(last_ts_);
  store_.push(t, EvSyncOut, ctx_id(Context{}, other_ctx_), 0, static_cast<uint32_t>(store_.generations.size() - 1), 0, 0);
}

void Reader::emit_cpu_sample(const CpuSample& s) {
  OutEvent o;
  o.ev.type = EvCPUSample;
  o.ev.offset = s.offset;
  StackID stack = resolve_stack(s.stack, o);
  Time t = fix_time(s.time);
  store_.push(t, EvCPUSample, ctx_id(s.ctx, other_ctx_), stack, 0, 0, 0);
}

std::string Reader::dump_frontier() const {
  std::string out;
  for (const Cursor* c : frontier_) {
    const EventSpec& sp = spec(c->ev.type);
    out += fmt("M %lld [%s time=%lld", (long long)c->m, std::string(sp.name).c_str(), (long long)c->ev.time);
    for (int i = 1; i < sp.nargs; i++) {
      out += fmt(" %s=%llu", std::string(sp.args[i]).c_str(), (unsigned long long)c->ev.args[i - 1]);
    }
    out += "]\n";
  }
  return out;
}

bool Reader::try_advance(size_t i) {
  Cursor* c = frontier_[i];
  bool ok;
  try {
    ok = order_.advance(c->ev, *gen_, c->m, c->m_state);
  } catch (TraceError& e) {
    fail_at(e.message(), c, &c->ev);
  }
  if (!ok) return false;
  for (const OutEvent& o : order_.queue()) emit(o, c->ctx);
  order_.clear_queue();
  if (next_event(*c)) {
    heap_update(i);
  } else {
    heap_remove(i);
  }
  return true;
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
      c.m = gen_->threads[k].m;
      c.batches = &gen_->threads[k].batches;
      c.idx = 0;
      c.p = c.batches->front().data;
      c.end = c.p + c.batches->front().size;
      if (next_event(c)) heap_insert(&c);
    }
    next_sample_ = 0;
    const auto& samples = gen_->cpu_samples;

    while (!frontier_.empty() || next_sample_ < samples.size()) {
      if (next_sample_ < samples.size() &&
          (frontier_.empty() || samples[next_sample_].time < frontier_[0]->ev.time)) {
        emit_cpu_sample(samples[next_sample_++]);
        continue;
      }
      if (try_advance(0)) continue;
      std::stable_sort(frontier_.begin(), frontier_.end(),
                       [](const Cursor* x, const Cursor* y) { return x->ev.time < y->ev.time; });
      bool advanced = false;
      for (size_t i = 1; i < frontier_.size(); i++) {
        if (try_advance(i)) {
          advanced = true;
          break;
        }
      }
      if (!advanced) {
        fail_at(fmt("broken trace: failed to advance: frontier:\n[gen=%llu]\n\n%s\n%s\n",
                    (unsigned long long)gen_->number, dump_frontier().c_str(), order_.dump().c_str()),
                nullptr, nullptr);
      }
    }
    emit_sync();
    GenerationInfo& info_ref = store_.generations.back();
    info_ref.event_count = store_.size() - info_ref.first_event;
    if (options_.on_progress) {
      ReadProgress p{gens_.offset(), bytes_.size(), store_.size()};
      if (!options_.on_progress(p)) throw TraceError("canceled");
    }
    if (deferred) throw *deferred;
  }
}

}  // namespace

void read(std::span<const uint8_t> bytes, int go_minor, EventStore& store, const ReadOptions& options) {
  Reader r(bytes, go_minor, store, options);
  r.run();
}

}  // namespace gotrace::v2
