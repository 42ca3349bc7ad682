// The built-in sinks (sink.h).
#include "gotrace/tracer/sink.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "owned_fds.h"

namespace gotrace::tracer {

using detail::disown_fd;
using detail::lock_movable;
using detail::move_high;
using detail::own_fd;

namespace {

// While alive, a write to a pipe or socket whose reader is gone fails with EPIPE rather
// than raise SIGPIPE, which would kill the traced program: the signal is blocked on this
// thread, and one the write raised is taken off before it is let through again.
class NoSigpipe {
 public:
  NoSigpipe() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
  }
  ~NoSigpipe() {
    if (!was_pending_) {
      const timespec none = {};
      while (sigtimedwait(&pipe_, nullptr, &none) == SIGPIPE) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  NoSigpipe(const NoSigpipe&) = delete;
  NoSigpipe& operator=(const NoSigpipe&) = delete;

 private:
  sigset_t pipe_, old_;
  bool was_pending_ = false;
};

bool write_all(int fd, std::span<const uint8_t> bytes) {
  NoSigpipe no_sigpipe;
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes = bytes.subspan(size_t(n));
  }
  return true;
}

class FdSink : public Sink {
 public:
  explicit FdSink(int fd) : fd_(fd) {}
  bool write(std::span<const uint8_t> bytes) override { return write_all(fd_, bytes); }

 private:
  int fd_;
};

// Its descriptor may be moved by a program's dup2 onto its number (owned_fds.h): every
// use holds the lock that the move takes.
class FileSink : public Sink {
 public:
  FileSink(std::string path, int fd) : path_(std::move(path)), fd_(fd) {
    auto lock = lock_movable();
    own_fd(fd_, &fd_);
  }
  ~FileSink() override { close(); }
  bool write(std::span<const uint8_t> bytes) override {
    auto lock = lock_movable();
    if (fd_ < 0) return false;
    const bool ok = write_all(fd_, bytes);
    if (ok) written_ += bytes.size();
    return ok;
  }
  bool begin_segment() override {
    close();
    const int fd = move_high(::open((path_ + "." + std::to_string(++segment_)).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    auto lock = lock_movable();
    fd_ = fd;
    own_fd(fd_, &fd_);
    written_ = whole_ = 0;
    return fd_ >= 0;
  }
  void generation_written() override { whole_ = written_; }
  // (A part of a write may have reached the file: the file's end, not written_, is cut.)
  void discard_partial_generation() override {
    auto lock = lock_movable();
    if (fd_ >= 0 && ::ftruncate(fd_, off_t(whole_)) == 0) written_ = whole_;
  }
  void close() override {
    auto lock = lock_movable();
    if (fd_ < 0) return;
    disown_fd(fd_);
    ::close(fd_);
    fd_ = -1;
  }

 private:
  std::string path_;
  int fd_;  // (under lock_movable())
  int segment_ = 0;
  uint64_t written_ = 0;  // bytes written to the file
  uint64_t whole_ = 0;    // ... up to the end of the last whole generation
};

class CallbackSink : public Sink {
 public:
  explicit CallbackSink(std::function<bool(std::span<const uint8_t>)> fn) : fn_(std::move(fn)) {}
  bool write(std::span<const uint8_t> bytes) override { return fn_(bytes); }

 private:
  std::function<bool(std::span<const uint8_t>)> fn_;
};

class SharedSink : public Sink {
 public:
  explicit SharedSink(std::shared_ptr<Sink> s) : s_(std::move(s)) {}
  bool write(std::span<const uint8_t> bytes) override { return s_->write(bytes); }
  bool begin_segment() override { return s_->begin_segment(); }
  void generation_written() override { s_->generation_written(); }
  void discard_partial_generation() override { s_->discard_partial_generation(); }
  void close() override { s_->close(); }

 private:
  std::shared_ptr<Sink> s_;
};

}  // namespace

std::unique_ptr<Sink> shared_sink(std::shared_ptr<Sink> sink) { return std::make_unique<SharedSink>(std::move(sink)); }

std::unique_ptr<Sink> file_sink(const std::string& path, std::string* error) {
  int fd = move_high(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (fd < 0) {
    if (error) *error = path + ": " + std::strerror(errno);
    return nullptr;
  }
  return std::make_unique<FileSink>(path, fd);
}

std::unique_ptr<Sink> fd_sink(int fd) { return std::make_unique<FdSink>(fd); }

std::unique_ptr<Sink> callback_sink(std::function<bool(std::span<const uint8_t>)> fn) {
  return std::make_unique<CallbackSink>(std::move(fn));
}

bool MemorySink::write(std::span<const uint8_t> bytes) {
  std::lock_guard lock(mu_);
  segments_.back().insert(segments_.back().end(), bytes.begin(), bytes.end());
  return true;
}

bool MemorySink::begin_segment() {
  std::lock_guard lock(mu_);
  if (!allow_segments_) return false;
  segments_.emplace_back();
  return true;
}

size_t MemorySink::segments() const {
  std::lock_guard lock(mu_);
  return segments_.size();
}

std::vector<uint8_t> MemorySink::bytes(size_t segment) const {
  std::lock_guard lock(mu_);
  return segment < segments_.size() ? segments_[segment] : std::vector<uint8_t>();
}

}  // namespace gotrace::tracer
