// A program that knows nothing of gotrace, for gotrace-record's tests: named threads that
// wait in each way the recorder records, for known lengths of time.
//   record-program            the waits below (what test_record.cpp expects)
//   record-program flight F   works a while, raising SIGUSR2 twice and waiting for the
//                             flight recordings F.1 and F.2
//   record-program fork       forks a child that locks, sleeps and exits (untraced)
//   record-program exec       runs itself as a child process ("record-program child")
//   record-program child      a short run of waits
//   record-program terminate  waits, then raises SIGTERM (default action: termination)
//   record-program _exit      waits, then ends with _exit (no exit handlers)
//   record-program become    executes itself as "record-program child" in its place
//   record-program exec-missing  fails to execute a missing program, then does "child"
//   record-program close-all F  closes every descriptor past standard error (close,
//                             closefrom, close_range) as daemons do, then writes lines
//                             to F while it works: fails (5) if F holds anything else
//   record-program dup-onto T F  puts a file of its own (F) at the number of the trace
//                             file T, with dup2, then again with dup3 where it moved, and
//                             writes lines through it while it works: fails (5) if F
//                             holds anything else, (6) if T is not open, (7) if the call
//                             fails
//   record-program sigprof-cleanup  takes SIGPROF to clean up and re-raise it with its
//                             default action (as coreutils' sort does), then works
//   record-program sigprof-own      profiles itself with ITIMER_PROF and a SIGPROF
//                             handler: fails (3) if its handler saw no tick, (4) if
//                             sigaction does not give back what it set
//   record-program sigprof-default  works, then raises SIGPROF with its default action
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

using namespace std::chrono_literals;

namespace {

void name_thread(const char* name) { pthread_setname_np(pthread_self(), name); }

// Waits until `flag` is set by the thread about to wait, then a little more, so that the
// other thread is inside its call.
void await(const std::atomic<bool>& flag) {
  while (!flag.load()) std::this_thread::yield();
  std::this_thread::sleep_for(2ms);
}

// The locker blocks on a mutex the main thread holds for 60 ms.
void contended_mutex() {
  std::mutex m;
  std::atomic<bool> locking{false};
  m.lock();
  std::thread locker([&] {
    name_thread("locker");
    locking = true;
    m.lock();
    m.unlock();
  });
  await(locking);
  std::this_thread::sleep_for(60ms);
  m.unlock();
  locker.join();
}

// The waiter waits on a condition variable the main thread signals after 50 ms.
void condition_variable() {
  std::mutex m;
  std::condition_variable cv;
  bool waiting = false, ready = false;
  std::thread waiter([&] {
    name_thread("waiter");
    std::unique_lock lock(m);
    waiting = true;
    cv.wait(lock, [&] { return ready; });
  });
  for (;;) {
    std::unique_lock lock(m);
    if (waiting) break;  // (the waiter released the lock inside its wait)
    lock.unlock();
    std::this_thread::sleep_for(1ms);
  }
  std::this_thread::sleep_for(50ms);
  {
    std::lock_guard lock(m);
    ready = true;
  }
  cv.notify_one();
  waiter.join();
}

// The reader reads a pipe the main thread writes after 40 ms, then polls another that
// the main thread writes after 30 ms.
void pipes() {
  int data[2], ready[2];
  if (pipe(data) != 0 || pipe(ready) != 0) std::abort();
  std::atomic<bool> reading{false}, polling{false};
  std::thread reader([&] {
    name_thread("reader");
    char c;
    reading = true;
    if (read(data[0], &c, 1) != 1) std::abort();
    pollfd p = {ready[0], POLLIN, 0};
    polling = true;
    if (poll(&p, 1, -1) != 1) std::abort();
    if (read(ready[0], &c, 1) != 1) std::abort();
  });
  await(reading);
  std::this_thread::sleep_for(40ms);
  if (write(data[1], "x", 1) != 1) std::abort();
  await(polling);
  std::this_thread::sleep_for(30ms);
  if (write(ready[1], "y", 1) != 1) std::abort();
  reader.join();
  for (int fd : {data[0], data[1], ready[0], ready[1]}) close(fd);
}

// The sleeper sleeps three ways, 20 ms each.
void sleeps() {
  std::thread sleeper([] {
    name_thread("sleeper");
    usleep(20000);
    timespec t = {0, 20'000'000};
    nanosleep(&t, nullptr);
    std::this_thread::sleep_for(20ms);
  });
  sleeper.join();
}

// The main thread joins a thread that runs 50 ms more.
void join_late() {
  std::thread late([] {
    name_thread("late");
    std::this_thread::sleep_for(50ms);
  });
  late.join();
}

void run_waits() {
  contended_mutex();
  condition_variable();
  pipes();
  sleeps();
  join_late();
}

// The number at which this process has `path` open (-1: none).
int fd_of(const char* path) {
  char want[PATH_MAX];
  if (!realpath(path, want)) return -1;
  DIR* d = opendir("/proc/self/fd");
  if (!d) return -1;
  int found = -1;
  while (dirent* e = readdir(d)) {
    const int fd = std::atoi(e->d_name);
    char link[PATH_MAX];
    const std::string name = std::string("/proc/self/fd/") + e->d_name;
    const ssize_t n = readlink(name.c_str(), link, sizeof link - 1);
    if (fd < 3 || fd == dirfd(d) || n <= 0) continue;
    link[n] = '\0';
    if (!std::strcmp(link, want)) found = fd;
  }
  closedir(d);
  return found;
}

// Whether the file at `path` holds `lines` copies of `line` and nothing else.
bool holds_only(const char* path, const char* line, int lines) {
  std::string expected, got(4096, '\0');
  for (int i = 0; i < lines; i++) expected += line;
  const int f = open(path, O_RDONLY);
  got.resize(size_t(std::max<ssize_t>(0, read(f, got.data(), got.size()))));
  close(f);
  return got == expected;
}

// Two threads that take a shared lock and sleep, for `d` and five times at least (a
// busy machine may start them late).
void busy(std::chrono::milliseconds d) {
  std::mutex m;
  auto until = std::chrono::steady_clock::now() + d;
  auto work = [&] {
    for (int i = 0; i < 5 || std::chrono::steady_clock::now() < until; i++) {
      std::lock_guard lock(m);
      std::this_thread::sleep_for(1ms);
    }
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
}

constexpr char kLine[] = "a line of the program's own\n";

// Writes kLine `n` times to fd while it works (generations pass meanwhile: 20 ms each).
bool write_lines(int fd, int n) {
  for (int i = 0; i < n; i++) {
    if (write(fd, kLine, sizeof kLine - 1) != ssize_t(sizeof kLine - 1)) {
      std::perror("write");
      return false;
    }
    busy(5ms);
  }
  return true;
}

// Two threads that use `d` of CPU time each.
void spin(std::chrono::milliseconds d) {
  auto work = [d] {
    timespec start = {}, now = {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    volatile uint64_t x = 0;
    do {
      for (int i = 0; i < 100000; i++) x = x + i;
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < d.count() * 1000000L);
  };
  std::thread other(work);
  work();
  other.join();
}

void cleanup_and_reraise(int sig) {
  signal(sig, SIG_DFL);
  raise(sig);
}

std::atomic<int> g_ticks{0};
void count_tick(int) { g_ticks++; }

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "waits";
  if (!std::strcmp(mode, "waits")) {
    run_waits();
  } else if (!std::strcmp(mode, "child")) {
    sleeps();
    busy(20ms);
  } else if (!std::strcmp(mode, "flight") && argc > 2) {
    for (int i = 1; i <= 2; i++) {
      busy(100ms);
      raise(SIGUSR2);
      // Until the recording is there (the recorder writes it on a thread of its own).
      std::string recording = std::string(argv[2]) + "." + std::to_string(i);
      for (int wait = 0; wait < 3000 && access(recording.c_str(), F_OK) != 0; wait++)
        std::this_thread::sleep_for(10ms);
    }
  } else if (!std::strcmp(mode, "fork") || !std::strcmp(mode, "exec")) {
    busy(30ms);
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
      if (!std::strcmp(mode, "exec")) {
        execl("/proc/self/exe", argv[0], "child", static_cast<char*>(nullptr));
        _exit(127);
      }
      // (No threads: ThreadSanitizer cannot start them after a multi-threaded fork.)
      std::mutex m;
      std::lock_guard lock(m);
      std::this_thread::sleep_for(30ms);
      exit(0);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
    busy(30ms);
  } else if (!std::strcmp(mode, "become")) {
    execl("/proc/self/exe", argv[0], "child", static_cast<char*>(nullptr));
    return 127;
  } else if (!std::strcmp(mode, "exec-missing")) {
    execl("/nonexistent/record-program", "record-program", static_cast<char*>(nullptr));
    sleeps();
    busy(20ms);
  } else if (!std::strcmp(mode, "close-all") && argc > 2) {
    for (int fd = 3; fd < 1024; fd++) close(fd);
    closefrom(3);
    close_range(3, ~0U, 0);
    int f = open(argv[2], O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (f < 0) {
      std::perror(argv[2]);
      return 1;
    }
    if (!write_lines(f, 20)) return 1;
    close(f);
    if (!holds_only(argv[2], kLine, 20)) return 5;
  } else if (!std::strcmp(mode, "dup-onto") && argc > 3) {
    for (int round = 0; round < 2; round++) {
      const int at = fd_of(argv[2]);
      if (at < 0) return 6;
      const int f = open(argv[3], O_CREAT | O_WRONLY | O_APPEND, 0644);
      if ((round == 0 ? dup2(f, at) : dup3(f, at, O_CLOEXEC)) != at) return 7;
      close(f);
      if (!write_lines(at, 10)) return 1;
      close(at);
    }
    if (!holds_only(argv[3], kLine, 20)) return 5;
  } else if (!std::strcmp(mode, "_exit")) {
    busy(50ms);
    _exit(0);
  } else if (!std::strcmp(mode, "terminate")) {
    busy(50ms);
    raise(SIGTERM);
    std::this_thread::sleep_for(10s);  // (the recorder ends the process first)
    return 1;
  } else if (!std::strcmp(mode, "sigprof-cleanup")) {
    struct sigaction sa = {};
    sa.sa_handler = cleanup_and_reraise;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPROF, &sa, nullptr);
    spin(300ms);
  } else if (!std::strcmp(mode, "sigprof-own")) {
    signal(SIGPROF, count_tick);
    struct sigaction seen = {};
    if (sigaction(SIGPROF, nullptr, &seen) != 0 || seen.sa_handler != count_tick) return 4;
    itimerval every_2ms = {{0, 2000}, {0, 2000}}, off = {};
    setitimer(ITIMER_PROF, &every_2ms, nullptr);
    spin(300ms);
    setitimer(ITIMER_PROF, &off, nullptr);
    std::printf("record-program sigprof-own: %d ticks\n", g_ticks.load());
    if (g_ticks.load() == 0) return 3;
  } else if (!std::strcmp(mode, "sigprof-default")) {
    busy(50ms);
    spin(50ms);
    raise(SIGPROF);
    std::this_thread::sleep_for(10s);  // (the recorder ends the process first)
    return 1;
  } else {
    std::fprintf(stderr, "record-program: unknown mode %s\n", mode);
    return 2;
  }
  std::printf("record-program %s: done\n", mode);
  return 0;
}
