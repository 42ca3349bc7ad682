// The tracer's record of every goroutine it knows in the current trace: what Go's tracer
// reads from allgs. Records live in slabs that are never freed, so the advancer may walk
// them while threads create and end goroutines; a record's incarnation changes whenever
// it is freed or reused, which is how a stale reference is told apart.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "batch.h"
#include "resource_state.h"

namespace gotrace::tracer::detail {

struct GoroutineNode {
  SchedResourceState trace;
  std::atomic<uint32_t> incarnation{0};
  std::atomic<bool> live{false};
  std::atomic<uint8_t> status{0};           // GoStatus
  std::atomic<uint64_t> gen{0};             // the generation of its last change of status
  std::atomic<uint64_t> m{kNoThread};       // the thread it runs on (running or in a syscall)
  std::atomic<uint64_t> id{0};
  std::atomic<uint64_t> start_pc{0};        // its one-frame start stack; 0 = none
  // Its regions open in this trace, innermost last (their Region objects): touched only
  // by the thread it runs on, as the goroutine's own state.
  std::vector<const void*> regions;
  GoroutineNode* next_free = nullptr;
};

// A thread's few spare records, so creating a goroutine seldom takes the table's lock.
struct NodeCache {
  GoroutineNode* head = nullptr;
  size_t count = 0;
};

// A goroutine with no event in a generation, noted before the generation ends (Go's
// untracedG); its status is written at the end if it still has none then.
struct UntracedGoroutine {
  GoroutineNode* node;
  uint32_t incarnation;
  uint64_t id;
  uint8_t status;
  uint64_t m;
  uint64_t start_pc;
};

class GoroutineTable {
 public:
  // A record taken for a new goroutine: the caller fills it in, then calls publish().
  // From the thread's cache, inline; the table's lock only when the cache is empty.
  GoroutineNode* allocate(NodeCache& cache) {
    if (__builtin_expect(!cache.head, 0)) refill(cache);
    GoroutineNode* n = cache.head;
    cache.head = n->next_free;
    cache.count--;
    n->next_free = nullptr;
    return n;
  }
  // Makes `n` live; returns its new incarnation. A record changes hands only through the
  // free lists (or the table's lock), so only its current holder writes its incarnation:
  // a load and a store, no atomic read-modify-write.
  static uint32_t publish(GoroutineNode* n) {
    uint32_t inc = n->incarnation.load(std::memory_order_relaxed) + 1;
    n->regions.clear();
    n->incarnation.store(inc, std::memory_order_release);
    n->live.store(true, std::memory_order_release);
    return inc;
  }
  // Back to the thread's cache; the cache's surplus to the table, under its lock.
  void free(NodeCache& cache, GoroutineNode* n) {
    n->live.store(false, std::memory_order_relaxed);
    n->incarnation.store(n->incarnation.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    n->next_free = cache.head;
    cache.head = n;
    if (__builtin_expect(++cache.count > 2 * kRefill, 0)) trim(cache);
  }

  // Readies every live goroutine for the generation after `gen` and lists those with no
  // status in `gen` yet. Called before the generation changes.
  void snapshot_untraced(uint64_t gen, std::vector<UntracedGoroutine>& out);

  // Ends the trace: every record becomes free (threads drop their caches).
  void reset();

 private:
  static constexpr size_t kSlabNodes = 256;
  static constexpr size_t kRefill = 32;
  void refill(NodeCache& cache);  // gives the empty cache kRefill records
  void trim(NodeCache& cache);    // takes the cache down to kRefill records
  struct Slab {
    GoroutineNode nodes[kSlabNodes];
    Slab* next = nullptr;
  };

  std::atomic<Slab*> slabs_{nullptr};
  std::mutex mu_;
  GoroutineNode* free_ = nullptr;
};

}  // namespace gotrace::tracer::detail
