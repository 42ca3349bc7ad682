// Interned strings, stack frames and stacks shared by every generation of a trace.
// Ids are dense and stable; 0 means "" / no frame / no stack.
#pragma once

#include <cstdint>
#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gotrace/column.h"
#include "gotrace/flat_map.h"

namespace gotrace {

using StringID = uint32_t;
using FrameID = uint32_t;
using StackID = uint32_t;

class StringTable {
 public:
  StringTable();
  // Copies share blocks and must not append to the same one: copy_of, not a copy.
  StringTable(const StringTable&) = delete;
  StringTable& operator=(const StringTable&) = delete;
  // A moved-from table stays usable: empty, or the one moved into had.
  StringTable(StringTable&& o) noexcept : StringTable() { swap(o); }
  StringTable& operator=(StringTable&& o) noexcept {
    swap(o);
    return *this;
  }
  void swap(StringTable& o) noexcept;
  // A table with o's strings under o's ids. It shares o's bytes (strings are never
  // changed once stored) and, until either adds a string, o's lookup: a read of o's
  // trace again (its parts, a second pass) finds every string there and costs nothing.
  static StringTable copy_of(const StringTable& o);
  StringID intern(std::string_view s);
  std::string_view get(StringID id) const {
    const View& v = lookup_->views[id];
    return {v.data, v.len};
  }
  size_t size() const { return lookup_->views.size(); }  // including the empty string at 0
  // Forgets the strings from id `size` on (a read taken back; their bytes stay reserved).
  void truncate(size_t size);
  size_t bytes_reserved() const;

 private:
  struct View {
    const char* data;
    uint32_t len;
  };
  // Where each id's bytes lie, and the ids by hash.
  struct Lookup {
    std::vector<View> views;
    IdIndex index;
  };
  const char* store(std::string_view s);

  std::shared_ptr<Lookup> lookup_;  // shared with copies until one adds a string
  std::vector<std::shared_ptr<char[]>> blocks_;  // 64 KiB bump blocks
  std::vector<std::shared_ptr<char[]>> large_;   // one per string over 16 KiB
  size_t block_used_ = 0, large_bytes_ = 0;
};

struct Frame {
  uint64_t pc = 0;
  StringID func = 0;
  StringID file = 0;
  uint64_t line = 0;
  bool operator==(const Frame&) const = default;
};

class StackTable {
 public:
  StackTable();
  // A table with o's frames and stacks under o's ids.
  static StackTable copy_of(const StackTable& o) { return o; }
  FrameID intern_frame(const Frame& f);
  StackID intern(std::span<const FrameID> frames);  // an empty stack still gets an id
  const Frame& frame(FrameID id) const { return frames_[id]; }
  std::span<const FrameID> frames(StackID id) const {
    return {frame_ids_.data() + offsets_[id], offsets_[id + 1] - offsets_[id]};
  }
  size_t size() const { return offsets_.size() - 1; }  // including "no stack" at 0
  size_t frame_count() const { return frames_.size(); }
  // Forgets the stacks from id `size` on and the frames from id `frame_count` on (a read
  // taken back).
  void truncate(size_t size, size_t frame_count);
  size_t bytes_reserved() const;

 private:
  std::vector<Frame> frames_;
  IdIndex frame_index_;
  std::vector<FrameID> frame_ids_;
  std::vector<uint32_t> offsets_;
  IdIndex stack_index_;
};

}  // namespace gotrace
