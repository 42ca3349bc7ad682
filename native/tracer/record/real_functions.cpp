// The real functions behind the interposed names.
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "interpose.h"

namespace gotrace::record {

void* resolve_real(const char* name, const char* version) {
  void* f = dlsym(RTLD_NEXT, name);
  if (version) {
    // libc's unversioned name may be an old version of the function: take the one asked
    // for from the same library. An interceptor in between (a sanitizer's) carries no
    // version and is taken as it is: it calls the right one itself.
    void* versioned = dlvsym(RTLD_NEXT, name, version);
    Dl_info a = {}, b = {};
    if (versioned && (!f || (dladdr(f, &a) && dladdr(versioned, &b) && a.dli_fbase == b.dli_fbase))) f = versioned;
  }
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
