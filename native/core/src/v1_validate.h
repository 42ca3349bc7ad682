// The old parsers' last pass, postProcessTrace (FORMAT.md §3.4 "Validation errors",
// §3.7 "Validation"): the goroutine and P state machines, GC, STW, sweep and mark-assist
// pairing, tasks and regions, and the rewrites that come with it.
#pragma once

#include <memory>
#include <span>

#include "v1_trace.h"

namespace gotrace::v1 {

// Checks the ordered events one at a time; throws TraceError at the first inconsistency.
// Rewrites as Go does: GCStart's P becomes GCP, an unblock of a goroutine blocked on the
// network gets NetpollP, and a goroutine's first start carries its creation stack.
class Validator {
 public:
  explicit Validator(const Trace& t);
  ~Validator();
  void step(Event& ev);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// Validates the ordered events.
void validate(Trace& t, std::span<Event> events);

}  // namespace gotrace::v1
