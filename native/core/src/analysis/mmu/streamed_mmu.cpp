// StreamedMmu: the utilization pass over a streamed read, each generation as it comes.
#include "gotrace/streamed_mmu.h"

#include <algorithm>
#include <stdexcept>

#include "utilization.h"

namespace gotrace {

struct StreamedMmu::Pass {
  // The pass's work budget from the file's size: the store grows as the read goes.
  Pass(const EventStore& store, const unsigned* flags)
      : pass(store, names, {flags, 1}, std::max<uint64_t>(store.size(), store.format.file_bytes)) {}
  analysis::detail::RangeNames names;
  analysis::detail::UtilizationPass pass;
};

StreamedMmu::StreamedMmu(const EventStore& store, unsigned flags) : flags_(flags), store_(store) {}
StreamedMmu::~StreamedMmu() = default;

void StreamedMmu::add(size_t from, size_t to) {
  if (curve_) throw std::logic_error("events added to a finished MMU curve");
  if (!error_.empty()) return;
  try {
    if (!pass_) pass_ = std::make_unique<Pass>(store_, &flags_);
    pass_->pass.run(pass_->names, from, to);
  } catch (const std::exception& e) {
    error_ = e.what();
    pass_.reset();
  }
}

void StreamedMmu::finish() {
  if (curve_ || !error_.empty()) return;
  if (!pass_) pass_ = std::make_unique<Pass>(store_, &flags_);
  std::vector<std::vector<analysis::UtilSeries>> series = pass_->pass.finish();
  pass_.reset();
  curve_ = std::make_unique<analysis::MmuCurve>(std::move(series.at(0)));
}

const analysis::MmuCurve& StreamedMmu::curve() const {
  if (!error_.empty()) throw std::runtime_error(error_);
  if (!curve_) throw std::runtime_error("the trace is still being read: its MMU curve is made as the read goes");
  return *curve_;
}

}  // namespace gotrace
