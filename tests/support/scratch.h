// Files the tests write. Each test process has a directory of its own, made unique by
// mkdtemp rather than named by the process id: ids come round again within one long run
// of the suites (32768 of them on a container), and a file left by an earlier process
// was then read as this one's. The directory is removed when the process exits, unless
// a test keeps it for a closer look.
#pragma once

#include <string>

namespace gotrace::test {

// NAME in this process's directory (made on first use).
std::string scratch_path(const std::string& name);

// Leaves the directory in place at exit (a failing test's files, named in its message).
void keep_scratch();

}  // namespace gotrace::test
