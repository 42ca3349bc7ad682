// Which loaded module holds a PC, and where it was loaded: what dladdr tells of the module,
// without the linear search of its symbols that dladdr also does (milliseconds a call in a
// program that exports many, as node does, which stretched generations).
#pragma once

#include <cstdint>
#include <string>

namespace gotrace::tracer::detail {

// The module's path (the program's own: its argv[0], as dladdr gives) and the start of
// its first mapped segment (dladdr's dli_fbase). False if no module maps `pc`.
bool code_module_of(uint64_t pc, std::string& path, uint64_t& base);

}  // namespace gotrace::tracer::detail
