#include "output.h"

#include <cmath>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "gotrace/analysis/go_duration.h"

namespace gotrace::cli {

std::string human_duration(int64_t ns) {
  int64_t unit = 1;
  for (int64_t a = ns < 0 ? -ns : ns; a >= 10'000; a /= 10) unit *= 10;
  return analysis::go_duration_string((ns + (ns < 0 ? -unit : unit) / 2) / unit * unit);
}

int64_t parse_whole(const std::string& name, const std::string& v) {
  try {
    size_t used = 0;
    long long n = std::stoll(v, &used);
    if (used == v.size()) return n;
  } catch (const std::exception&) {
  }
  throw std::runtime_error("--" + name + " wants a whole number, not '" + v + "'");
}

int64_t parse_bounded(const std::string& name, const std::string& v, int64_t min, int64_t max) {
  int64_t n = 0;
  try {
    n = parse_whole(name, v);
  } catch (const std::runtime_error&) {
    throw std::runtime_error("--" + name + " wants a whole number from " + std::to_string(min) + " to " +
                             std::to_string(max) + ", not '" + v + "'");
  }
  if (n < min || n > max)
    throw std::runtime_error("--" + name + " wants a whole number from " + std::to_string(min) + " to " +
                             std::to_string(max) + ", not " + v);
  return n;
}

double parse_number(const std::string& name, const std::string& v) {
  try {
    size_t used = 0;
    const double d = std::stod(v, &used);
    if (used == v.size() && std::isfinite(d)) return d;
  } catch (const std::exception&) {
  }
  throw std::runtime_error("--" + name + " wants a number, not '" + v + "'");
}

uint64_t parse_pc(const std::string& name, const std::string& v) {
  const bool hex = v.rfind("0x", 0) == 0 || v.rfind("0X", 0) == 0;
  const std::string digits = hex ? v.substr(2) : v;
  try {
    size_t used = 0;
    const uint64_t pc = std::stoull(digits, &used, hex ? 16 : 10);
    if (used == digits.size() && !digits.empty() && digits[0] != '-' && digits[0] != '+') return pc;
  } catch (const std::exception&) {
  }
  throw std::runtime_error("--" + name + " wants a pc (0x... as `gotrace regions` prints it), not '" + v + "'");
}

void print_json(const std::function<void(JsonWriter&)>& write) {
  // Written as it is made: a trace of millions of goroutines is gigabytes of JSON.
  std::string out;
  auto write_out = [](std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); };
  JsonWriter w(out, true, write_out);
  write(w);
  out += '\n';
  write_out(out);
}

int finish(const ReadResult& r) {
  std::fflush(stdout);
  if (r.ok()) return 0;
  std::fprintf(stderr, "%s\n", r.error->what());
  return 1;
}

}  // namespace gotrace::cli
