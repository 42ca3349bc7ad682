// The real functions behind the interposed names.
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "interpose.h"

namespace gotrace::record {

void* resolve_real(const char* name, const char* version) {
  void* f = version ? dlvsym(RTLD_NEXT, name, version) : dlsym(RTLD_NEXT, name);
  // (A sanitizer's interceptor may carry no version: then the unversioned name.)
  if (!f && version) f = dlsym(RTLD_NEXT, name);
  if (!f) {
    // Nothing to fall back on: the program cannot go on without the call.
    static const char kPrefix[] = "gotrace-record: no real function for ";
    ssize_t ignored = ::syscall(SYS_write, 2, kPrefix, sizeof kPrefix - 1);
    ignored = ::syscall(SYS_write, 2, name, std::strlen(name));
    ignored = ::syscall(SYS_write, 2, "\n", 1);
    (void)ignored;
    std::abort();
  }
  return f;
}

}  // namespace gotrace::record
