#include "owned_fds.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>

namespace gotrace::tracer::detail {

namespace {
// A few at most (a trace file, the recorder's copy of standard error, the files the
// symbolizer has open); free slots hold -1.
constexpr int kSlots = 16;
struct Slot {
  std::atomic<int> fd{-1};
  std::atomic<int*> holder{nullptr};  // where its owner keeps it, if it can move
};
Slot g_owned[kSlots];
std::mutex g_movable;

Slot* slot_of(int fd) {
  if (fd < 0) return nullptr;
  for (Slot& s : g_owned)
    if (s.fd.load(std::memory_order_relaxed) == fd) return &s;
  return nullptr;
}

// fd's file at another number, close-on-exec: a high one if any is free, else any.
int another_number(int fd) {
  int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, high_fd_base());
  return moved >= 0 ? moved : ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
}
}  // namespace

int high_fd_base() {
  constexpr rlim_t kTop = 4096, kRoom = 64;
  rlimit limit = {};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return int(kTop - kRoom);
  const rlim_t top = std::min(limit.rlim_cur, kTop);
  return int(top > 2 * kRoom ? top - kRoom : top / 2);
}

int move_high(int fd) {
  if (fd < 0 || fd >= high_fd_base()) return fd;
  int high = ::fcntl(fd, F_DUPFD_CLOEXEC, high_fd_base());
  if (high < 0) return fd;
  ::close(fd);
  return high;
}

std::unique_lock<std::mutex> lock_movable() { return std::unique_lock(g_movable); }

void own_fd(int fd, int* holder) {
  if (fd < 0) return;
  // Once, however often it is said: the recorder's open and the file sink both own the
  // trace file, and one slot each would halve what the table holds.
  if (Slot* s = slot_of(fd)) {
    if (holder) s->holder.store(holder);
    return;
  }
  for (Slot& s : g_owned) {
    int free = -1;
    if (s.fd.compare_exchange_strong(free, fd)) {
      s.holder.store(holder);
      return;
    }
  }
}

void disown_fd(int fd) {
  if (Slot* s = slot_of(fd)) {
    s->holder.store(nullptr);
    s->fd.compare_exchange_strong(fd, -1);
  }
}

bool is_owned_fd(int fd) { return slot_of(fd) != nullptr; }

bool make_room(int fd) {
  std::lock_guard lock(g_movable);
  Slot* s = slot_of(fd);
  if (!s) return true;
  int* holder = s->holder.load();
  if (!holder) {
    disown_fd(fd);
    return true;
  }
  const int moved = another_number(fd);
  if (moved < 0) return false;
  *holder = moved;
  s->fd.store(moved);
  return true;  // (the program's call then closes the copy at fd as it takes the number)
}

int owned_fds_in(unsigned first, unsigned last, int* out, int max) {
  int n = 0;
  for (const Slot& s : g_owned) {
    int fd = s.fd.load(std::memory_order_relaxed);
    if (fd >= 0 && unsigned(fd) >= first && unsigned(fd) <= last && n < max) out[n++] = fd;
  }
  std::sort(out, out + n);
  return n;
}

}  // namespace gotrace::tracer::detail
