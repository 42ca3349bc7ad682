// Names given to goroutines (a plain thread's name, Goroutine("name")) become the function
// of a one-frame start stack. Each distinct name gets a synthetic PC, outside any user
// address, that the symbolizer turns back into the name.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <deque>

namespace gotrace::tracer::detail {

class LabelRegistry {
 public:
  static constexpr uint64_t kBase = 0xffff'f000'0000'0000ull;

  // The PC of `name`; *stored, if given, is the registry's copy (it never moves).
  uint64_t pc(std::string_view name, const std::string** stored = nullptr);
  static bool is_label(uint64_t pc) { return pc >= kBase; }
  std::string name(uint64_t pc);

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::mutex mu_;
  std::unordered_map<std::string, uint64_t, Hash, std::equal_to<>> pcs_;
  std::deque<std::string> names_;  // (a deque: the copies never move)
};

}  // namespace gotrace::tracer::detail
