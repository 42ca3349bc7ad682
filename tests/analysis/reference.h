// Comparing our analysis with Go's references (NAME.trace.analysis.json.zst): the same
// JSON shape, field by field, times and durations within a tolerance (Go's own figures
// move by a few ns with the order of tied events), names, ids and counts exactly.
#pragma once

#include <string>
#include <vector>

#include "json_parse.h"

namespace gotrace::test {

struct Tolerance {
  int64_t ns = 16;     // times and durations
  double mmu = 1e-6;   // MMU values
  // When > 0, MMU values may also differ by this many ns of a window (a tie moved by a
  // few ns moves the windowed utilization by that share of the window).
  int64_t mmu_ns = 0;
};

struct Mismatch {
  std::string where;  // e.g. "goroutine 12 / region 3 / stats / exec"
  std::string ours, go;
  int64_t ns_off = 0;  // for times and durations: by how much
};

// Every difference between our report (report_json's shape) and Go's.
std::vector<Mismatch> compare_reports(const Json& ours, const Json& go, const Tolerance& tol);

// The largest difference of times and durations, to show in messages.
int64_t max_ns_off(const std::vector<Mismatch>& m);

// Corpus traces (names without .trace) that have a reference, the large one excluded.
std::vector<std::string> traces_with_reference();

}  // namespace gotrace::test
