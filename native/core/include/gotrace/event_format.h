// Printing events exactly as Go's Event.String() does (what `go tool trace -d=1` prints).
#pragma once

#include <string>

#include "gotrace/event_store.h"

namespace gotrace {

// Appends event i as Go 1.23 prints it, without the final newline that Println adds.
void append_go_event_string(std::string& out, const EventStore& store, size_t i);

// Appends one stack in Go's frame format ("\t<func> @ 0x<pc>\n\t\t<file>:<line>\n" per frame).
void append_go_frames(std::string& out, const EventStore& store, StackID stack);

}  // namespace gotrace
