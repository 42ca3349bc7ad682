#include "code_module.h"

#include <errno.h>
#include <link.h>
#include <unistd.h>

namespace gotrace::tracer::detail {

namespace {

struct Search {
  uint64_t pc;
  uint64_t page;
  bool found = false;
  bool main_program = false;
  std::string path;
  uint64_t base = 0;
};

int visit(dl_phdr_info* info, size_t, void* data) {
  auto* s = static_cast<Search*>(data);
  bool inside = false;
  uint64_t first = UINT64_MAX;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    const uint64_t start = info->dlpi_addr + ph.p_vaddr;
    if (s->pc - start < ph.p_memsz) inside = true;
    // As the loader's l_map_start: the lowest segment's address, down to its page.
    const uint64_t mapped = info->dlpi_addr + (ph.p_vaddr & ~(s->page - 1));
    if (mapped < first) first = mapped;
  }
  if (!inside) return 0;
  s->found = true;
  s->base = first;
  const char* name = info->dlpi_name;
  if (!name || !*name) {
    s->main_program = true;
  } else {
    s->path = name;
  }
  return 1;
}

}  // namespace

bool code_module_of(uint64_t pc, std::string& path, uint64_t& base) {
  Search s;
  s.pc = pc;
  long page = sysconf(_SC_PAGESIZE);
  s.page = page > 0 ? static_cast<uint64_t>(page) : 4096;
  dl_iterate_phdr(visit, &s);
  if (!s.found) return false;
  path = s.main_program ? std::string(program_invocation_name ? program_invocation_name : "") : s.path;
  base = s.base;
  return true;
}

}  // namespace gotrace::tracer::detail
