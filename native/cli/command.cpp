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
      std::string body = a.substr(a[1] == '-' ? 2 : 1);
      if (body.empty()) {  // "--": the rest is positional
        positional_.insert(positional_.end(), argv.begin() + i + 1, argv.end());
        break;
      }
      auto eq = body.find('=');
      if (eq != std::string::npos) {
        options_.push_back({body.substr(0, eq), body.substr(eq + 1)});
      } else if (std::find(value_flags.begin(), value_flags.end(), body) != value_flags.end() && i + 1 < argv.size()) {
        options_.push_back({body, argv[++i]});
      } else {
        options_.push_back({body, ""});
      }
    } else {
      positional_.push_back(a);
    }
  }
}

bool Args::flag(const std::string& name) const {
  return std::any_of(options_.begin(), options_.end(), [&](auto& o) { return o.first == name; });
}

bool Args::has_value(const std::string& name) const { return flag(name); }

std::string Args::value(const std::string& name, const std::string& fallback) const {
  for (auto it = options_.rbegin(); it != options_.rend(); ++it)
    if (it->first == name) return it->second;
  return fallback;
}

std::vector<std::string> Args::unknown(const std::vector<std::string>& known) const {
  std::vector<std::string> out;
  for (auto& o : options_) {
    if (o.first == "help" || o.first == "h") continue;
    if (std::find(known.begin(), known.end(), o.first) == known.end()) out.push_back(o.first);
  }
  return out;
}

int usage_error(const Command& c, const std::string& message) {
  std::fprintf(stderr, "gotrace %s: %s\n\n%s", c.name.c_str(), message.c_str(), c.usage.c_str());
  return 2;
}

}  // namespace gotrace::cli
