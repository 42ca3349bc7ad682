// Everything `gotrace analysis` computes — goroutine summaries, tasks and the MMU for
// the three flag sets and seven windows of Go's analysis references — in one call, and
// its JSON in exactly the references' shape (analysis_json.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gotrace/analysis/mmu.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/analysis/summary_archive.h"

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
  // The summaries; with `archived`, only its names and times (the goroutines, tasks and
  // regions are in the archive).
  Summary summary;
  std::shared_ptr<const ArchivedSummary> archived;
  std::vector<MmuValues> mmu;  // one per kReportFlagSets entry

  size_t goroutine_count() const { return archived ? archived->goroutines.size() : summary.goroutines.size(); }
  size_t task_count() const { return archived ? archived->tasks.size() : summary.tasks.size(); }
  uint64_t region_count() const;  // of the goroutines
};

// How a ReportBuilder keeps the summaries: in memory, or each goroutine and task put
// away in an archive as it ends (for traces of millions of goroutines: ~34 bytes per
// goroutine, region or task rather than 128-192; summary_archive.h).
enum class SummaryKeeping { InMemory, Archived };

Report analyze(const EventStore& store, std::string error = "");

// The same a part of the events at a time, in order: a streamed read
// (ReadOptions::on_generation) hands it each generation's events and then releases
// them. Built on the whole store, or on a streamed read's first generation: then the
// arrays of the summaries are sized from that generation's counts scaled to the file.
class ReportBuilder {
 public:
  explicit ReportBuilder(const EventStore& store, SummaryKeeping keeping = SummaryKeeping::InMemory);
  ~ReportBuilder();
  // Events [from, to) of the store, which follow those added before.
  void add(size_t from, size_t to);
  // The same in two halves, the summaries and the MMU's utilization, which share nothing
  // but the store they read: a caller may run them on two threads at once (gotrace
  // analysis does), while nothing writes to the store. Each gets every range of events.
  void add_summaries(size_t from, size_t to);
  void add_utilization(size_t from, size_t to);
  Report finish(std::string error = "");

 private:
  struct Passes;
  const EventStore& store_;
  std::unique_ptr<Passes> passes_;
  bool archived_ = false;
  uint64_t events_ = 0;
};

}  // namespace gotrace::analysis
