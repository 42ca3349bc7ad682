#include "event_writer.h"

#include <cstring>

#include "context.h"
#include "unwind.h"

namespace gotrace::tracer::detail {

void attach_thread(ThreadState* m) {
  m->session = rt().session.load(std::memory_order_relaxed);
  m->view_p = nullptr;
  m->view_g = nullptr;
  m->synced = {};
  m->node_cache = {};  // the last trace's spare records all went back to the table
  // (m->dropped belongs to the advancer between generations; it reset both at the end of
  // the last trace.)
  update_sample_ids(m);
  if (rt().cpu.hz() > 0) rt().cpu.attach(m);
}

bool refill(ThreadState* m, uint64_t gen) {
  Batch*& slot = m->buf[gen & 1];
  int64_t last = 0;
  if (Batch* b = slot) {
    last = b->last_time;
    if (b->empty()) rt().pool.put(b);
    else rt().full[gen & 1].push(b);
    slot = nullptr;
  }
  if (rt().lossy[gen & 1].load(std::memory_order_relaxed)) return false;
  Batch* b = rt().pool.get();
  if (!b) {
    mark_lossy(gen);
    return false;
  }
  int64_t now = clock_now();
  if (now <= last) now = last + 1;
  b->begin(gen, m->id, now);
  slot = b;
  return true;
}

uint64_t string_id_slow(const Locker& l, std::string_view s, StringCacheEntry& e) {
  const std::string* stored = nullptr;
  uint64_t id = rt().strings[l.gen & 1].put(l.gen, s, &stored);
  e = {l.gen, s.data(), s.size(), id, stored};
  return id;
}

namespace {

uint64_t stack_id_hashed(const Locker& l, std::span<const uint64_t> pcs, uint64_t h) {
  StackCacheEntry& e = l.m->stacks[h % std::size(l.m->stacks)];
  // The 64-bit hash stands for the PCs here; the table compares them in full.
  if (e.gen == l.gen && e.hash == h && e.frames == pcs.size()) return e.id;
  uint64_t id = rt().stacks[l.gen & 1].put(pcs, h);
  e = {l.gen, h, id, uint32_t(pcs.size())};
  return id;
}

}  // namespace

uint64_t stack_id(const Locker& l, std::span<const uint64_t> pcs) {
  if (pcs.empty()) return 0;
  if (pcs.size() > size_t(kMaxStackFrames)) pcs = pcs.first(kMaxStackFrames);
  return stack_id_hashed(l, pcs, hash_pcs(pcs));
}

uint64_t capture_stack_slow(const Locker& l, void* fp) {
  ThreadState* m = l.m;
  const Binding& b = binding();
  // A scheduler's goroutine: stop where the worker started it. A plain thread's own
  // goroutine: the whole thread stack.
  uintptr_t stop = b.g && b.g != &m->own_g ? reinterpret_cast<uintptr_t>(b.stack_base) : 0;
  uint64_t pcs[64];
  PcHash hash;
  int n = unwind_frames(reinterpret_cast<uintptr_t>(fp), m->stack_lo, m->stack_hi, stop, pcs, 63, hash);
  // A Go goroutine's stack ends at its start function, and tools name goroutines by that
  // root frame: a named goroutine's stacks end at its name.
  if (GoroutineNode* g = m->view_g) {
    uint64_t start = g->start_pc.load(std::memory_order_relaxed);
    if (LabelRegistry::is_label(start)) {
      pcs[n++] = start;
      hash.add(start);
    }
  }
  if (n == 0) return 0;
  return stack_id_hashed(l, std::span<const uint64_t>(pcs, size_t(n)), hash.finish(size_t(n)));
}

}  // namespace gotrace::tracer::detail
