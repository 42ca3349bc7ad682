#include "gotrace/analysis/own_frame.h"

namespace gotrace::analysis {

bool is_machinery_function(std::string_view f) {
  for (std::string_view prefix : {"runtime.", "internal/", "sync.", "sync/atomic.", "iter.", "runtime/trace."}) {
    if (f.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

std::string_view own_frame_of_folded(std::string_view folded) {
  std::string_view leaf;
  for (size_t at = 0; at <= folded.size();) {
    size_t end = folded.find(';', at);
    if (end == std::string_view::npos) end = folded.size();
    const std::string_view f = folded.substr(at, end - at);
    if (at == 0) leaf = f;
    if (!is_machinery_function(f)) return f;
    at = end + 1;
  }
  return leaf;
}

}  // namespace gotrace::analysis
