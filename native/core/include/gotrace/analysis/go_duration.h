// Durations as Go writes and reads them: the window labels of the MMU references
// ("1µs", "100ms") and the --window option of the CLI.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gotrace::analysis {

// Go's time.Duration.String: "0s", "640ns", "1µs", "1.5ms", "10s", "2m0s", "1h0m0.5s".
std::string go_duration_string(int64_t ns);

// Go's time.ParseDuration: an optional sign, then numbers (decimals allowed) each with a
// unit ns, us, µs (or μs), ms, s, m, h, e.g. "100us", "1.5ms", "1m30s". nullopt if
// malformed or out of range.
std::optional<int64_t> parse_go_duration(std::string_view text);

}  // namespace gotrace::analysis
