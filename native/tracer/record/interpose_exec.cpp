// A recorded process that executes another program (a wrapper script, `#!/usr/bin/env`,
// pyenv's shims) becomes it, and it is that program the user asked to trace: the exec
// family keeps this library in its LD_PRELOAD, so that the new program records into the
// same file (recorder.h, exec_begin). Without it the trace was the few events of `env`,
// or an empty file. A child's exec (after fork) goes straight to libc: whether children
// are recorded is --children's business.
#include <alloca.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstring>
#include <string>
#include <vector>

#include "interpose.h"
#include "recorder.h"

extern char** environ;

namespace gotrace::record {
namespace {

// `env` with this library first in LD_PRELOAD, once.
class EnvironmentWithRecorder {
 public:
  explicit EnvironmentWithRecorder(char* const* env) {
    const char* library = recorder_library();
    const char* preload = nullptr;
    for (char* const* e = env; e && *e; e++) {
      if (library && !preload && std::strncmp(*e, "LD_PRELOAD=", 11) == 0) preload = *e + 11;
      else entries_.push_back(*e);
    }
    if (library) {
      const std::string others = preload ? preload_without_recorder(preload, library) : std::string();
      preload_ = "LD_PRELOAD=" + std::string(library) + (others.empty() ? "" : ":" + others);
      entries_.push_back(preload_.data());
    }
    entries_.push_back(nullptr);
  }
  char* const* get() { return entries_.data(); }

 private:
  std::string preload_;
  std::vector<char*> entries_;
};

// Runs `call` with the environment `env` given the recorder, inside exec_begin and
// exec_failed; `plain` (the program's own call) anywhere else.
template <class Call, class Plain>
int exec_recorded(char* const* env, Call call, Plain plain) {
  if (!exec_begin()) return plain();
  int r;
  {
    EnvironmentWithRecorder with(env);
    r = call(with.get());
  }
  int saved = errno;
  exec_failed();
  errno = saved;
  return r;
}

// How many arguments execl and its kin were given, their null pointer included.
size_t count_arguments(const char* first, va_list ap) {
  size_t n = 1;
  for (const char* a = first; a; a = va_arg(ap, const char*)) n++;
  return n;
}

// Fills `argv` (count_arguments long) from the arguments; returns what follows the null
// pointer when `env` is asked (execle's environment).
char* const* collect_arguments(const char* first, va_list ap, char** argv, bool env) {
  size_t i = 0;
  for (const char* a = first; a; a = va_arg(ap, const char*)) argv[i++] = const_cast<char*>(a);
  argv[i] = nullptr;
  return env ? va_arg(ap, char* const*) : nullptr;
}

}  // namespace
}  // namespace gotrace::record

using namespace gotrace::record;

GOTRACE_INTERPOSE int execve(const char* path, char* const argv[], char* const envp[]) {
  auto real = GOTRACE_REAL(execve);
  return exec_recorded(envp, [&](char* const* env) { return real(path, argv, env); },
                       [&] { return real(path, argv, envp); });
}

GOTRACE_INTERPOSE int execvpe(const char* file, char* const argv[], char* const envp[]) {
  auto real = GOTRACE_REAL(execvpe);
  return exec_recorded(envp, [&](char* const* env) { return real(file, argv, env); },
                       [&] { return real(file, argv, envp); });
}

GOTRACE_INTERPOSE int fexecve(int fd, char* const argv[], char* const envp[]) {
  auto real = GOTRACE_REAL(fexecve);
  return exec_recorded(envp, [&](char* const* env) { return real(fd, argv, env); },
                       [&] { return real(fd, argv, envp); });
}

GOTRACE_INTERPOSE int execv(const char* path, char* const argv[]) {
  auto real = GOTRACE_REAL(execve);
  return exec_recorded(environ, [&](char* const* env) { return real(path, argv, env); },
                       [&] { return GOTRACE_REAL(execv)(path, argv); });
}

GOTRACE_INTERPOSE int execvp(const char* file, char* const argv[]) {
  auto real = GOTRACE_REAL(execvpe);
  return exec_recorded(environ, [&](char* const* env) { return real(file, argv, env); },
                       [&] { return GOTRACE_REAL(execvp)(file, argv); });
}

// The list forms build their argument vector on the stack, as libc's do: they may run
// in a vfork child, where taking the heap's lock could hang.
#define ARGUMENTS(first, argv, env_out, want_env)          \
  va_list ap;                                              \
  va_start(ap, first);                                     \
  va_list counting;                                        \
  va_copy(counting, ap);                                   \
  const size_t n = count_arguments(first, counting);       \
  va_end(counting);                                        \
  char** argv = static_cast<char**>(alloca(n * sizeof(char*))); \
  char* const* env_out = collect_arguments(first, ap, argv, want_env); \
  va_end(ap);                                              \
  (void)env_out

GOTRACE_INTERPOSE int execl(const char* path, const char* arg, ...) {
  ARGUMENTS(arg, argv, unused, false);
  return execv(path, argv);
}

GOTRACE_INTERPOSE int execlp(const char* file, const char* arg, ...) {
  ARGUMENTS(arg, argv, unused, false);
  return execvp(file, argv);
}

GOTRACE_INTERPOSE int execle(const char* path, const char* arg, ...) {
  ARGUMENTS(arg, argv, envp, true);
  return execve(path, argv, envp);
}
