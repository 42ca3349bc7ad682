#include "generation.h"

#include <sched.h>

#include <chrono>
#include <ctime>
#include <map>
#include <unordered_map>
#include <vector>

#include "clock.h"
#include "gotrace/v2_spec.h"
#include "runtime.h"
#include "statuses.h"
#include "write_fence.h"

namespace gotrace::tracer::detail {

namespace {

// Timed events the advancer writes for a generation that has moved on: statuses, in a
// batch of no thread, or of the thread a running goroutine or proc is on.
class StatusWriter {
 public:
  StatusWriter(uint64_t gen, uint64_t m) : gen_(gen), m_(m) {}
  template <class... Args>
  void emit(uint8_t type, Args... args) {
    constexpr size_t kMax = 1 + kMaxVarint * (1 + sizeof...(Args));
    if (!b_ || !b_->has_room(kMax)) {
      // A thread's batch holds a status or two: small, for each of thousands of idle
      // threads in every generation (a whole one each took 64 MiB at 1,024 threads).
      uint32_t capacity = b_ || m_ == kNoThread ? kBatchCapacity : kThreadStatusCapacity;
      if (b_) rt().full[gen_ & 1].push(b_);
      if (!(b_ = new_table_batch(gen_, 0, m_, capacity))) return;
    }
    int64_t ts = clock_now();
    if (ts <= b_->last_time) ts = b_->last_time + 1;
    b_->put_byte(type);
    b_->put_varint(uint64_t(ts - b_->last_time));
    (b_->put_varint(uint64_t(args)), ...);
    b_->last_time = ts;
    b_->events++;
  }
  void finish() {
    if (b_) rt().full[gen_ & 1].push(b_);
    b_ = nullptr;
  }

 private:
  uint64_t gen_;
  uint64_t m_;
  Batch* b_ = nullptr;
};

}  // namespace

ClockSnapshot take_clock_snapshot(uint64_t gen) {
  ClockSnapshot c;
  c.generation = gen;
  c.trace_ticks = uint64_t(clock_now());
  c.frequency = clock_frequency();
  c.mono_ns = os_nanotime();
  timespec wall;
  clock_gettime(CLOCK_REALTIME, &wall);
  c.wall_sec = wall.tv_sec;
  c.wall_nsec = wall.tv_nsec;
  return c;
}

namespace {

// Step 3: no thread writes to `gen` once this returns.
uint64_t flush_threads(uint64_t gen) {
  Runtime& r = rt();
  uint64_t dropped = 0;
  std::lock_guard lock(r.threads.mutex());
  for (ThreadState* m = r.threads.head(); m; m = m->next) {
    // A thread that set its flag before the generation changed may still write to `gen`;
    // one that sets it later reads the new generation. Wait out the first kind.
    while (m->seqlock.load(std::memory_order_seq_cst) & 1) sched_yield();
    if (Batch* b = m->buf[gen & 1]) {
      if (b->empty()) r.pool.put(b);
      else r.full[gen & 1].push(b);
      m->buf[gen & 1] = nullptr;
    }
    dropped += m->dropped[gen & 1];
    m->dropped[gen & 1] = 0;
  }
  return dropped;
}

// Step 4. A goroutine or proc still without a status had no event at all in `gen`, so its
// status then is the one noted before the generation changed. Go writes a goroutine's as
// GoStatusStack with its stack; a blocked C++ job has no stack to walk, so its start frame
// (if it has one) stands in. The reader wants a running goroutine or proc on its thread:
// such a one belongs to a thread that wrote nothing in `gen` (any event would have
// written these statuses), so a batch of that thread's own, written here, cannot
// reorder anything it wrote.
void write_missing_statuses(uint64_t gen, const std::vector<UntracedGoroutine>& gs,
                            const std::vector<UntracedProc>& ps) {
  Runtime& r = rt();
  std::map<uint64_t, StatusWriter> writers;
  auto writer = [&](uint64_t m) -> StatusWriter& { return writers.try_emplace(m, gen, m).first->second; };
  for (const UntracedProc& p : ps) {
    if (p.node->trace.status_was_traced(gen)) continue;
    bool held = p.status == kProcRunning || p.status == kProcSyscall;
    writer(held ? p.m : kNoThread).emit(v2::EvProcStatus, uint64_t(p.id), uint64_t(p.status));
  }
  for (const UntracedGoroutine& u : gs) {
    if (u.node->incarnation.load(std::memory_order_acquire) != u.incarnation) continue;
    if (u.node->trace.status_was_traced(gen)) continue;
    bool on_thread = u.status == kGoRunning || u.status == kGoSyscall;
    uint64_t m = on_thread ? u.m : kNoThread;
    if (u.start_pc) {
      uint64_t stack = r.stacks[gen & 1].put(std::span<const uint64_t>(&u.start_pc, 1),
                                              hash_pcs(std::span<const uint64_t>(&u.start_pc, 1)));
      writer(m).emit(v2::EvGoStatusStack, u.id, m, u.status, stack);
    } else {
      writer(m).emit(v2::EvGoStatus, u.id, m, u.status);
    }
  }
  for (auto& [m, w] : writers) w.finish();
}

// Go 1.23's format: a batch of the frequency alone.
void write_frequency(uint64_t gen) {
  if (Batch* b = new_table_batch(gen, v2::EvFrequency)) {
    b->put_varint(clock_frequency());
    rt().full[gen & 1].push(b);
  }
}

// Go 1.26's (traceSyncBatch): the frequency and the clock snapshot taken as `gen` began.
// The batch is timed at the snapshot, so the snapshot's delta is 0.
void write_sync(uint64_t gen, const ClockSnapshot& c) {
  if (Batch* b = new_table_batch(gen, 0)) {
    b->begin(gen, kNoThread, int64_t(c.trace_ticks));
    b->put_byte(v2::EvSync);
    b->put_byte(v2::EvFrequency);
    b->put_varint(c.frequency);
    b->put_byte(v2::EvClockSnapshot);
    b->put_varint(0);
    b->put_varint(c.mono_ns);
    b->put_varint(uint64_t(c.wall_sec));
    b->put_varint(uint64_t(c.wall_nsec));
    rt().full[gen & 1].push(b);
  }
}

// Step 5: symbolizing may add strings, so stacks go before strings are closed. Stacks
// share most of their PCs, so each PC's frames (with their string ids) are looked up
// once per generation.
void write_stacks(uint64_t gen) {
  Runtime& r = rt();
  StringTable& strings = r.strings[gen & 1];
  struct Frame {
    uint64_t pc, func, file, line;
  };
  struct PcFrames {
    std::vector<Frame> frames;
    size_t tracer_frames = 0;  // leading inlined frames of the tracer's own API
  };
  std::unordered_map<uint64_t, PcFrames> by_pc;
  auto frames_of = [&](uint64_t pc) -> const PcFrames& {
    auto [it, fresh] = by_pc.try_emplace(pc);
    if (fresh) {
      const std::vector<SymbolFrame>& fs = r.symbolizer.frames(pc);
      for (const SymbolFrame& f : fs) {
        it->second.frames.push_back({f.pc, strings.put(gen, clip_string(f.func, true)),
                                     strings.put(gen, clip_string(f.file, true)), f.line});
      }
      // The tracer's inline API functions show at the call site of an event's stack;
      // like Go's runtime frames, they are left out.
      while (it->second.tracer_frames + 1 < fs.size() && fs[it->second.tracer_frames].func.starts_with("gotrace::tracer::"))
        it->second.tracer_frames++;
    }
    return it->second;
  };
  std::vector<Frame> frames;
  Batch* b = nullptr;
  for (const auto& [id, pcs] : r.stacks[gen & 1].take()) {
    frames.clear();
    for (size_t i = 0; i < pcs.size() && frames.size() < size_t(kMaxStackFrames); i++) {
      const PcFrames& pf = frames_of(pcs[i]);
      for (size_t k = i == 0 ? pf.tracer_frames : 0; k < pf.frames.size(); k++) {
        if (frames.size() == size_t(kMaxStackFrames)) break;
        frames.push_back(pf.frames[k]);
      }
    }
    size_t need = 1 + 2 * kMaxVarint + frames.size() * 4 * kMaxVarint;
    if (!b || !b->has_room(need)) {
      if (b) r.full[gen & 1].push(b);
      if (!(b = new_table_batch(gen, v2::EvStacks))) return;
    }
    b->put_byte(v2::EvStack);
    b->put_varint(id);
    b->put_varint(frames.size());
    for (const Frame& f : frames) {
      b->put_varint(f.pc);
      b->put_varint(f.func);
      b->put_varint(f.file);
      b->put_varint(f.line);
    }
  }
  if (b) r.full[gen & 1].push(b);
}

}  // namespace

Batch* new_table_batch(uint64_t gen, uint8_t marker, uint64_t thread, uint32_t capacity) {
  Runtime& r = rt();
  if (r.lossy[gen & 1].load(std::memory_order_relaxed)) return nullptr;
  Batch* b = r.pool.get(capacity);
  if (!b) {
    mark_lossy(gen);
    return nullptr;
  }
  b->begin(gen, thread, clock_now());
  if (marker) b->put_byte(marker);
  return b;
}

void mark_lossy(uint64_t gen) { rt().lossy[gen & 1].store(true, std::memory_order_relaxed); }

void collect_cpu_samples(uint64_t gen) {
  Runtime& r = rt();
  std::vector<CpuSample> samples;
  uint64_t lost = 0;
  {
    std::lock_guard lock(r.threads.mutex());
    for (ThreadState* m = r.threads.head(); m; m = m->next) r.cpu.drain(m, gen, samples, lost);
  }
  r.cpu.drain_exited(gen, samples, lost);
  r.cpu_lost.fetch_add(lost, std::memory_order_relaxed);
  Batch*& b = r.cpu_batch[gen & 1];
  for (const CpuSample& s : samples) {
    std::span<const uint64_t> pcs(s.pcs, s.frames);
    uint64_t stack = pcs.empty() ? 0 : r.stacks[gen & 1].put(pcs, hash_pcs(pcs));
    if (!b || !b->has_room(1 + 5 * kMaxVarint)) {
      if (b) r.full[gen & 1].push(b);
      if (!(b = new_table_batch(gen, v2::EvCPUSamples))) {
        r.cpu_lost.fetch_add(1, std::memory_order_relaxed);
        continue;
      }
    }
    b->put_byte(v2::EvCPUSample);
    b->put_varint(uint64_t(s.time));
    b->put_varint(s.m);
    b->put_varint(uint64_t(s.p));
    b->put_varint(s.g);
    b->put_varint(stack);
    b->events++;
  }
}

void advance_generation(bool stop_trace) {
  Runtime& r = rt();
  uint64_t gen = r.gen.load(std::memory_order_relaxed);
  if (gen == 0) return;
  uint64_t session = r.session.load(std::memory_order_relaxed);

  std::vector<UntracedGoroutine> goroutines;
  std::vector<UntracedProc> procs;
  r.goroutines.snapshot_untraced(gen, goroutines);
  r.procs.snapshot_untraced(gen, session, procs);

  const ClockSnapshot snapshot = r.clock;  // taken as `gen` began
  if (stop_trace) {
    r.gen.store(0, std::memory_order_seq_cst);
    g_enabled.store(false, std::memory_order_relaxed);
  } else {
    r.clock = take_clock_snapshot(gen + 1);
    r.gen.store(gen + 1, std::memory_order_seq_cst);
  }

  // Every thread that set its flag before the change is now seen writing (or saw the new
  // generation).
  heavy_fence();
  uint64_t dropped = flush_threads(gen);
  dropped += r.exited_dropped[gen & 1].exchange(0, std::memory_order_relaxed);

  bool lossy = r.lossy[gen & 1].load(std::memory_order_relaxed);
  if (!lossy) write_missing_statuses(gen, goroutines, procs);
  if (r.cpu.hz() > 0) collect_cpu_samples(gen);
  if (Batch* b = r.cpu_batch[gen & 1]) r.full[gen & 1].push(b);
  r.cpu_batch[gen & 1] = nullptr;
  if (!r.lossy[gen & 1].load(std::memory_order_relaxed)) {
    if (r.options.format == Format::go1_23) write_frequency(gen);
    else write_sync(gen, snapshot);
    write_stacks(gen);
  } else {
    r.stacks[gen & 1].take();
  }
  r.strings[gen & 1].finish(r.full[gen & 1]);

  auto g = std::make_shared<Generation>(r.pool);
  g->number = gen;
  g->batches = r.full[gen & 1].take();
  for (Batch* b = g->batches; b; b = b->next) {
    g->events += b->events;
    g->bytes += b->pos;
    if (b->kind() == v2::EvCPUSamples) g->cpu_samples += b->events;
  }
  g->dropped_events = dropped;
  g->lossy = r.lossy[gen & 1].load(std::memory_order_relaxed) || dropped > 0;
  r.lossy[gen & 1].store(false, std::memory_order_relaxed);
  r.output.push(std::move(g));
}

}  // namespace gotrace::tracer::detail
