// What the goroutine, task and region views read of events besides the summary: the
// stack of a region's start event (its leaf frame tells the region's type apart) and a
// task log's fields. Over a store that holds every event (StoreEvents), or kept from a
// streamed read whose events are released as it goes (StreamedSummary).
#pragma once

#include <cstdint>
#include <string_view>

#include "gotrace/event_store.h"

namespace gotrace::analysis {

struct LogFields {
  Time time = 0;
  GoID goroutine = kNoGoroutine;
  std::string_view category, message;  // views into the store's string table
};

class SummaryEvents {
 public:
  virtual ~SummaryEvents() = default;
  // The stack of a region's start event (0: none).
  virtual StackID stack(uint64_t event) const = 0;
  // The fields of a Log event a task lists.
  virtual LogFields log(uint64_t event) const = 0;
};

// The events of a store that holds them.
class StoreEvents final : public SummaryEvents {
 public:
  explicit StoreEvents(const EventStore& store) : store_(store) {}
  StackID stack(uint64_t event) const override;
  LogFields log(uint64_t event) const override;

 private:
  const EventStore& store_;
};

}  // namespace gotrace::analysis
