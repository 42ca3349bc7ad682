// The process's environment, read and changed in `environ` itself. The recorder does
// not call getenv, setenv or unsetenv: a program may define its own, found before libc's.
// bash does (its exported variables live in a table of its own, built in main from
// `environ`), and called from the library's constructor, before that table, its
// unsetenv did not remove LD_PRELOAD: every command of a recorded script was traced, to
// FILE.PID, without --children.
#pragma once

namespace gotrace::record {

// The value of `name`, or nullptr.
const char* environment_value(const char* name);

// Sets `name` to `value` (in place if it is there; otherwise in a new array, which is
// what main() is then given).
void set_environment(const char* name, const char* value);

// Removes `name`.
void remove_from_environment(const char* name);

}  // namespace gotrace::record
