// Counts the bytes this test program holds on the heap, so tests can bound what the
// reader allocates for a given input (operator new/delete are replaced in the .cpp).
#pragma once

#include <cstddef>

namespace gotrace::test {

struct AllocationMeter {
  AllocationMeter();             // starts measuring from the current level
  size_t peak_above_start() const;  // the highest level reached since, minus the start
};

}  // namespace gotrace::test
