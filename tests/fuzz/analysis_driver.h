// The analyses' fuzz driver (analysis_driver.cpp), shared by the libFuzzer target and the
// test that replays inputs it once failed on.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gotrace::fuzz {

// Reads the input (a first byte below 7 picks a trace header, the rest follows it) and
// runs every analysis and every kind of timeline query on what the reader accepts.
// Returns 0.
int run_every_analysis(const uint8_t* data, size_t size);

}  // namespace gotrace::fuzz
