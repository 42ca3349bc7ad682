// Printing events exactly as Go's Event.String() does (what `go tool trace -d=parsed` prints).
#pragma once

#include <string>

#include "gotrace/event_store.h"

namespace gotrace {

// Whose Event.String() to print: Go 1.27's (`go tool trace -d=parsed`), or Go 1.23's
// (`go tool trace -d=1`). Each expects the Syncs its Go places (SyncPlacement, reader.h).
enum class GoListing { Go127, Go123 };

// The listing whose Syncs a store has (EventStore's format.leading_syncs).
inline GoListing listing_of(const EventStore& store) {
  return store.format.leading_syncs ? GoListing::Go127 : GoListing::Go123;
}

// Appends event i as that Go prints it, without the final newline that Println adds.
void append_go_event_string(std::string& out, const EventStore& store, size_t i, GoListing listing = GoListing::Go127);

// Appends one stack in Go's frame format ("\t<func> @ 0x<pc>\n\t\t<file>:<line>\n" per frame).
void append_go_frames(std::string& out, const EventStore& store, StackID stack);

}  // namespace gotrace
