// Go's int64 arithmetic, which wraps where C++'s overflows (undefined behaviour). Sums of
// durations over a hostile trace (times near 2^63, many goroutines) overflow in Go too;
// these give Go's numbers without the undefined behaviour.
#pragma once

#include <cstdint>

namespace gotrace {

inline int64_t wrap_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

inline int64_t wrap_sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}

}  // namespace gotrace
