// PCs to function, file and line, done when a generation ends (never on a traced thread's
// fast path). With libbacktrace (GCC's, from libgcc-dev) it reads DWARF and expands
// inlined calls; for code without debug info it falls back to the ELF symbol tables and
// the module's path (without libbacktrace, to dladdr's exported symbols).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace gotrace::tracer::detail {

// Every frame has all four fields: see complete() in the .cpp.
struct SymbolFrame {
  uint64_t pc = 0;  // unique per frame: inlined frames get synthetic PCs (see .cpp)
  std::string func;
  std::string file;
  uint64_t line = 0;
};

class LabelRegistry;

// The file of a label's frame (the frame that names a goroutine): it has no source.
inline constexpr const char* kLabelFile = "[label]";

class Symbolizer {
 public:
  explicit Symbolizer(LabelRegistry& labels) : labels_(labels) {}
  // The frames at `pc`, innermost (inlined) first. `pc` is a call site (a return address
  // minus one), an exact PC (a CPU sample's leaf) or a label's PC.
  const std::vector<SymbolFrame>& frames(uint64_t pc);
  // Loads the debug information in the background, once per process: the first lookup
  // can take a while (libbacktrace reads every module's symbols, decompressing some),
  // and it should not stall the end of the first generation.
  void warm_up();

 private:
  std::vector<SymbolFrame> resolve(uint64_t pc);

  LabelRegistry& labels_;
  std::mutex mu_;
  std::unordered_map<uint64_t, std::vector<SymbolFrame>> cache_;
  void* state_ = nullptr;  // libbacktrace's state, created on first use
  bool state_tried_ = false;
  std::once_flag warm_up_;
};

}  // namespace gotrace::tracer::detail
