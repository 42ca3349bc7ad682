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
  // The thread's first batch of the generation is small; after a full one, a whole one.
  uint32_t capacity = kFirstBatchCapacity;
  if (Batch* b = slot) {
    last = b->last_time;
    capacity = kBatchCapacity;
    if (b->empty()) rt().pool.put(b);
    else rt().full[gen & 1].push(b);
    slot = nullptr;
  }
  if (rt().lossy[gen & 1].load(std::memory_order_relaxed)) return false;
  Batch* b = rt().pool.get(capacity);
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

uint64_t stack_id_slow(const Locker& l, std::span<const uint64_t> pcs, uint64_t h, StackCacheEntry& e) {
  uint64_t id = rt().stacks[l.gen & 1].put(pcs, h);
  e = {l.gen, h, id, uint32_t(pcs.size())};
  return id;
}

uint64_t stack_id(const Locker& l, std::span<const uint64_t> pcs) {
  if (pcs.empty()) return 0;
  if (pcs.size() > size_t(kMaxStackFrames)) pcs = pcs.first(kMaxStackFrames);
  return stack_id_hashed(l, pcs, hash_pcs(pcs));
}

}  // namespace gotrace::tracer::detail
