#include "write_fence.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace gotrace::tracer::detail {

std::atomic<bool> g_asymmetric_fence{false};

namespace {

long membarrier(int cmd) { return syscall(SYS_membarrier, cmd, 0u, 0); }

}  // namespace

void init_write_fence() {
  static std::once_flag once;
  std::call_once(once, [] {
    // GOTRACE_TRACER_FENCE=full keeps the full fence on every event (for comparison).
    const char* want = std::getenv("GOTRACE_TRACER_FENCE");
    if (want && std::strcmp(want, "full") == 0) return;
    long cmds = membarrier(MEMBARRIER_CMD_QUERY);
    if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return;
    if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0) return;
    g_asymmetric_fence.store(true, std::memory_order_seq_cst);
  });
}

void heavy_fence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (g_asymmetric_fence.load(std::memory_order_relaxed)) membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
}

}  // namespace gotrace::tracer::detail
