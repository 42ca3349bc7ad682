// Where batches come from and go back to, and the bound on the memory they hold. Taking
// a batch is rare (once per 64 KiB of events, or per thread and generation), so a mutex
// is fine here.
#pragma once

#include <cstddef>
#include <mutex>

#include "batch.h"

namespace gotrace::tracer::detail {

class BatchPool {
 public:
  // The most bytes of batches in use at once (in threads, tables, finished generations
  // and the flight recorder).
  void set_limit(size_t bytes);
  // A batch to fill (64 KiB in all, or `capacity` bytes of data), or nullptr when the
  // limit is reached.
  Batch* get(uint32_t capacity = kBatchCapacity);
  // A finished batch `b`, or, if it is mostly empty, a copy of its own size (never
  // refused: it only ever frees memory).
  Batch* compact(Batch* b);
  void put(Batch* b);

  size_t in_use_bytes() const;
  size_t peak_bytes() const;
  void reset_peak();

 private:
  static constexpr size_t kKeepFree = 32;  // batches kept for reuse rather than freed

  mutable std::mutex mu_;
  Batch* free_ = nullptr;
  size_t free_count_ = 0;
  size_t in_use_ = 0;
  size_t peak_ = 0;
  size_t limit_ = ~size_t(0);
};

}  // namespace gotrace::tracer::detail
