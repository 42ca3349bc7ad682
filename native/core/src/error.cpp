#include "gotrace/error.h"

#include "strings_util.h"

namespace gotrace {

std::string ErrorLocation::describe() const {
  std::string out;
  auto add = [&](const std::string& part) {
    if (!out.empty()) out += ", ";
    out += part;
  };
  if (generation) add(fmt("generation %llu", (unsigned long long)*generation));
  if (thread) add(fmt("M %lld", (long long)*thread));
  if (batch_offset) add(fmt("batch at offset %llu", (unsigned long long)*batch_offset));
  if (!event.empty()) {
    add(offset ? fmt("event %s at offset %llu", event.c_str(), (unsigned long long)*offset)
               : fmt("event %s", event.c_str()));
  } else if (offset) {
    add(fmt("at offset %llu", (unsigned long long)*offset));
  }
  return out;
}

static std::string full_text(const std::string& message, const ErrorLocation& where) {
  std::string loc = where.describe();
  if (loc.empty()) return message;
  std::string text = message;
  text.append(" (").append(loc).append(")");
  return text;
}

TraceError::TraceError(std::string message, ErrorLocation where)
    : std::runtime_error(full_text(message, where)), message_(std::move(message)), where_(std::move(where)) {}

}  // namespace gotrace
