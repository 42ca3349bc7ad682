// Wall-clock time of trace times. A Go 1.25+ trace says when it happened: each
// generation carries a clock snapshot (trace time, monotonic and wall clock read
// together), so a trace time maps to the wall clock through its generation's snapshot.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "gotrace/event_store.h"

namespace gotrace {

// A wall-clock time: seconds and nanoseconds since the Unix epoch (0 <= nsec < 1e9).
struct WallTime {
  int64_t sec = 0;
  int64_t nsec = 0;
};

// The wall clock of a snapshot (Go's time.Unix(int64(sec), int64(nsec)), normalized).
WallTime snapshot_wall(const ClockSnapshot& clock);

// The wall-clock time of trace time t, through the snapshot of the generation t lies
// in (or the nearest one that has a snapshot); nullopt when the trace has none.
std::optional<WallTime> wall_time_at(const EventStore& store, Time t);

// Go's time.Format(time.RFC3339Nano) in UTC: "2026-11-27T04:11:05.996086443Z", the
// fraction's trailing zeros dropped, and the fraction with them when it is zero.
void append_rfc3339_nano(std::string& out, const WallTime& wall);

}  // namespace gotrace
