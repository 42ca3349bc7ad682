// The legacy event list: a v1 trace (Go 1.5–1.21) as Go 1.21's old internal/trace
// parser ordered and validated it (FORMAT.md §3.7), before any conversion into the v2
// model. `gotrace dump --legacy` prints it in the format of the corpus's reference
// listings (NAME.trace.v1dump.zst), which are Go's own output.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "gotrace/error.h"

namespace gotrace::v1 {

// One event of the list, in Go 1.21's terms (its Event struct).
struct LegacyEvent {
  int64_t ts = 0;                  // ns since the first event
  std::string_view name;           // Go 1.21's type name; Local events appear renamed
  uint8_t type = 0;                // v1 wire type (see v1_spec.h)
  int64_t p = 0;                   // the P, or a fake P (TimerP = 1000001 ... GCP = 1000004)
  uint64_t g = 0;                  // the goroutine, 0 for none
  uint64_t off = 0;                // file offset of the event's type byte
  uint64_t stack = 0;              // stack ID; a goroutine's first start carries its creation stack
  std::array<uint64_t, 3> args{};  // argument slots, unconverted
};

class LegacyList {
 public:
  LegacyList();
  LegacyList(LegacyList&&) noexcept;
  LegacyList& operator=(LegacyList&&) noexcept;
  ~LegacyList();

  // Go 1.21's version number (1005, 1007 … 1011, 1019, 1021); 0 if it rejected the trace.
  int version() const { return version_; }
  // Why Go 1.21 rejected the trace (then the list is empty).
  const std::optional<TraceError>& error() const { return error_; }
  bool ok() const { return !error_.has_value(); }

  size_t size() const;
  LegacyEvent event(size_t i) const;
  // Event i as Go 1.21's Event.String() prints it, followed by " stk=<stack ID>".
  void append_line(std::string& out, size_t i) const;

 private:
  friend LegacyList read_legacy(std::span<const uint8_t> bytes);
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int version_ = 0;
  std::optional<TraceError> error_;
};

// Reads a trace as Go 1.21 did. Never throws for bad input: a rejected trace gives an
// empty list with `error` set. The list refers to `bytes`, which must outlive it.
LegacyList read_legacy(std::span<const uint8_t> bytes);

// The reference listing: "version <N>" and one line per event; or, for a rejected
// trace, "version 0" and "error: <message>". Every line ends in '\n'.
void append_legacy_dump(std::string& out, const LegacyList& list);

// The listing's first line (and, for a rejected trace, its error line): what comes
// before the events, for callers that print the events themselves.
void append_legacy_dump_header(std::string& out, const LegacyList& list);

}  // namespace gotrace::v1
