// The v2 read loop (Go 1.22+): generation by generation, merge the threads' event
// streams through the ordering engine into the store (Go's Reader.ReadEvent).
#pragma once

#include <span>

#include "gotrace/event_store.h"
#include "gotrace/reader.h"
#include "byte_window.h"

namespace gotrace::v2 {

// Appends every event to `store`; throws TraceError at the first problem, with the
// events before it already stored.
void read(ByteWindow& bytes, int go_minor, EventStore& store, const ReadOptions& options, ReadWork& work);

}  // namespace gotrace::v2
