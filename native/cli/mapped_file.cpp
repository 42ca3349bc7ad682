#include "mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "file_io.h"

namespace gotrace::cli {

MappedFile::MappedFile(const std::string& path) {
  if (path != "-") {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    struct stat st{};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      void* p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        ::madvise(p, static_cast<size_t>(st.st_size), MADV_SEQUENTIAL);
        data_ = static_cast<const uint8_t*>(p);
        size_ = static_cast<size_t>(st.st_size);
        mapped_ = true;
      }
    }
    ::close(fd);
    if (mapped_) return;
  }
  copy_ = read_file(path);
  data_ = copy_.data();
  size_ = copy_.size();
}

MappedFile::~MappedFile() {
  if (mapped_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

void MappedFile::release_before(uint64_t offset) {
  if (!mapped_) return;
  const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t end = std::min<uint64_t>(offset, size_) / page * page;
  if (end > 0) ::madvise(const_cast<uint8_t*>(data_), end, MADV_DONTNEED);
}

void release_read_bytes(MappedFile& file, const EventStore& store) {
  if (!store.generations.empty()) {
    const GenerationInfo& g = store.generations.back();
    file.release_before(g.file_offset + g.file_bytes);
  }
}

}  // namespace gotrace::cli
