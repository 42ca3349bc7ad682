// libFuzzer target: every analysis on whatever the reader accepts (analysis_driver.cpp).
#include "analysis_driver.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gotrace::fuzz::run_every_analysis(data, size);
}
