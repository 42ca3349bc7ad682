// Conversion of ordered v1 events into the v2 event model (FORMAT.md §3.6; for
// 1.5–1.10 the extension at the end of §3.7), as Go 1.23's oldTraceConverter does it.
// Events go to the store with the payload layout of event_view.h, their times made
// strictly increasing from -1. An event the v2 model has no place for throws TraceError
// (Go 1.23: "unexpected event type 36").
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "gotrace/event_store.h"
#include "v1_trace.h"

namespace gotrace::v1 {

// The conversion, one event at a time, in stream order: each event decoded, its time in
// ns, validated. `syscall_blocks`: for a GoSysCall, whether the goroutine's next event
// is its GoSysBlock; `message`: a UserLog's message.
class Converter {
 public:
  Converter(const Trace& t, EventStore& store);
  ~Converter();
  void step(const Event& ev, bool syscall_blocks, std::string_view message);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace gotrace::v1
