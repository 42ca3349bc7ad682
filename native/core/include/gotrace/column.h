// A growable array stored in fixed-size chunks: appending never copies what is
// already there, and the slack is at most one chunk. Random access costs a shift.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gotrace {

// An array whose elements are default-initialized (left uninitialized when trivial):
// std::make_unique_for_overwrite, which Emscripten's libc++ lacks.
template <class T>
std::unique_ptr<T[]> make_uninitialized_array(size_t n) {
  return std::unique_ptr<T[]>(new T[n]);
}

template <class T, unsigned kShift = 16>
class Column {
 public:
  static constexpr size_t kChunk = size_t{1} << kShift;
  static constexpr size_t kMask = kChunk - 1;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  void push_back(const T& v) {
    if ((size_ & kMask) == 0 && (size_ >> kShift) == chunks_.size()) {
      chunks_.push_back(make_uninitialized_array<T>(kChunk));
    }
    chunks_[size_ >> kShift][size_ & kMask] = v;
    size_++;
  }

  T& operator[](size_t i) { return chunks_[i >> kShift][i & kMask]; }
  const T& operator[](size_t i) const { return chunks_[i >> kShift][i & kMask]; }
  T& back() { return (*this)[size_ - 1]; }

  // Drops elements past n (keeps the chunks for reuse).
  void truncate(size_t n) {
    if (n < size_) size_ = n;
  }
  void clear() {
    chunks_.clear();
    size_ = 0;
  }

  size_t bytes_reserved() const { return chunks_.size() * kChunk * sizeof(T); }

  // The contiguous run that holds element i, and how many elements follow it in the run.
  const T* run(size_t i, size_t& count) const {
    size_t left = kChunk - (i & kMask);
    count = size_ - i < left ? size_ - i : left;
    return &chunks_[i >> kShift][i & kMask];
  }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  size_t size_ = 0;
};

}  // namespace gotrace
