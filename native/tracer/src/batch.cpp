#include "batch.h"

#include <new>

#include "gotrace/v2_spec.h"

namespace gotrace::tracer::detail {

Batch* Batch::create(uint32_t capacity) {
  void* p = ::operator new(sizeof(Batch) + capacity);
  auto* b = new (p) Batch;
  b->capacity = capacity;
  b->data = reinterpret_cast<uint8_t*>(b + 1);
  return b;
}

void Batch::destroy(Batch* b) {
  b->~Batch();
  ::operator delete(b);
}

void Batch::begin(uint64_t generation, uint64_t thread, int64_t time) {
  next = nullptr;
  gen = generation;
  events = 0;
  last_time = time;
  pos = 0;
  put_byte(v2::EvEventBatch);
  put_varint(generation);
  put_varint(thread);
  put_varint(uint64_t(time));
  size_pos = pos;
  pos += kMaxVarint;
}

}  // namespace gotrace::tracer::detail
