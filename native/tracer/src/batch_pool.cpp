#include "batch_pool.h"

#include <algorithm>
#include <cstring>

namespace gotrace::tracer::detail {

void BatchPool::set_limit(size_t bytes) {
  std::lock_guard lock(mu_);
  limit_ = bytes;
}

Batch* BatchPool::get(uint32_t capacity) {
  const size_t bytes = sizeof(Batch) + capacity;
  {
    std::lock_guard lock(mu_);
    if (in_use_ + bytes > limit_) return nullptr;
    in_use_ += bytes;
    peak_ = std::max(peak_, in_use_);
    if (Batch* b = free_; b && capacity == kBatchCapacity) {
      free_ = b->next;
      free_count_--;
      b->next = nullptr;
      return b;
    }
  }
  return Batch::create(capacity);
}

Batch* BatchPool::compact(Batch* b) {
  if (b->capacity != kBatchCapacity || b->pos > kBatchCapacity / 4) return b;
  Batch* c = Batch::create(b->pos);
  c->gen = b->gen;
  c->last_time = b->last_time;
  c->events = b->events;
  c->pos = b->pos;
  c->size_pos = b->size_pos;
  std::memcpy(c->data, b->data, b->pos);
  {
    std::lock_guard lock(mu_);
    in_use_ += c->alloc_bytes();
  }
  put(b);
  return c;
}

void BatchPool::put(Batch* b) {
  if (!b) return;
  std::unique_lock lock(mu_);
  in_use_ -= b->alloc_bytes();
  if (b->capacity == kBatchCapacity && free_count_ < kKeepFree) {
    b->next = free_;
    free_ = b;
    free_count_++;
    return;
  }
  lock.unlock();
  Batch::destroy(b);
}

size_t BatchPool::in_use_bytes() const {
  std::lock_guard lock(mu_);
  return in_use_;
}

size_t BatchPool::peak_bytes() const {
  std::lock_guard lock(mu_);
  return peak_;
}

void BatchPool::reset_peak() {
  std::lock_guard lock(mu_);
  peak_ = in_use_;
}

}  // namespace gotrace::tracer::detail
