#include "goroutine_table.h"

#include "statuses.h"

namespace gotrace::tracer::detail {

void GoroutineTable::refill(NodeCache& cache) {
  std::lock_guard lock(mu_);
  if (!free_) {
    Slab* slab = new Slab;
    for (size_t i = kSlabNodes; i-- > 0;) {
      slab->nodes[i].next_free = free_;
      free_ = &slab->nodes[i];
    }
    slab->next = slabs_.load(std::memory_order_relaxed);
    slabs_.store(slab, std::memory_order_release);
  }
  for (size_t i = 0; i < kRefill && free_; i++) {
    GoroutineNode* n = free_;
    free_ = n->next_free;
    n->next_free = cache.head;
    cache.head = n;
    cache.count++;
  }
}

void GoroutineTable::trim(NodeCache& cache) {
  std::lock_guard lock(mu_);
  while (cache.count > kRefill) {
    GoroutineNode* x = cache.head;
    cache.head = x->next_free;
    cache.count--;
    x->next_free = free_;
    free_ = x;
  }
}

void GoroutineTable::snapshot_untraced(uint64_t gen, std::vector<UntracedGoroutine>& out) {
  for (Slab* s = slabs_.load(std::memory_order_acquire); s; s = s->next) {
    for (GoroutineNode& n : s->nodes) {
      // A record freed and reused meanwhile has a new incarnation: then the fields read
      // may mix two goroutines, and the record is skipped (the new goroutine's creation
      // event stands for its status).
      uint32_t inc = n.incarnation.load(std::memory_order_acquire);
      if (!n.live.load(std::memory_order_acquire)) continue;
      n.trace.ready_next_gen(gen);
      if (n.trace.status_was_traced(gen)) continue;
      // A goroutine being unblocked or started now gets its status from the thread doing
      // it, in this generation (claim_go, then ensure_go_status).
      if (n.status.load(std::memory_order_acquire) == kGoBusy) continue;
      UntracedGoroutine u{&n, inc, n.id.load(std::memory_order_relaxed), n.status.load(std::memory_order_relaxed),
                          n.m.load(std::memory_order_relaxed), n.start_pc.load(std::memory_order_relaxed)};
      if (n.incarnation.load(std::memory_order_acquire) != inc) continue;
      out.push_back(u);
    }
  }
}

void GoroutineTable::reset() {
  std::lock_guard lock(mu_);
  free_ = nullptr;
  for (Slab* s = slabs_.load(std::memory_order_acquire); s; s = s->next) {
    for (GoroutineNode& n : s->nodes) {
      n.regions.clear();
      if (n.live.load(std::memory_order_relaxed)) {
        n.live.store(false, std::memory_order_relaxed);
        n.incarnation.fetch_add(1, std::memory_order_relaxed);
      }
      n.next_free = free_;
      free_ = &n;
    }
  }
}

}  // namespace gotrace::tracer::detail
