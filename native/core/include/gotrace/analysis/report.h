// Everything `gotrace analysis` computes — goroutine summaries, tasks and the MMU for
// the three flag sets and seven windows of Go's analysis references — in one call, and
// its JSON in exactly the references' shape (analysis_json.h).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gotrace/analysis/mmu.h"
#include "gotrace/analysis/summary.h"

namespace gotrace::analysis {

// Windows 1µs, 10µs, ... 1s.
inline constexpr int64_t kReportWindows[] = {1'000, 10'000, 100'000, 1'000'000, 10'000'000, 100'000'000, 1'000'000'000};
// STW; STW, background, assist and sweep; the same per P.
inline constexpr unsigned kReportFlagSets[] = {
    kUtilSTW,
    kUtilSTW | kUtilBackground | kUtilAssist | kUtilSweep,
    kUtilSTW | kUtilBackground | kUtilAssist | kUtilSweep | kUtilPerProc,
};

struct MmuValues {
  unsigned flags = 0;
  std::vector<std::pair<int64_t, double>> by_window;  // (window ns, MMU)
};

struct Report {
  std::string error;  // why reading stopped early ("" if it did not)
  uint64_t events = 0;
  Summary summary;
  std::vector<MmuValues> mmu;  // one per kReportFlagSets entry
};

Report analyze(const EventStore& store, std::string error = "");

}  // namespace gotrace::analysis
