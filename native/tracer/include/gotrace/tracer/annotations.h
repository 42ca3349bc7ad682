// User annotations, as Go's runtime/trace has them: tasks (a logical operation, possibly
// spanning goroutines), regions (a span of time within one goroutine) and logs (a message
// tied to a task). Each costs one predictable branch while tracing is off.
#pragma once

#include <cstdint>
#include <string_view>

#include "gotrace/tracer/detail/fast_path.h"

namespace gotrace::tracer {

namespace detail {
// Where a region began: the generation (0: unrecorded) and its name's string id there,
// which the region's end reuses while the generation lasts.
struct RegionMark {
  uint64_t gen = 0;
  uint64_t name_id = 0;
};
uint64_t task_begin(std::string_view name, uint64_t parent);
void task_end(uint64_t id);
// `region`: the Region object, by which its end is matched with its beginning.
RegionMark region_begin(uint64_t task, std::string_view name, const void* region);
void region_end(RegionMark begun, uint64_t task, std::string_view name, const void* region);
void log(uint64_t task, std::string_view category, std::string_view message);
}  // namespace detail

// A task. The default value is the background task (id 0). A task begun while tracing is
// off is the background task too, and ending it records nothing.
class Task {
 public:
  constexpr Task() noexcept = default;

  [[gnu::always_inline]] static Task begin(std::string_view name) { return begin(name, Task()); }
  [[gnu::always_inline]] static Task begin(std::string_view name, const Task& parent) {
    Task t;
    if (detail::enabled()) t.id_ = detail::task_begin(name, parent.id_);
    return t;
  }
  // May be called from any goroutine, once.
  [[gnu::always_inline]] void end() {
    if (id_ != 0 && detail::enabled()) detail::task_end(id_);
    id_ = 0;
  }
  uint64_t id() const noexcept { return id_; }

 private:
  uint64_t id_ = 0;
};

// A region of the running goroutine's time, from construction to destruction. Regions on
// one goroutine nest. `name` must outlive the region.
class Region {
 public:
  [[gnu::always_inline]] Region(const Task& task, std::string_view name) : task_(task.id()), name_(name) {
    if (detail::enabled()) begun_ = detail::region_begin(task_, name_, this);
  }
  [[gnu::always_inline]] explicit Region(std::string_view name) : Region(Task(), name) {}
  [[gnu::always_inline]] ~Region() {
    if (begun_.gen != 0) detail::region_end(begun_, task_, name_, this);
  }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

 private:
  uint64_t task_;
  std::string_view name_;
  detail::RegionMark begun_;
};

// A message in `category`, tied to `task`, from the running goroutine.
[[gnu::always_inline]] inline void log(const Task& task, std::string_view category, std::string_view message) {
  if (detail::enabled()) detail::log(task.id(), category, message);
}

}  // namespace gotrace::tracer
