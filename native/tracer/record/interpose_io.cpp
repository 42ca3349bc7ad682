// Blocking system calls on file descriptors. A call that moves data or a connection
// (read, write, recv, send, accept, connect, ...) is a system call in the trace, as Go
// traces a blocking call its runtime cannot poll: the thread is in the kernel, whether
// it waits there or not, and only a second system call could tell beforehand. A call
// that only waits for descriptors to become ready (poll, select, epoll) is a block with
// the reason of Go's network waits ("network"); one with no descriptors is a sleep, and
// one with a zero timeout is a check, not recorded.
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "interpose.h"

using namespace gotrace::record;
using gotrace::tracer::BlockReason;

// The fortified variants that programs built with _FORTIFY_SOURCE call instead.
extern "C" {
ssize_t __read_chk(int fd, void* buf, size_t n, size_t buflen);
ssize_t __pread_chk(int fd, void* buf, size_t n, off_t offset, size_t buflen);
ssize_t __pread64_chk(int fd, void* buf, size_t n, off64_t offset, size_t buflen);
ssize_t __recv_chk(int fd, void* buf, size_t n, size_t buflen, int flags);
ssize_t __recvfrom_chk(int fd, void* buf, size_t n, size_t buflen, int flags, struct sockaddr* from,
                       socklen_t* fromlen);
int __poll_chk(struct pollfd* fds, nfds_t nfds, int timeout, size_t fdslen);
int __ppoll_chk(struct pollfd* fds, nfds_t nfds, const struct timespec* timeout, const sigset_t* mask,
                size_t fdslen);
}

// A system call, recorded.
#define SYSCALL(name, params, args)       \
  GOTRACE_INTERPOSE auto name params {    \
    auto call = GOTRACE_REAL(name);       \
    if (!recording()) return call args;   \
    SyscallRecord s;                      \
    return call args;                     \
  }

// A wait for readiness, recorded as a block with `reason` unless `check` (no wait).
#define WAIT(name, params, args, check, reason) \
  GOTRACE_INTERPOSE auto name params {          \
    auto call = GOTRACE_REAL(name);             \
    if (!recording() || (check)) return call args; \
    BlockRecord b(reason);                      \
    return call args;                           \
  }

SYSCALL(read, (int fd, void* buf, size_t n)->ssize_t, (fd, buf, n))
SYSCALL(write, (int fd, const void* buf, size_t n)->ssize_t, (fd, buf, n))
SYSCALL(readv, (int fd, const struct iovec* iov, int n)->ssize_t, (fd, iov, n))
SYSCALL(writev, (int fd, const struct iovec* iov, int n)->ssize_t, (fd, iov, n))
SYSCALL(pread, (int fd, void* buf, size_t n, off_t offset)->ssize_t, (fd, buf, n, offset))
SYSCALL(pwrite, (int fd, const void* buf, size_t n, off_t offset)->ssize_t, (fd, buf, n, offset))
SYSCALL(pread64, (int fd, void* buf, size_t n, off64_t offset)->ssize_t, (fd, buf, n, offset))
SYSCALL(pwrite64, (int fd, const void* buf, size_t n, off64_t offset)->ssize_t, (fd, buf, n, offset))
SYSCALL(recv, (int fd, void* buf, size_t n, int flags)->ssize_t, (fd, buf, n, flags))
SYSCALL(recvfrom, (int fd, void* buf, size_t n, int flags, struct sockaddr* from, socklen_t* fromlen)->ssize_t,
        (fd, buf, n, flags, from, fromlen))
SYSCALL(recvmsg, (int fd, struct msghdr* msg, int flags)->ssize_t, (fd, msg, flags))
SYSCALL(send, (int fd, const void* buf, size_t n, int flags)->ssize_t, (fd, buf, n, flags))
SYSCALL(sendto, (int fd, const void* buf, size_t n, int flags, const struct sockaddr* to, socklen_t tolen)->ssize_t,
        (fd, buf, n, flags, to, tolen))
SYSCALL(sendmsg, (int fd, const struct msghdr* msg, int flags)->ssize_t, (fd, msg, flags))
SYSCALL(accept, (int fd, struct sockaddr* addr, socklen_t* len)->int, (fd, addr, len))
SYSCALL(accept4, (int fd, struct sockaddr* addr, socklen_t* len, int flags)->int, (fd, addr, len, flags))
SYSCALL(connect, (int fd, const struct sockaddr* addr, socklen_t len)->int, (fd, addr, len))
SYSCALL(fsync, (int fd)->int, (fd))
SYSCALL(fdatasync, (int fd)->int, (fd))
// Waiting for a child process: Go's os.Process.Wait is a system call too.
SYSCALL(wait, (int* status)->pid_t, (status))
SYSCALL(waitpid, (pid_t pid, int* status, int options)->pid_t, (pid, status, options))
SYSCALL(waitid, (idtype_t type, id_t id, siginfo_t* info, int options)->int, (type, id, info, options))
SYSCALL(wait4, (pid_t pid, int* status, int options, struct rusage* usage)->pid_t, (pid, status, options, usage))
SYSCALL(__read_chk, (int fd, void* buf, size_t n, size_t buflen)->ssize_t, (fd, buf, n, buflen))
SYSCALL(__pread_chk, (int fd, void* buf, size_t n, off_t offset, size_t buflen)->ssize_t, (fd, buf, n, offset, buflen))
SYSCALL(__pread64_chk, (int fd, void* buf, size_t n, off64_t offset, size_t buflen)->ssize_t,
        (fd, buf, n, offset, buflen))
SYSCALL(__recv_chk, (int fd, void* buf, size_t n, size_t buflen, int flags)->ssize_t, (fd, buf, n, buflen, flags))
SYSCALL(__recvfrom_chk,
        (int fd, void* buf, size_t n, size_t buflen, int flags, struct sockaddr* from, socklen_t* fromlen)->ssize_t,
        (fd, buf, n, buflen, flags, from, fromlen))

namespace {
bool zero(const struct timespec* t) { return t && t->tv_sec == 0 && t->tv_nsec == 0; }
bool zero(const struct timeval* t) { return t && t->tv_sec == 0 && t->tv_usec == 0; }
}  // namespace

#define POLL_REASON(nfds) ((nfds) == 0 ? BlockReason::Sleep : BlockReason::Network)

WAIT(poll, (struct pollfd * fds, nfds_t n, int timeout)->int, (fds, n, timeout), timeout == 0, POLL_REASON(n))
WAIT(__poll_chk, (struct pollfd * fds, nfds_t n, int timeout, size_t fdslen)->int, (fds, n, timeout, fdslen),
     timeout == 0, POLL_REASON(n))
WAIT(ppoll, (struct pollfd * fds, nfds_t n, const struct timespec* timeout, const sigset_t* mask)->int,
     (fds, n, timeout, mask), zero(timeout), POLL_REASON(n))
WAIT(__ppoll_chk,
     (struct pollfd * fds, nfds_t n, const struct timespec* timeout, const sigset_t* mask, size_t fdslen)->int,
     (fds, n, timeout, mask, fdslen), zero(timeout), POLL_REASON(n))
WAIT(select, (int n, fd_set* r, fd_set* w, fd_set* e, struct timeval* timeout)->int, (n, r, w, e, timeout),
     zero(timeout), POLL_REASON(n))
WAIT(pselect, (int n, fd_set* r, fd_set* w, fd_set* e, const struct timespec* timeout, const sigset_t* mask)->int,
     (n, r, w, e, timeout, mask), zero(timeout), POLL_REASON(n))
WAIT(epoll_wait, (int fd, struct epoll_event* events, int max, int timeout)->int, (fd, events, max, timeout),
     timeout == 0, BlockReason::Network)
WAIT(epoll_pwait, (int fd, struct epoll_event* events, int max, int timeout, const sigset_t* mask)->int,
     (fd, events, max, timeout, mask), timeout == 0, BlockReason::Network)
