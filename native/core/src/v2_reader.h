// The v2 read loop (Go 1.22+): generation by generation, merge the threads' event
// streams through the ordering engine into the store (Go's Reader.ReadEvent).
#pragma once

#include <memory>
#include <span>

#include "gotrace/event_store.h"
#include "gotrace/reader.h"

namespace gotrace::v2 {

// Appends every event to `store`; throws TraceError at the first problem, with the
// events before it already stored.
void read(std::span<const uint8_t> bytes, int go_minor, EventStore& store, const ReadOptions& options, ReadWork& work);

// The same a generation at a time, for bytes that arrive in order (TraceReading):
// read_within reads the generations that lie whole in the first `available` bytes,
// read_rest the rest once every byte is there. Each throws as read does; after a
// throw the reading is over. `store`, `options` and `work` must outlive it.
class Reading {
 public:
  Reading(std::span<const uint8_t> bytes, int go_minor, EventStore& store, const ReadOptions& options, ReadWork& work);
  ~Reading();
  void read_within(size_t available);
  void read_rest();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gotrace::v2
