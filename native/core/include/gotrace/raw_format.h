// Go's raw trace formats (internal/trace/raw): a v2 trace as a flat list of wire
// events, in binary or in Go's line-based text form ("Trace Go1.22" ...). Nothing is
// ordered or validated here; this is what golden tests and `gotrace convert` use.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gotrace {

struct RawEvent {
  uint8_t type = 0;
  std::vector<uint64_t> args;  // the spec's arguments, then 4 values per stack frame
  std::string data;            // String / ExperimentalBatch payload
  bool has_data = false;
};

using RawEventSink = std::function<void(const RawEvent&)>;

// Decodes a binary v2 trace event by event (Go's raw.Reader). Returns the header's
// minor version. Throws TraceError with the byte offset on malformed input.
int decode_raw_binary(std::span<const uint8_t> bytes, const RawEventSink& sink);

// Parses the text format (Go's raw.TextReader). Returns the minor version from the
// "Trace Go1.N" header. Throws TraceError naming the line on malformed input.
int parse_raw_text(std::string_view text, const RawEventSink& sink);

// Appends one event as a line of the text format (Go's raw.Event.String() + "\n").
void append_raw_text(std::string& out, const RawEvent& ev);
std::string raw_text_header(int go_minor);  // "Trace Go1.N\n"

// Appends one event in the binary encoding (minimal varints).
void append_raw_binary(std::vector<uint8_t>& out, const RawEvent& ev);
std::vector<uint8_t> raw_binary_header(int go_minor);  // the 16-byte header

// Whole-trace conversions.
std::string binary_to_text(std::span<const uint8_t> bytes);
std::vector<uint8_t> text_to_binary(std::string_view text);

// Go's strconv.Unquote for "..." , `...` and '...' literals; returns false if invalid.
bool go_unquote(std::string_view in, std::string& out);

}  // namespace gotrace
