// A vector that keeps its first N elements inside itself and moves to the heap only
// past them. The summaries hold millions of short lists (a goroutine's block reasons,
// a task's one log and one goroutine): as std::vectors each was an allocation.
// Elements are trivially copyable (ids, times, StatEntry), so growing and copying are
// memcpy.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <span>
#include <type_traits>

namespace gotrace {

template <class T, uint32_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  static_assert(N >= 1);

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() noexcept {}
  SmallVector(std::initializer_list<T> items) { assign(items.begin(), items.size()); }
  SmallVector(const SmallVector& o) { assign(o.data(), o.size_); }
  SmallVector(SmallVector&& o) noexcept { take(o); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) {
      size_ = 0;
      assign(o.data(), o.size_);
    }
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~SmallVector() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T* data() { return on_heap() ? u_.heap : u_.items; }
  const T* data() const { return on_heap() ? u_.heap : u_.items; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }
  operator std::span<const T>() const { return {data(), size_}; }

  void push_back(const T& v) {
    if (size_ == capacity_) {
      const T copy = v;  // v may be an element of this vector
      grow(uint64_t{capacity_} * 2);  // in 64 bits: grow() refuses a size that overflows
      ::new (static_cast<void*>(data() + size_)) T(copy);
    } else {
      ::new (static_cast<void*>(data() + size_)) T(v);
    }
    size_++;
  }
  void pop_back() { size_--; }
  void clear() { size_ = 0; }
  void reserve(size_t n) {
    if (n > capacity_) grow(n);
  }
  // Shrinks, or grows with value-initialized elements.
  void resize(size_t n) {
    reserve(n);
    for (size_t i = size_; i < n; i++) ::new (static_cast<void*>(data() + i)) T();
    size_ = static_cast<uint32_t>(n);
  }
  // Removes [first, last); returns where the elements after them now are.
  T* erase(T* first, T* last) {
    std::memmove(static_cast<void*>(first), last, static_cast<size_t>(end() - last) * sizeof(T));
    size_ -= static_cast<uint32_t>(last - first);
    return first;
  }
  T* erase(T* at) { return erase(at, at + 1); }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  bool on_heap() const { return capacity_ > N; }
  void grow(uint64_t n) {
    if (n > UINT32_MAX || n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    T* fresh = static_cast<T*>(::operator new(n * sizeof(T)));
    std::memcpy(static_cast<void*>(fresh), data(), size_ * sizeof(T));
    release();
    u_.heap = fresh;
    capacity_ = static_cast<uint32_t>(n);
  }
  void assign(const T* from, size_t n) {
    reserve(n);
    std::memcpy(static_cast<void*>(data()), from, n * sizeof(T));
    size_ = static_cast<uint32_t>(n);
  }
  // Takes o's elements (its heap block, or a copy of its inline ones: the whole storage,
  // a copy of fixed size, without a branch); o is left empty.
  void take(SmallVector& o) noexcept {
    std::memcpy(static_cast<void*>(&u_), &o.u_, sizeof(u_));
    capacity_ = o.capacity_;
    size_ = o.size_;
    o.capacity_ = N;
    o.size_ = 0;
  }
  void release() noexcept {
    if (on_heap()) ::operator delete(u_.heap);
    capacity_ = N;
  }

  union Storage {
    Storage() noexcept {}
    T items[N];
    T* heap;
  } u_;
  uint32_t size_ = 0;
  uint32_t capacity_ = N;  // more than N: the elements are on the heap
};

}  // namespace gotrace
