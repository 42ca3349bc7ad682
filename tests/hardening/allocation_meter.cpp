#include "allocation_meter.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define GOTRACE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GOTRACE_ASAN 1
#endif
#endif

namespace {

// Signed: under the sanitizer's hooks, blocks allocated before the hooks were installed
// are freed through them too.
std::atomic<int64_t> current{0};
std::atomic<int64_t> peak{0};

void count_allocation(size_t size) {
  auto n = static_cast<int64_t>(size);
  int64_t now = current.fetch_add(n) + n;
  int64_t seen = peak.load();
  while (now > seen && !peak.compare_exchange_weak(seen, now)) {
  }
}

}  // namespace

#ifdef GOTRACE_ASAN
// Under AddressSanitizer the allocator is the sanitizer's own (replacing operator new
// would mix two allocators): its hooks see every allocation and free with their sizes.
#include <sanitizer/allocator_interface.h>

namespace {
void on_malloc(const volatile void*, size_t n) { count_allocation(n); }
void on_free(const volatile void* p) {
  if (p) current.fetch_sub(static_cast<int64_t>(__sanitizer_get_allocated_size(const_cast<const void*>(p))));
}
[[maybe_unused]] const int hooks_installed = __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
}  // namespace
#else
namespace {

// Each block carries its size in a 16-byte header (keeps malloc's alignment).
constexpr size_t kHeader = 16;

void* counted_alloc(size_t n) {
  void* p = std::malloc(n + kHeader);
  if (!p) throw std::bad_alloc();
  *static_cast<size_t*>(p) = n;
  count_allocation(n);
  return static_cast<char*>(p) + kHeader;
}

void counted_free(void* p) {
  if (!p) return;
  void* block = static_cast<char*>(p) - kHeader;
  current.fetch_sub(static_cast<int64_t>(*static_cast<size_t*>(block)));
  std::free(block);
}

}  // namespace

void* operator new(size_t n) { return counted_alloc(n); }
void* operator new[](size_t n) { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, size_t) noexcept { counted_free(p); }
void operator delete[](void* p, size_t) noexcept { counted_free(p); }
#endif

namespace gotrace::test {

static int64_t start_level;

AllocationMeter::AllocationMeter() {
  start_level = current.load();
  peak.store(start_level);
}

size_t AllocationMeter::peak_above_start() const { return static_cast<size_t>(peak.load() - start_level); }

}  // namespace gotrace::test
