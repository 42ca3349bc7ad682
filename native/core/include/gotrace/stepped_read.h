// Reading a trace a few generations at a time, when asked: for a host that reads a large
// trace between other work (the web app's worker indexes a trace too large to hold whole
// while it answers the views of the part it shows).
#pragma once

#include <memory>

#include "gotrace/reader.h"

namespace gotrace {

class SteppedRead {
 public:
  // Reads nothing yet. `source` and `result` (fresh) must outlive the read; `options` are
  // kept (their callbacks are called as read_trace_into calls them).
  SteppedRead(const TraceSource& source, ReadResult& result, ReadOptions options = {});
  ~SteppedRead();
  SteppedRead(const SteppedRead&) = delete;
  SteppedRead& operator=(const SteppedRead&) = delete;

  // Reads up to `generations` more generations of a Go 1.22+ trace (an older trace, which
  // has none, whole): false once the read is over, whole or ended by a problem (in
  // result.error). The events read are in result.store, as read_trace_into leaves them.
  bool advance(size_t generations);
  bool done() const;
  // The offset in the source its next read begins at (it reads on from there, a
  // TraceSource::read_ahead at least): what a source that reads ahead prepares.
  uint64_t next_offset() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace gotrace
