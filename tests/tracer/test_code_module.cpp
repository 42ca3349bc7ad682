// The symbolizer finds a PC's module without dladdr (whose symbol search costs
// milliseconds in programs that export many symbols): the same path and base as dladdr.
#include <dlfcn.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <exception>
#include <string>

namespace gotrace::tracer::detail {
bool code_module_of(uint64_t pc, std::string& path, uint64_t& base);
}

namespace {

[[gnu::noinline]] int local_function(int x) { return x * 3 + 1; }

}  // namespace

TEST_CASE("A PC's module is the one dladdr names, at dladdr's base", "[symbolizer]") {
  using gotrace::tracer::detail::code_module_of;
  // In the C library, the C++ library, the math library and this program itself.
  const void* pcs[] = {
      reinterpret_cast<const void*>(&::write),
      reinterpret_cast<const void*>(&std::terminate),
      reinterpret_cast<const void*>(static_cast<double (*)(double)>(&::cbrt)),
      reinterpret_cast<const void*>(&local_function),
  };
  int in_program = 0;
  for (const void* pc : pcs) {
    Dl_info info{};
    REQUIRE(dladdr(pc, &info) != 0);
    REQUIRE(info.dli_fname != nullptr);
    std::string path;
    uint64_t base = 0;
    REQUIRE(code_module_of(reinterpret_cast<uintptr_t>(pc), path, base));
    CHECK(path == info.dli_fname);
    CHECK(base == reinterpret_cast<uintptr_t>(info.dli_fbase));
    if (pc == reinterpret_cast<const void*>(&local_function)) in_program++;
  }
  CHECK(in_program == 1);
  CHECK(local_function(2) == 7);
  // No module holds the first page.
  std::string path;
  uint64_t base = 0;
  CHECK_FALSE(code_module_of(16, path, base));
}
