// The CLI's commands: each lives in its own cmd_*.cpp and registers itself here.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace gotrace::cli {

// Parsed command line of one command: --flag, --key=value, -o VALUE and positionals.
class Args {
 public:
  Args(std::vector<std::string> argv, std::vector<std::string> value_flags);
  bool flag(const std::string& name) const;                    // --name present
  std::string value(const std::string& name, const std::string& fallback = "") const;  // --name=V or --name V
  bool has_value(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }
  // Flags given that are not in `known`; the caller reports them.
  std::vector<std::string> unknown(const std::vector<std::string>& known) const;

 private:
  std::vector<std::pair<std::string, std::string>> options_;
  std::vector<std::string> positional_;
};

struct Command {
  std::string name;
  std::string summary;                  // one line for the command list
  std::string usage;                    // the full --help text
  std::vector<std::string> value_flags;  // flags that take a value (e.g. "o", "to")
  std::vector<std::string> flags;       // every accepted flag
  std::function<int(const Args&)> run;  // exit status
};

std::vector<Command>& registry();

struct Register {
  explicit Register(Command c) { registry().push_back(std::move(c)); }
};

// Exit status for a usage error, after printing the message and the usage.
int usage_error(const Command& c, const std::string& message);

}  // namespace gotrace::cli
