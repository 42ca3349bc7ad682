#include "gotrace/analysis/report.h"

#include "analysis/event_pass.h"
#include "summarizer.h"
#include "analysis/mmu/utilization.h"

namespace gotrace::analysis {

Report analyze(const EventStore& store, std::string error) {
  Report r;
  r.error = std::move(error);
  r.events = store.size();
  // One pass over the events for the summaries and the three flag sets.
  detail::RangeNames names;
  detail::Summarizer summarizer(store, names);
  detail::UtilizationPass utilization(store, names, kReportFlagSets);
  detail::run_event_pass(store, names, summarizer, utilization);
  r.summary = summarizer.finish();
  auto utils = utilization.finish();
  for (size_t k = 0; k < utils.size(); k++) {
    MmuCurve curve(std::move(utils[k]));
    MmuValues v;
    v.flags = kReportFlagSets[k];
    for (int64_t w : kReportWindows) v.by_window.push_back({w, curve.mmu(w)});
    r.mmu.push_back(std::move(v));
  }
  return r;
}

}  // namespace gotrace::analysis
