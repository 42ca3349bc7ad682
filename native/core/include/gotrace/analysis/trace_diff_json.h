// JSON of a diff (src/analysis/diff/trace_diff_json.cpp).
#pragma once

#include <cstddef>
#include "gotrace/analysis/trace_diff.h"
#include "gotrace/json_writer.h"

namespace gotrace::analysis {

// `gotrace diff --json`: {"before": {"from", "to"}, "after": {...}, "groups": [{"name",
// "before", "after", "delta": {"count", "exec", ..., "block:<reason>", ...}, "relative":
// {same keys: delta / before, null where before is 0}}] (largest |delta total| first),
// "tasks" / "regions": [{"name", "before", "after": {"histogram", "quantiles"}, "delta":
// {"count", "p50", "p90", "p99", "max", "total"}}], "gc": {"before", "after": {"cycles",
// "stw_count", "stw_ns", "mmu": [[window, mmu]...]}, "delta"}, "profiles": {TYPE:
// {"before", "after", "delta": {"count", "ns"}, "stacks": [{"stack", "before", "after",
// "delta": {"count", "ns"}}] (the `top` largest |delta| first)}}.
void trace_diff_json(JsonWriter& w, const TraceFigures& before, const TraceFigures& after, size_t top);

}  // namespace gotrace::analysis
