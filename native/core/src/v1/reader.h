// The v1 read path (Go 1.5–1.21): decode, order, validate, convert into the store, as
// Go 1.23's reader does for 1.11–1.21 and as FORMAT.md §3.7 extends it to 1.5–1.10.
#pragma once

#include <span>

#include "gotrace/event_store.h"
#include "gotrace/reader.h"

namespace gotrace::v1 {

// Fills `store` (events, tables, one generation, format) from a v1 trace whose header
// says go 1.`go_minor`. Throws TraceError; Go rejects a broken v1 trace as a whole, so
// only a conversion error leaves events behind.
void read(std::span<const uint8_t> bytes, int go_minor, EventStore& store, const ReadOptions& options);

}  // namespace gotrace::v1
