// JSON for timeline query results: each result as one object of parallel arrays, as the
// wasm bindings hand them over (`gotrace timeline --json` prints the same). String ids
// come with their text.
#pragma once

#include "gotrace/analysis/timeline_query.h"
#include "gotrace/analysis/wake_index.h"
#include "gotrace/json_writer.h"

namespace gotrace::analysis {

// {"start", "end", "state" (names), "count", "detail", "time_in": {state: [...]}}; for
// goroutine and STW tracks also "detail_text" (the reason / kind).
void slices_json(JsonWriter& w, const EventStore& store, TrackKind kind, const SliceRects& r);
// {"start", "end", "row", "count", "task", "name" (text)}.
void spans_json(JsonWriter& w, const EventStore& store, const SpanRects& r);
// {"time", "resource", "count", "event"}.
void instants_json(JsonWriter& w, const InstantMarks& r);
// {"sampled", "from_time", "to_time", "kind" (names), "goroutine", "from_goroutine",
// "from_proc", "from_thread", "to_proc", "to_thread", "reason" (text)}.
void wake_edges_json(JsonWriter& w, const EventStore& store, const WakeEdges& r);
// {"exact", "time", "value", "min", "max"}.
void series_json(JsonWriter& w, const SeriesPoints& r);
// A goroutine's wake edges counted per goroutine: {"wokenBy": [{"goroutine", "count",
// "first"}], "woke": [...], "sampled"}.
void wake_counts_json(JsonWriter& w, const WakeCounts& c, bool sampled);

}  // namespace gotrace::analysis
