// What a goroutine's wake-up was, from the event just before its start on its own track
// (shared by the timeline's edge queries and the index of wake edges).
#pragma once

#include <cstdint>
#include <optional>

#include "gotrace/analysis/timeline_query.h"

namespace gotrace::analysis::detail {

// Unblock, create or syscall exit for the events that make a goroutine runnable; none
// for any other.
std::optional<WakeKind> wake_kind(uint8_t type);

}  // namespace gotrace::analysis::detail
