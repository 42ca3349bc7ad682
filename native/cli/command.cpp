#include "command.h"

#include <algorithm>
#include <cstdio>

namespace gotrace::cli {

std::vector<Command>& registry() {
  static std::vector<Command> commands;
  return commands;
}

Args::Args(std::vector<std::string> argv, std::vector<std::string> value_flags) {
  for (size_t i = 0; i < argv.size(); i++) {
    const std::string& a = argv[i];
    if (a.size() > 1 && a[0] == '-' && a != "-") {
      const size_t dashes = a[1] == '-' ? 2 : 1;
      std::string body = a.substr(dashes);
      if (body.empty()) {  // "--": the rest is positional
        positional_.insert(positional_.end(), argv.begin() + i + 1, argv.end());
        break;
      }
      auto eq = body.find('=');
      if (eq != std::string::npos) {
        options_.push_back({body.substr(0, eq), body.substr(eq + 1), a.substr(0, dashes + eq), true});
      } else if (std::find(value_flags.begin(), value_flags.end(), body) != value_flags.end() && i + 1 < argv.size()) {
        options_.push_back({body, argv[i + 1], a, true});
        i++;
      } else {
        options_.push_back({body, "", a, false});
      }
    } else {
      positional_.push_back(a);
    }
  }
}

bool Args::flag(const std::string& name) const {
  return std::any_of(options_.begin(), options_.end(), [&](auto& o) { return o.name == name; });
}

bool Args::has_value(const std::string& name) const { return flag(name); }

std::string Args::value(const std::string& name, const std::string& fallback) const {
  for (auto it = options_.rbegin(); it != options_.rend(); ++it)
    if (it->name == name) return it->value;
  return fallback;
}

std::string misuse(const Command& c, const Args& args) {
  auto in = [](const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  for (const Args::Option& o : args.options_) {
    if (o.name == "help" || o.name == "h") continue;
    if (!in(c.flags, o.name)) return "unknown option " + o.spelled;
    if (o.valued && !in(c.value_flags, o.name) && !in(c.optional_value_flags, o.name))
      return o.spelled + " takes no value (given '" + o.value + "')";
  }
  for (const std::vector<std::string>& set : c.exclusive) {
    const Args::Option* first = nullptr;  // in the order typed
    for (const Args::Option& o : args.options_) {
      if (!in(set, o.name)) continue;
      if (first && first->name != o.name) return first->spelled + " and " + o.spelled + " cannot be given together";
      if (!first) first = &o;
    }
  }
  return "";
}

int usage_error(const Command& c, const std::string& message) {
  std::fprintf(stderr, "gotrace %s: %s\n\n%s", c.name.c_str(), message.c_str(), c.usage.c_str());
  return 2;
}

}  // namespace gotrace::cli
