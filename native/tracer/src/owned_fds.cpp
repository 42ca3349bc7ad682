#include "owned_fds.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>

namespace gotrace::tracer::detail {

namespace {
// A few at most (a trace file, the recorder's copy of standard error, the files the
// symbolizer has open); free slots hold -1.
constexpr int kSlots = 16;
std::atomic<int> g_owned[kSlots] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
}  // namespace

int move_high(int fd) {
  if (fd < 0 || fd >= kHighFd) return fd;
  int high = ::fcntl(fd, F_DUPFD_CLOEXEC, kHighFd);
  if (high < 0) return fd;
  ::close(fd);
  return high;
}

void own_fd(int fd) {
  // Once, however often it is said: the recorder's open and the file sink both own the
  // trace file, and one slot each would halve what the table holds.
  if (fd < 0 || is_owned_fd(fd)) return;
  for (auto& slot : g_owned) {
    int free = -1;
    if (slot.compare_exchange_strong(free, fd)) return;
  }
}

void disown_fd(int fd) {
  for (auto& slot : g_owned) {
    int mine = fd;
    if (slot.compare_exchange_strong(mine, -1)) return;
  }
}

bool is_owned_fd(int fd) {
  if (fd < 0) return false;
  for (const auto& slot : g_owned)
    if (slot.load(std::memory_order_relaxed) == fd) return true;
  return false;
}

int owned_fds_in(unsigned first, unsigned last, int* out, int max) {
  int n = 0;
  for (const auto& slot : g_owned) {
    int fd = slot.load(std::memory_order_relaxed);
    if (fd >= 0 && unsigned(fd) >= first && unsigned(fd) <= last && n < max) out[n++] = fd;
  }
  std::sort(out, out + n);
  return n;
}

}  // namespace gotrace::tracer::detail
