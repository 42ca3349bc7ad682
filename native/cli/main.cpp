// gotrace: read, check, convert and analyse Go execution traces.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "command.h"
#include "gotrace/version.h"

using namespace gotrace::cli;

namespace {

// A reader that stops reading (`gotrace dump FILE | head`) ends the output, not the
// command: the end of a pipe is a normal end, quiet and with status 0, as for the
// Unix tools one pipes into head.
void end_quietly_on_closed_pipe(int) { _exit(0); }

void print_overview() {
  std::printf(
      "gotrace %s: read, check, convert and analyse Go execution traces (Go 1.5 to 1.27).\n\n"
      "Usage: gotrace COMMAND [OPTIONS] FILE\n       gotrace --version\n\nCommands:\n",
      gotrace::kVersion);
  int width = 0;
  for (const Command& c : registry()) width = std::max(width, static_cast<int>(c.name.size()));
  for (const Command& c : registry()) std::printf("  %-*s  %s\n", width, c.name.c_str(), c.summary.c_str());
  std::printf("\nRun 'gotrace COMMAND --help' for a command's options.\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, end_quietly_on_closed_pipe);
  if (argc == 2 && (std::string(argv[1]) == "--version" || std::string(argv[1]) == "version")) {
    std::printf("gotrace %s\n", gotrace::kVersion);
    return 0;
  }
  const bool help = argc >= 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" || std::string(argv[1]) == "help");
  if (argc == 3 && std::string(argv[1]) == "help") {  // gotrace help COMMAND
    for (const Command& c : registry()) {
      if (c.name != argv[2]) continue;
      std::printf("%s", c.usage.c_str());
      return 0;
    }
    std::fprintf(stderr, "gotrace: unknown command %s\n\n", argv[2]);
    print_overview();
    return 2;
  }
  if (argc < 2 || help) {
    print_overview();
    return argc < 2 ? 2 : 0;
  }
  std::string name = argv[1];
  for (const Command& c : registry()) {
    if (c.name != name) continue;
    std::vector<std::string> rest(argv + 2, argv + argc);
    Args args(rest, c.value_flags);
    if (args.flag("help") || args.flag("h")) {
      std::printf("%s", c.usage.c_str());
      return 0;
    }
    const std::string wrong = misuse(c, args);
    if (!wrong.empty()) return usage_error(c, wrong);
    try {
      const int status = c.run(args);
      // Output that could not be written (a full disk) is a failure, said as one.
      if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::fprintf(stderr, "gotrace %s: cannot write the output: %s\n", name.c_str(), std::strerror(errno));
        return 1;
      }
      return status;
    } catch (const std::exception& e) {
      std::fflush(stdout);
      std::fprintf(stderr, "gotrace %s: %s\n", name.c_str(), e.what());
      return 1;
    }
  }
  std::fprintf(stderr, "gotrace: unknown command %s\n\n", name.c_str());
  print_overview();
  return 2;
}
