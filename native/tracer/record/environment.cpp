#include "environment.h"

#include <cstdlib>
#include <cstring>

extern char** environ;

namespace gotrace::record {

namespace {

// The entry of `name` ("NAME=..."), or the array's end.
char** find(const char* name) {
  const size_t n = std::strlen(name);
  char** e = environ;
  if (!e) return nullptr;
  for (; *e; e++)
    if (std::strncmp(*e, name, n) == 0 && (*e)[n] == '=') return e;
  return e;
}

// "NAME=VALUE", never freed (the environment may keep it for the process's life).
char* entry(const char* name, const char* value) {
  const size_t n = std::strlen(name), v = std::strlen(value);
  char* s = static_cast<char*>(std::malloc(n + 1 + v + 1));
  if (!s) return nullptr;
  std::memcpy(s, name, n);
  s[n] = '=';
  std::memcpy(s + n + 1, value, v + 1);
  return s;
}

}  // namespace

const char* environment_value(const char* name) {
  char** e = find(name);
  return e && *e ? *e + std::strlen(name) + 1 : nullptr;
}

void set_environment(const char* name, const char* value) {
  char* s = entry(name, value);
  if (!s) return;
  char** e = find(name);
  if (e && *e) {
    *e = s;
    return;
  }
  const size_t count = e ? size_t(e - environ) : 0;
  char** grown = static_cast<char**>(std::malloc((count + 2) * sizeof(char*)));
  if (!grown) return;
  if (count) std::memcpy(grown, environ, count * sizeof(char*));
  grown[count] = s;
  grown[count + 1] = nullptr;
  environ = grown;
}

void remove_from_environment(const char* name) {
  for (char** e = find(name); e && *e; e = find(name)) {
    char** d = e;
    do d[0] = d[1];
    while (*d++);
  }
}

}  // namespace gotrace::record
