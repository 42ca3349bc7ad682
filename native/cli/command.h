// The CLI's commands: each lives in its own cmd_*.cpp and registers itself here.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace gotrace::cli {

struct Command;

// Parsed command line of one command: --flag, --key=value, -o VALUE and positionals.
class Args {
 public:
  Args(std::vector<std::string> argv, std::vector<std::string> value_flags);
  bool flag(const std::string& name) const;                    // --name present
  std::string value(const std::string& name, const std::string& fallback = "") const;  // --name=V or --name V
  bool has_value(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  friend std::string misuse(const Command& c, const Args& args);
  struct Option {
    std::string name;     // without its dashes
    std::string value;    // "" when none was given
    std::string spelled;  // as typed, without any =VALUE ("-x", "--json")
    bool valued = false;  // a value was given (--name=V, or -o V of a value flag)
  };
  std::vector<Option> options_;
  std::vector<std::string> positional_;
};

struct Command {
  std::string name;
  std::string summary;                  // one line for the command list
  std::string usage;                    // the full --help text
  std::vector<std::string> value_flags;  // flags that take a value (e.g. "o", "to")
  std::vector<std::string> flags;       // every accepted flag
  std::function<int(const Args&)> run;  // exit status
  // Flags whose value is optional (--top[=N]); the others outside value_flags take none.
  std::vector<std::string> optional_value_flags = {};
  // Sets of flags of which at most one may be given (the output's form: --json | --list).
  std::vector<std::vector<std::string>> exclusive = {};
};

std::vector<Command>& registry();

struct Register {
  explicit Register(Command c) { registry().push_back(std::move(c)); }
};

// What is wrong with the flags given to `c` ("" when nothing): one it does not know, a
// value given to a flag that takes none, two flags that exclude each other.
std::string misuse(const Command& c, const Args& args);

// Exit status for a usage error, after printing the message and the usage.
int usage_error(const Command& c, const std::string& message);

}  // namespace gotrace::cli
