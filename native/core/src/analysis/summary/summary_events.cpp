#include "gotrace/analysis/summary_events.h"

#include "gotrace/event_view.h"

namespace gotrace::analysis {

StackID StoreEvents::stack(uint64_t event) const { return event < store_.size() ? store_.stack(event) : 0; }

LogFields StoreEvents::log(uint64_t event) const {
  EventView ev(store_, event);
  Log l = ev.log();
  return {ev.time(), ev.goroutine(), l.category, l.message};
}

}  // namespace gotrace::analysis
