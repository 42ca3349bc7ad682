// One generation's strings (Go's traceStringTable): each distinct string gets an id and is
// written once, into string batches, the first time it is used. Threads look strings up
// in a small cache of their own first (see thread_state.h), so this lock is rare.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "batch.h"

namespace gotrace::tracer::detail {

class BatchList;

inline constexpr size_t kMaxStringBytes = 1024;  // the reader's limit (FORMAT.md §2.4)

class StringTable {
 public:
  // The id of `s` (cut to kMaxStringBytes) in generation `gen`. *stored, if given, points
  // to the table's copy, valid until reset().
  uint64_t put(uint64_t gen, std::string_view s, const std::string** stored = nullptr);
  // A new id for `s`, never shared: for strings seldom repeated (Go's emit).
  uint64_t emit(uint64_t gen, std::string_view s);
  // Ends the generation: its last batch goes to `out`, and every string is forgotten.
  void finish(BatchList& out);

  // Where full batches go; set once.
  void set_output(BatchList* out) { out_ = out; }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  void write(uint64_t gen, uint64_t id, std::string_view s);

  std::mutex mu_;
  std::unordered_map<std::string, uint64_t, Hash, std::equal_to<>> ids_;
  uint64_t next_id_ = 1;
  Batch* batch_ = nullptr;
  BatchList* out_ = nullptr;
};

// Cuts `s` to the reader's limit; function and file names keep their end (as Go does).
inline std::string_view clip_string(std::string_view s, bool keep_end = false) {
  if (s.size() <= kMaxStringBytes) return s;
  return keep_end ? s.substr(s.size() - kMaxStringBytes) : s.substr(0, kMaxStringBytes);
}

}  // namespace gotrace::tracer::detail
