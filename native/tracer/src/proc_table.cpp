#include "proc_table.h"

#include <algorithm>
#include <functional>

#include "statuses.h"

namespace gotrace::tracer::detail {

int64_t ProcTable::allocate_id() {
  std::lock_guard lock(mu_);
  if (!free_ids_.empty()) {
    std::pop_heap(free_ids_.begin(), free_ids_.end(), std::greater<>());
    int64_t id = free_ids_.back();
    free_ids_.pop_back();
    return id;
  }
  if (next_id_ >= kMaxProcs) return -1;
  int64_t id = next_id_++;
  if (!nodes_[id].load(std::memory_order_relaxed)) {
    auto* n = new ProcNode;
    n->id = id;
    nodes_[id].store(n, std::memory_order_release);
  }
  if (high_.load(std::memory_order_relaxed) <= id) high_.store(id + 1, std::memory_order_release);
  return id;
}

void ProcTable::release_id(int64_t id) {
  std::lock_guard lock(mu_);
  free_ids_.push_back(id);
  std::push_heap(free_ids_.begin(), free_ids_.end(), std::greater<>());
}

ProcNode* ProcTable::claim(int64_t id, uint64_t session) {
  ProcNode* n = nodes_[id].load(std::memory_order_acquire);
  if (n->session.load(std::memory_order_relaxed) != session) {
    n->trace.reset();
    n->status.store(kProcUnseen, std::memory_order_relaxed);
    n->session.store(session, std::memory_order_release);
  }
  return n;
}

void ProcTable::snapshot_untraced(uint64_t gen, uint64_t session, std::vector<UntracedProc>& out) {
  int64_t high = high_.load(std::memory_order_acquire);
  for (int64_t id = 0; id < high; id++) {
    ProcNode* n = nodes_[id].load(std::memory_order_acquire);
    if (!n || n->session.load(std::memory_order_acquire) != session) continue;
    uint8_t status = n->status.load(std::memory_order_relaxed);
    if (status == kProcUnseen) continue;
    n->trace.ready_next_gen(gen);
    if (n->trace.status_was_traced(gen)) continue;
    out.push_back({n, id, status, n->m.load(std::memory_order_relaxed)});
  }
}

void ProcTable::reset() {
  std::lock_guard lock(mu_);
  free_ids_.clear();
  next_id_ = 0;
}

}  // namespace gotrace::tracer::detail
