// read_streamed (streamed_read.h) with the consumer on a second core: while it takes one
// run of events, the reader orders the next. For consumers that only add events up
// (stats): runs end where the store's chunks do, not where generations do.
#pragma once

#include <span>

#include "gotrace/streamed_read.h"

namespace gotrace::cli {

// Reads `bytes` into `result` (fresh) as read_streamed does, calling `consume` on a
// thread of its own with runs of events [from, to), in order, one run at a time. The
// store it is handed is borrowed (EventStore::borrow): events and contexts, no strings,
// stacks or generations; those are in result.store once this returns.
// options.on_generation is called on the reader's thread. An exception `consume` throws
// ends the read and is rethrown here.
void read_streamed_beside(std::span<const uint8_t> bytes, ReadResult& result, const EventConsumer& consume,
                          ReadOptions options = {});

}  // namespace gotrace::cli
