// The MMU curve of one set of flags over a whole trace read streamed (each generation's
// events handed on, then released: streamed_read.h, stepped_read.h): what the MMU view
// shows of all of a trace too large to hold whole.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "gotrace/analysis/mmu.h"
#include "gotrace/event_store.h"

namespace gotrace {

class StreamedMmu {
 public:
  // Over the streamed read's store; `flags`: the UtilFlags of the curve.
  StreamedMmu(const EventStore& store, unsigned flags);
  ~StreamedMmu();
  StreamedMmu(const StreamedMmu&) = delete;
  StreamedMmu& operator=(const StreamedMmu&) = delete;

  // Events [from, to) of the store, which follow those added before, while it holds them.
  void add(size_t from, size_t to);
  // After the last events: the curve is made.
  void finish();
  unsigned flags() const { return flags_; }
  // The curve of the whole trace; a runtime_error before finish() ("still being read"),
  // or if the utilization could not be computed (its reason).
  const analysis::MmuCurve& curve() const;

 private:
  struct Pass;
  unsigned flags_;
  const EventStore& store_;
  std::unique_ptr<Pass> pass_;  // made with the first events (the store then knows the file's size)
  std::unique_ptr<analysis::MmuCurve> curve_;
  std::string error_;
};

}  // namespace gotrace
