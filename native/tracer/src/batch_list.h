// The finished batches of one generation, in the order they were finished (Go's
// trace.full[gen%2]). A thread's batches keep their order, which is all the reader
// relies on (FORMAT.md §2.11).
#pragma once

#include <mutex>

#include "batch.h"
#include "batch_pool.h"

namespace gotrace::tracer::detail {

class BatchList {
 public:
  explicit BatchList(BatchPool& pool) : pool_(pool) {}

  void push(Batch* b) {
    b->finish();
    b = pool_.compact(b);
    std::lock_guard lock(mu_);
    b->next = nullptr;
    if (tail_) tail_->next = b;
    else head_ = b;
    tail_ = b;
  }
  // Takes the whole list.
  Batch* take() {
    std::lock_guard lock(mu_);
    Batch* h = head_;
    head_ = tail_ = nullptr;
    return h;
  }

 private:
  BatchPool& pool_;
  std::mutex mu_;
  Batch* head_ = nullptr;
  Batch* tail_ = nullptr;
};

}  // namespace gotrace::tracer::detail
