// One generation's stacks (Go's traceStackTable): each distinct list of PCs gets an id.
// The PCs are symbolized only when the generation ends, off the traced threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gotrace::tracer::detail {

inline constexpr int kMaxStackFrames = 128;  // the reader's limit (FORMAT.md §2.4)

// The hash of a list of PCs, one PC at a time (stack capture hashes as it unwinds).
struct PcHash {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  void add(uint64_t pc) { h = (h ^ pc) * 0xff51afd7ed558ccdull; }
  uint64_t finish(size_t n) const {
    uint64_t x = (h ^ n) * 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 29);
  }
};

inline uint64_t hash_pcs(std::span<const uint64_t> pcs) {
  PcHash h;
  for (uint64_t pc : pcs) h.add(pc);
  return h.finish(pcs.size());
}

class StackTable {
 public:
  // The id of the stack `pcs` (leaf first, at most kMaxStackFrames), whose hash_pcs is
  // `hash`.
  uint64_t put(std::span<const uint64_t> pcs, uint64_t hash);
  // Ends the generation: every stack, by id, and the table is empty again.
  std::vector<std::pair<uint64_t, std::vector<uint64_t>>> take();

 private:
  struct Key {
    std::vector<uint64_t> pcs;
    uint64_t hash;
  };
  struct View {
    std::span<const uint64_t> pcs;
    uint64_t hash;
  };
  struct Hash {
    using is_transparent = void;
    size_t operator()(const Key& k) const { return k.hash; }
    size_t operator()(const View& v) const { return v.hash; }
  };
  struct Eq {
    using is_transparent = void;
    static bool same(std::span<const uint64_t> a, std::span<const uint64_t> b) {
      return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
    }
    bool operator()(const Key& a, const Key& b) const { return same(a.pcs, b.pcs); }
    bool operator()(const Key& a, const View& b) const { return same(a.pcs, b.pcs); }
    bool operator()(const View& a, const Key& b) const { return same(a.pcs, b.pcs); }
  };

  std::mutex mu_;
  std::unordered_map<Key, uint64_t, Hash, Eq> ids_;
  uint64_t next_id_ = 1;
};

}  // namespace gotrace::tracer::detail
