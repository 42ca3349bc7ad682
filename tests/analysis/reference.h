// Comparing our analysis with Go's references (NAME.trace.analysis.json.zst): the same
// JSON shape, field by field, times and durations within a tolerance (Go 1.23's figures
// of the older traces move by a few ns with the order of tied events; Go 1.27's of the
// newest are compared with none), names, ids and counts exactly.
#pragma once

#include <string>
#include <vector>

#include "gotrace/reader.h"
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

// A corpus trace with Go's analysis references (NAME.trace.analysis.json.zst and
// NAME.trace.pprof-TYPE.folded.zst beside it), and which Go made them: Go 1.23 for the
// older traces (corpus/go), Go 1.27 for those of Go 1.24 and 1.27 (corpus/newest).
// Each is read with its Go's Sync placement, which the analyses follow.
struct ReferenceTrace {
  std::string name;  // file name without .trace
  std::string path;  // the trace
  bool go127 = false;
  ReadResult read() const;
  std::string reference(const std::string& suffix) const { return path + suffix; }  // e.g. ".analysis.json.zst"
};

// Corpus traces that have an analysis reference, the large one excluded.
std::vector<ReferenceTrace> traces_with_reference();

}  // namespace gotrace::test
