// One batch: the unit in which events reach the trace (FORMAT.md §2.3). A thread fills a
// batch with its events; tables (strings, stacks, CPU samples, frequency) are batches of
// their own written with no thread. Like Go's traceBuf, a batch being filled is 64 KiB in
// all, but a thread's first of a generation (kFirstBatchCapacity); once finished, a
// mostly empty one is copied into an allocation of its own size (see BatchPool::compact),
// so idle and short-lived threads cost little.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "varint.h"

namespace gotrace::tracer::detail {

inline constexpr size_t kBatchAllocBytes = size_t(64) << 10;
// The thread id of batches written by no thread (Go's NoThread, -1 on the wire).
inline constexpr uint64_t kNoThread = ~uint64_t(0);

struct Batch {
  Batch* next = nullptr;  // in the pool's free list or a generation's list
  uint64_t gen = 0;
  int64_t last_time = 0;  // trace clock of the last event: the base of the next dt
  uint64_t events = 0;    // timed events written (what Stats counts)
  uint32_t pos = 0;       // bytes of `data` used
  uint32_t size_pos = 0;  // where the payload size goes
  uint32_t capacity = 0;
  uint8_t* data = nullptr;  // `capacity` bytes, right after this header

  // A batch with room for `capacity` bytes, in one allocation.
  static Batch* create(uint32_t capacity);
  static void destroy(Batch* b);
  size_t alloc_bytes() const { return sizeof(Batch) + capacity; }

  // Writes the header (Go's traceWriter.refill): the batch kind, generation, thread and
  // base time, and 10 bytes reserved for the payload size.
  void begin(uint64_t generation, uint64_t thread, int64_t time);
  // Writes the payload size into the header (Go's traceBufFlush).
  void finish() { put_uvarint_padded(data + size_pos, pos - size_pos - kMaxVarint); }

  bool has_room(size_t n) const { return pos + n <= capacity; }
  bool empty() const { return pos == size_pos + kMaxVarint; }
  std::span<const uint8_t> bytes() const { return {data, pos}; }
  uint8_t kind() const { return pos > size_pos + kMaxVarint ? data[size_pos + kMaxVarint] : 0; }

  void put_byte(uint8_t b) { data[pos++] = b; }
  void put_varint(uint64_t v) { pos = uint32_t(put_uvarint(data + pos, v) - data); }
  void put_bytes(std::string_view s) {
    std::memcpy(data + pos, s.data(), s.size());
    pos += uint32_t(s.size());
  }
};

// The capacity of a batch being filled: 64 KiB in all, as in Go.
inline constexpr uint32_t kBatchCapacity = uint32_t(kBatchAllocBytes - sizeof(Batch));
// The reader's limit on a batch's payload (FORMAT.md §2.3).
static_assert(kBatchCapacity <= 65536);
// A thread's first batch of a generation is small (4 KiB in all); once it fills, the next
// is a whole one. A thread that writes little then holds little: a program of thousands
// of mostly idle threads stays within max_buffer_bytes (64 KiB each took 64 MiB at 1,024).
inline constexpr uint32_t kFirstBatchCapacity = uint32_t((size_t(4) << 10) - sizeof(Batch));
// The advancer's batch of statuses for a thread that wrote nothing in a generation: its
// proc's and its goroutine's (a few dozen bytes), with room to spare.
inline constexpr uint32_t kThreadStatusCapacity = 256;

}  // namespace gotrace::tracer::detail
