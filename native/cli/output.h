// Ending a command's output the same way everywhere.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "gotrace/json_writer.h"
#include "gotrace/reader.h"

namespace gotrace::cli {

// A duration to about four significant digits ("1.235ms"), as Go prints durations.
std::string human_duration(int64_t ns);

// A number given to --NAME: a whole number (ns, an id); a clear error otherwise.
int64_t parse_whole(const std::string& name, const std::string& v);

// A count or a size given to --NAME: a whole number from `min` to `max`; a clear error
// otherwise (not a number, or out of range: a negative count is a mistake, not "all").
int64_t parse_bounded(const std::string& name, const std::string& v, int64_t min, int64_t max);

// A number given to --NAME (a percentage, a factor); a clear error otherwise.
double parse_number(const std::string& name, const std::string& v);

// A pc given to --NAME: 0x... as `gotrace regions` prints it, or in decimal.
uint64_t parse_pc(const std::string& name, const std::string& v);

// Writes one indented JSON document (what `write` puts in it) to standard output.
void print_json(const std::function<void(JsonWriter&)>& write);

// After a command printed what it could of a trace: flushes standard output, and for a
// trace that could not be read to the end prints the reader's error on standard error.
// Returns the exit status (1 for such a trace).
int finish(const ReadResult& r);

}  // namespace gotrace::cli
