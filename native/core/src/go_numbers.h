// Go's numeric conversions where C++ would be undefined: float64 -> int64 as amd64
// does it (out of range or NaN gives the "integer indefinite" value), and wrapping
// int64 arithmetic.
#pragma once

#include <cstdint>
#include <limits>

#include "gotrace/go_int.h"  // wrap_add, wrap_sub

namespace gotrace {

inline int64_t go_float_to_int64(double x) {
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(x);
}


}  // namespace gotrace
