// Writing a PprofProfile in pprof's format: profile.proto (github.com/google/pprof),
// gzipped, as Go's profile.Write does — the file `go tool pprof` opens.
#pragma once

#include <cstdint>
#include <vector>

#include "gotrace/analysis/pprof_profile.h"

namespace gotrace::analysis {

// The protobuf message, not compressed. Sample types are contentions/count and
// delay/nanoseconds; the period type is trace/count with period 1 (Go's BuildProfile).
std::vector<uint8_t> encode_pprof(const PprofProfile& profile);

// The gzipped message: the contents of a .pb.gz file.
std::vector<uint8_t> write_pprof(const PprofProfile& profile);

}  // namespace gotrace::analysis
