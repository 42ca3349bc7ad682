#include "options.h"

#include <errno.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "environment.h"

namespace gotrace::record {

namespace {

// A non-negative integer setting; `fallback` when unset, an error when malformed.
long number(const char* name, long fallback, long max, std::string& error) {
  const char* s = environment_value(name);
  if (!s || !*s) return fallback;
  char* end = nullptr;
  errno = 0;
  long v = std::strtol(s, &end, 10);
  if (errno || *end || v < 0 || v > max) {
    error = std::string(name) + "=" + s + ": expected a number from 0 to " + std::to_string(max);
    return fallback;
  }
  return v;
}

}  // namespace

Settings settings_from_environment() {
  Settings s;
  const char* out = environment_value("GOTRACE_RECORD_OUTPUT");
  s.output = out && *out ? out : std::string(program_invocation_short_name) + ".trace";
  s.options.cpu_profile_hz = int(number("GOTRACE_RECORD_CPU_HZ", 0, 10000, s.error));
  s.flight = int(number("GOTRACE_RECORD_FLIGHT", 0, 1000, s.error));
  s.options.flight_generations = size_t(s.flight);
  long period = number("GOTRACE_RECORD_PERIOD_MS", 1000, 3600 * 1000, s.error);
  s.options.generation_period = std::chrono::milliseconds(period < 1 ? 1 : period);
  s.options.stacks = number("GOTRACE_RECORD_STACKS", 1, 1, s.error) != 0;
  const char* go = environment_value("GOTRACE_RECORD_GO");
  if (go && *go && std::string(go) == "1.23") s.options.format = tracer::Format::go1_23;
  else if (go && *go && std::string(go) != "1.26") s.error = std::string("GOTRACE_RECORD_GO=") + go + ": expected 1.23 or 1.26";
  s.children = number("GOTRACE_RECORD_CHILDREN", 0, 1, s.error) != 0;
  s.quiet = number("GOTRACE_RECORD_QUIET", 0, 1, s.error) != 0;
  // A process the recorded program executed (with GOTRACE_RECORD_CHILDREN) writes beside
  // the program's trace.
  long root = number("GOTRACE_RECORD_ROOT", 0, 1L << 30, s.error);
  if (root && root != long(getpid())) s.output += "." + std::to_string(getpid());
  return s;
}

}  // namespace gotrace::record
