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
  // A task begun in an earlier trace ends unrecorded (its end alone read as a task of
  // no type).
  if (id < rt().first_task.load(std::memory_order_relaxed)) return;
  if (l && annotation_context(*l)) emit(*l, v2::EvUserTaskEnd, id, capture_stack(*l, fp));
}

[[gnu::noinline]] RegionMark region_begin(uint64_t task, std::string_view name, const void* region) {
  void* fp = __builtin_frame_address(0);
  ScopedLocker l;
  if (!l || !annotation_context(*l)) return {};
  uint64_t name_id = string_id(*l, name);
  emit(*l, v2::EvUserRegionBegin, task, name_id, capture_stack(*l, fp));
  l->m->view_g->regions.push_back(region);
  return {l->gen, name_id};
}

[[gnu::noinline]] void region_end(RegionMark begun, uint64_t task, std::string_view name, const void* region) {
  void* fp = __builtin_frame_address(0);
  ScopedLocker l;
  // A region begun in an earlier trace (whose generations all precede this trace's
  // first) ends unrecorded.
  if (!l || begun.gen < l->m->session || !annotation_context(*l)) return;
  // Regions on a goroutine nest (Go's readers reject an end that is not the innermost
  // open one, and read no further): one ended out of turn is a misuse, not written, and
  // stays open in the trace; ending it is forgotten so that the others still match. (A
  // goroutine with none open may end one begun elsewhere, as Go's do across a trace's start.)
  std::vector<const void*>& open = l->m->view_g->regions;
  if (!open.empty()) {
    if (open.back() != region) {
      for (auto it = open.begin(); it != open.end(); ++it) {
        if (*it == region) {
          open.erase(it);
          break;
        }
      }
      count_misuse();
      return;
    }
    open.pop_back();
  }
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
