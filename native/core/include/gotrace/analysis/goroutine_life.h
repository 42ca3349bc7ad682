// One goroutine's summary over its whole life, for a trace held a run of generations at
// a time (the web app's parts, the npm package's TraceIndex): the run shows its own
// figures, and a goroutine's page wants the whole trace's. The generations the goroutine
// lives in are read again, streamed (one generation's events held at once), and
// summarized keeping that goroutine alone: the figures, times and regions are those the
// whole trace's summary gives it.
#pragma once

#include <memory>

#include "gotrace/analysis/summary.h"
#include "gotrace/json_writer.h"
#include "gotrace/reader.h"

namespace gotrace::analysis {

struct GoroutineLife {
  GenerationRun generations;  // those read (generations_of_goroutine)
  // The goroutine (none if the generations never name it) with its regions, and the
  // names its figures use. Its names view `tables`' strings.
  Summary summary;
  std::unique_ptr<ReadResult> tables;  // the read's store: its tables (no events)

  const GoroutineSummary* goroutine() const { return summary.goroutines.empty() ? nullptr : &summary.goroutines[0]; }
};

// Goroutine `id`, seen in generations [first, last] of `whole` (read with
// options.resume_points from the same bytes). A problem reading them is thrown as a
// TraceError.
GoroutineLife summarize_goroutine_life(const TraceSource& source, const EventStore& whole, GoID id, size_t first,
                                       size_t last);
GoroutineLife summarize_goroutine_life(std::span<const uint8_t> bytes, const EventStore& whole, GoID id, size_t first,
                                       size_t last);

// {"goroutine": goroutine_json, "group": its start function, "generations": [first, last]}
// (as a whole trace's TraceSession::goroutine_json, with the generations read), or null
// if they do not name it.
void goroutine_life_json(JsonWriter& w, const GoroutineLife& life);

}  // namespace gotrace::analysis
