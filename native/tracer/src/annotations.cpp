// User annotations (annotations.h): Go's runtime/trace tasks, regions and logs. Each needs
// a running goroutine on the calling thread (a plain thread always has one).
#include "gotrace/tracer/annotations.h"

#include "context.h"
#include "gotrace/v2_spec.h"

namespace gotrace::tracer::detail {

namespace {

// Holds the write flag for an annotation; false (and a misuse counted) if the thread
// runs no goroutine.
inline bool annotation_context(const Locker& l) {
  if (sync_context(l) && l.m->view_g && l.m->view_p) return true;
  count_misuse();
  return false;
}

}  // namespace

[[gnu::noinline]] uint64_t task_begin(std::string_view name, uint64_t parent) {
  void* fp = __builtin_frame_address(0);
  ScopedLocker l;
  if (!l) return 0;
  uint64_t id = rt().next_task.fetch_add(1, std::memory_order_relaxed);
  if (annotation_context(*l)) emit(*l, v2::EvUserTaskBegin, id, parent, string_id(*l, name), capture_stack(*l, fp));
  return id;
}

[[gnu::noinline]] void task_end(uint64_t id) {
  void* fp = __builtin_frame_address(0);
  ScopedLocker l;
  if (l && annotation_context(*l)) emit(*l, v2::EvUserTaskEnd, id, capture_stack(*l, fp));
}

[[gnu::noinline]] RegionMark region_begin(uint64_t task, std::string_view name) {
  void* fp = __builtin_frame_address(0);
  ScopedLocker l;
  if (!l || !annotation_context(*l)) return {};
  uint64_t name_id = string_id(*l, name);
  emit(*l, v2::EvUserRegionBegin, task, name_id, capture_stack(*l, fp));
  return {l->gen, name_id};
}

[[gnu::noinline]] void region_end(RegionMark begun, uint64_t task, std::string_view name) {
  void* fp = __builtin_frame_address(0);
  ScopedLocker l;
  // A region begun in an earlier trace (whose generations all precede this trace's
  // first) ends unrecorded.
  if (!l || begun.gen < l->m->session || !annotation_context(*l)) return;
  // Within the generation it began in, the name's id is known: no second lookup.
  uint64_t name_id = begun.gen == l->gen ? begun.name_id : string_id(*l, name);
  emit(*l, v2::EvUserRegionEnd, task, name_id, capture_stack(*l, fp));
}

[[gnu::noinline]] void log(uint64_t task, std::string_view category, std::string_view message) {
  void* fp = __builtin_frame_address(0);
  ScopedLocker l;
  if (!l || !annotation_context(*l)) return;
  // Messages are seldom repeated: each gets a fresh string id, as in Go.
  uint64_t value = rt().strings[l->gen & 1].emit(l->gen, message);
  emit(*l, v2::EvUserLog, task, string_id(*l, category), value, capture_stack(*l, fp));
}

}  // namespace gotrace::tracer::detail
