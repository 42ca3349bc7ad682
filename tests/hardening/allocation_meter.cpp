#include "allocation_meter.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {

std::atomic<size_t> current{0};
std::atomic<size_t> peak{0};

// Each block carries its size in a 16-byte header (keeps malloc's alignment).
constexpr size_t kHeader = 16;

void* counted_alloc(size_t n) {
  void* p = std::malloc(n + kHeader);
  if (!p) throw std::bad_alloc();
  *static_cast<size_t*>(p) = n;
  size_t now = current.fetch_add(n) + n;
  size_t seen = peak.load();
  while (now > seen && !peak.compare_exchange_weak(seen, now)) {
  }
  return static_cast<char*>(p) + kHeader;
}

void counted_free(void* p) {
  if (!p) return;
  void* block = static_cast<char*>(p) - kHeader;
  current.fetch_sub(*static_cast<size_t*>(block));
  std::free(block);
}

}  // namespace

void* operator new(size_t n) { return counted_alloc(n); }
void* operator new[](size_t n) { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, size_t) noexcept { counted_free(p); }
void operator delete[](void* p, size_t) noexcept { counted_free(p); }

namespace gotrace::test {

static size_t start_level;

AllocationMeter::AllocationMeter() {
  start_level = current.load();
  peak.store(start_level);
}

size_t AllocationMeter::peak_above_start() const { return peak.load() - start_level; }

}  // namespace gotrace::test
