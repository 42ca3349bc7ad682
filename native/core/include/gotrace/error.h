// Errors of the reader: Go's message, plus where it happened.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace gotrace {

// Where in a trace an error was found. Every field is optional; what is known is printed.
struct ErrorLocation {
  std::optional<uint64_t> offset;      // byte offset in the file (header included)
  std::optional<uint64_t> generation;  // v2 generation number
  std::optional<uint64_t> batch_offset;
  std::optional<int64_t> thread;       // the M whose batch held the event
  std::string event;                   // the event's name, when one is involved

  std::string describe() const;        // "generation 3, M 7, batch at offset 0x1f, event GoStart at offset 0x2a"
};

// A malformed or inconsistent trace. `what()` is the full text: Go's own message first
// (so Go's error expectations match it), then the location in parentheses.
class TraceError : public std::runtime_error {
 public:
  explicit TraceError(std::string message, ErrorLocation where = {});

  const std::string& message() const { return message_; }  // Go's message alone
  const ErrorLocation& where() const { return where_; }

 private:
  std::string message_;
  ErrorLocation where_;
};

}  // namespace gotrace
