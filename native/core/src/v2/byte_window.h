// A v2 trace's bytes as the generation reader needs them: a span already in memory, or
// a TraceSource read a piece at a time into a window that holds about the generation
// being read (and what was read ahead of it), whatever the trace's size.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "gotrace/error.h"
#include "gotrace/reader.h"

namespace gotrace::v2 {

// The source could not give the bytes: not a problem of the trace, so never taken for
// one that cuts it short (which the generation after a complete one may be).
struct SourceReadError : TraceError {
  using TraceError::TraceError;
};

class ByteWindow {
 public:
  // The bytes in memory: pointers into them, nothing copied.
  explicit ByteWindow(std::span<const uint8_t> whole) : whole_(whole), size_(whole.size()) {}
  // Read from `source` as needed.
  explicit ByteWindow(const TraceSource& source) : source_(&source), size_(source.size) {}
  // Ends at `end` instead (generations read again: the bytes up to their last).
  void end_at(uint64_t end) {
    size_ = std::min(size_, end);
    if (!source_) whole_ = whole_.first(static_cast<size_t>(size_));
  }

  uint64_t size() const { return size_; }
  // Whether the bytes are all in memory (fetch() then only points into them).
  bool in_memory() const { return source_ == nullptr; }
  // Where the next bytes read from the source begin (what is past the window).
  uint64_t read_end() const { return source_ ? begin_ + buffer_.size() : size_; }

  // The bytes [offset, offset + n), cut at the trace's end (offset must not be before
  // what was dropped). The pointer stays valid until the next fetch() that must read
  // more, or drop_before(); then at() finds the bytes again.
  std::span<const uint8_t> fetch(uint64_t offset, size_t n) {
    if (offset > size_) offset = size_;
    n = static_cast<size_t>(std::min<uint64_t>(n, size_ - offset));
    if (!source_) return whole_.subspan(static_cast<size_t>(offset), n);
    if (offset < begin_) throw std::logic_error("trace bytes read again after they were dropped");
    const uint64_t end = begin_ + buffer_.size();
    if (offset + n > end) grow(offset + n - end);
    return {buffer_.data() + (offset - begin_), n};
  }
  // Byte `offset`, fetched before.
  const uint8_t* at(uint64_t offset) const {
    return source_ ? buffer_.data() + (offset - begin_) : whole_.data() + offset;
  }
  // The bytes before `offset` are not needed again (those up to it are not read if they
  // were not yet).
  void drop_before(uint64_t offset) {
    if (!source_ || offset <= begin_) return;
    if (offset >= begin_ + buffer_.size()) {
      buffer_.clear();
      begin_ = std::min(offset, size_);
      return;
    }
    const uint64_t k = offset - begin_;
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<ptrdiff_t>(k));
    begin_ += k;
  }

 private:
  void grow(uint64_t need) {
    const uint64_t end = begin_ + buffer_.size();
    const auto n = static_cast<size_t>(std::min(std::max<uint64_t>(need, source_->read_ahead), size_ - end));
    const size_t at = buffer_.size();
    buffer_.resize(at + n);
    if (!source_->read(end, n, buffer_.data() + at)) {
      buffer_.resize(at);
      throw SourceReadError("cannot read the trace's bytes at offset " + std::to_string(end), ErrorLocation{end, {}, {}, {}, {}});
    }
  }

  std::span<const uint8_t> whole_;
  const TraceSource* source_ = nullptr;
  uint64_t size_ = 0;
  uint64_t begin_ = 0;            // the offset of buffer_[0]
  std::vector<uint8_t> buffer_;   // bytes [begin_, begin_ + size())
};

}  // namespace gotrace::v2
