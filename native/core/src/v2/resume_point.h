// A generation's resume point: the ordering's state and the last time when the read
// of the whole trace began that generation (ReadOptions::resume_points).
#pragma once

#include "gotrace/event_store.h"
#include "order.h"

namespace gotrace {

struct ResumePoint {
  v2::Ordering::Snapshot ordering;
  Time last_time = 0;  // Go's times increase strictly: the generation's first follows it
};

}  // namespace gotrace
