// Two independent pieces of work at once, on two cores: `beside` on a thread of its own,
// `here` on the caller's. Returns when both are done; an exception from either is thrown
// then (`here`'s first), never left to end the process from a thread.
#pragma once

#include <exception>
#include <thread>

namespace gotrace::cli {

template <class Beside, class Here>
void both_at_once(Beside&& beside, Here&& here) {
  std::exception_ptr beside_failed;
  std::thread other([&] {
    try {
      beside();
    } catch (...) {
      beside_failed = std::current_exception();
    }
  });
  try {
    here();
  } catch (...) {
    other.join();
    throw;
  }
  other.join();
  if (beside_failed) std::rethrow_exception(beside_failed);
}

}  // namespace gotrace::cli
