// Starting the tracer at load, and every way the process can end. The preload library's
// constructor reads the settings (options.h), starts the tracer and a control thread
// that does what signal handlers cannot (write a flight recording, stop the trace before
// a terminating signal takes its default action); exit, _exit and the terminating
// signals stop the trace; a forked child forgets it.
#include "recorder.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "context.h"
#include "environment.h"
#include "interpose.h"
#include "options.h"
#include "owned_fds.h"
#include "program_sigprof.h"
#include "runtime.h"

namespace gotrace::record {

constinit thread_local int t_depth = 0;
std::atomic<bool> g_recording{false};

namespace {

// Never destroyed: the control thread and threads still running at exit may read it.
Settings& g_settings = *new Settings;
pid_t g_pid = 0;                 // the process that records (not a forked child)
std::atomic<bool> g_finished{false};
// Signal handlers -> control thread: the signals caught, and a semaphore (sem_post is
// async-signal-safe; a pipe's descriptors could be closed and reused by the program).
std::atomic<uint32_t> g_caught{0};
sem_t g_wake;
std::atomic<int> g_flights{0};   // flight recordings written
// The terminating signals whose default action the recorder takes over (only where the
// program left the default in place) to write the trace first.
constexpr int kEndSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The program's standard error as it was at load, and what it was.
int g_stderr = 2;
dev_t g_stderr_dev = 0;
ino_t g_stderr_ino = 0;

void say(const std::string& line) {
  if (g_settings.quiet) return;
  std::string s = "gotrace-record: " + line + "\n";
  // (The copy, unless the program closed it and the number now names another file.)
  struct stat st = {};
  int fd = g_stderr;
  if (fd != 2 && (fstat(fd, &st) != 0 || st.st_dev != g_stderr_dev || st.st_ino != g_stderr_ino)) fd = 2;
  ssize_t ignored = ::syscall(SYS_write, fd, s.data(), s.size());
  (void)ignored;
}

std::string megabytes(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f MB", double(bytes) / 1e6);
  return buf;
}

// Async-signal-safe: one byte to the control thread.
void on_signal(int sig) {
  int saved = errno;
  g_caught.fetch_or(1u << sig, std::memory_order_relaxed);
  sem_post(&g_wake);
  errno = saved;
}

// Written under a temporary name and renamed when complete, so that FILE.N, once there,
// is a whole trace.
void write_flight_recording() {
  std::string path = g_settings.output + "." + std::to_string(g_flights + 1);
  std::string partial = path + ".partial";
  std::string error;
  std::unique_ptr<tracer::Sink> sink = tracer::file_sink(partial, &error);
  if (!sink) return say("cannot write a flight recording: " + error);
  tracer::FlightRecording r = tracer::write_flight_recording(*sink);
  sink->close();
  if (!r.ok || std::rename(partial.c_str(), path.c_str()) != 0) {
    std::remove(partial.c_str());
    return say("no flight recording: " + (r.ok ? std::string("cannot rename ") + partial : r.error));
  }
  g_flights++;
  say("flight recording " + path + ": " + std::to_string(r.generations) + " generations, " +
      std::to_string(r.events) + " events, " + megabytes(r.bytes));
}

void* control_loop(void*) {
  t_depth = 1;  // never recorded
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, nullptr);  // the program's signals go to its own threads
  for (;;) {
    if (sem_wait(&g_wake) != 0) continue;  // (EINTR)
    uint32_t caught = g_caught.exchange(0, std::memory_order_relaxed);
    if (caught & (1u << SIGUSR2)) write_flight_recording();
    int sig = 0;
    for (int s : kEndSignals)
      if (caught & (1u << s)) sig = s;
    if (caught & (1u << SIGPROF)) sig = SIGPROF;  // (the program's, with its default action)
    if (!sig) continue;
    // A terminating signal: the trace first, then the signal's default action.
    finish();
    if (sig == SIGPROF) tracer::detail::sigprof_default_now();
    else signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
    kill(getpid(), sig);
  }
}

void install_signal_handlers() {
  if (sem_init(&g_wake, 0, 0) != 0) return say("no semaphore; signals are left alone");
  struct sigaction sa = {};
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  for (int sig : kEndSignals) {
    struct sigaction old = {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_DFL && !(old.sa_flags & SA_SIGINFO))
      sigaction(sig, &sa, nullptr);
  }
  if (g_settings.flight > 0) sigaction(SIGUSR2, &sa, nullptr);
  // A SIGPROF of the program's own that finds its default action ends the process as
  // the others do, the trace written first.
  tracer::detail::set_sigprof_default_hook([] { on_signal(SIGPROF); });
  pthread_t t;
  if (GOTRACE_REAL(pthread_create)(&t, nullptr, control_loop, nullptr) == 0) pthread_detach(t);
}

// A forked child runs untraced: the tracer's threads did not come with it, and the
// trace file is the parent's. It forgets the trace without touching the tracer's locks
// (another thread may have held them at the fork).
void in_forked_child() {
  g_recording.store(false, std::memory_order_relaxed);
  tracer::detail::g_enabled.store(false, std::memory_order_relaxed);
  if (tracer::detail::g_runtime) tracer::detail::rt().gen.store(0, std::memory_order_relaxed);
  tracer::detail::t_thread = nullptr;  // (its exit hook then does nothing)
  tracer::detail::set_sigprof_default_hook(nullptr);  // (no control thread here)
  for (int sig : kEndSignals) {
    struct sigaction old = {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == on_signal) signal(sig, SIG_DFL);
  }
  struct sigaction old = {};
  if (sigaction(SIGUSR2, nullptr, &old) == 0 && old.sa_handler == on_signal) signal(SIGUSR2, SIG_DFL);
}

void leave_preload();

// What processes this one starts inherit: the absolute trace path and the recording
// process's id (so a recorded child writes OUTPUT.PID), and LD_PRELOAD without this
// library unless children are recorded too (environment.h: not through setenv).
void prepare_environment() {
  if (!environment_value("GOTRACE_RECORD_ROOT")) {
    set_environment("GOTRACE_RECORD_ROOT", std::to_string(getpid()).c_str());
    if (g_settings.output[0] != '/') {
      char cwd[4096];
      if (getcwd(cwd, sizeof cwd)) g_settings.output = std::string(cwd) + "/" + g_settings.output;
    }
    set_environment("GOTRACE_RECORD_OUTPUT", g_settings.output.c_str());
  }
  if (!g_settings.children) leave_preload();
}

// LD_PRELOAD without this library, for the processes this one starts.
void leave_preload() {
  const char* preload = environment_value("LD_PRELOAD");
  const char* library = recorder_library();
  if (!preload || !library) return;
  const std::string kept = preload_without_recorder(preload, library);
  if (kept.empty()) remove_from_environment("LD_PRELOAD");
  else set_environment("LD_PRELOAD", kept.c_str());
}

// Marks the main thread's end before the tracer's exit hook runs (thread-local
// destructors run in the reverse order of their registration): a program that returns
// from main ends its main thread there, and exit() is not called through the PLT then.
struct MainThreadEnd {
  bool armed = false;
  ~MainThreadEnd() {
    if (armed) thread_ending();
  }
};
thread_local MainThreadEnd t_main_end;

// Starts the tracer on the settings' file (or the flight recorder alone); says why not.
bool begin_trace() {
  std::unique_ptr<tracer::Sink> sink;
  std::string error;
  if (g_settings.flight == 0) {
    sink = tracer::file_sink(g_settings.output, &error);
    if (!sink) {
      say("cannot write " + g_settings.output + ": " + error + "; not recording");
      return false;
    }
  }
  if (!tracer::start(std::move(sink), g_settings.options, &error)) {
    say(error + "; not recording");
    return false;
  }
  // The calling thread's goroutine appears at once (its exit hook registered, then its
  // end mark): the trace's first generation is never empty, which Go 1.23's reader
  // rejects.
  tracer::detail::ScopedLocker l;
  if (l) tracer::detail::sync_context(*l);
  return true;
}

void recorder_load() {
  Guard guard;
  // Programs may close their standard error before they exit (xz, coreutils: to see
  // write errors); the summary line goes to a copy.
  struct stat st = {};
  int copy = fcntl(2, F_DUPFD_CLOEXEC, tracer::detail::high_fd_base());
  if (copy >= 0 && fstat(copy, &st) == 0) {
    g_stderr = copy;
    tracer::detail::own_fd(copy);  // (kept from the program's close: interpose_fds.cpp)
    g_stderr_dev = st.st_dev;
    g_stderr_ino = st.st_ino;
  }
  g_settings = settings_from_environment();
  if (!g_settings.error.empty()) {
    // Said whatever -q asks (nothing is recorded), once: the processes this one starts
    // do not load the library to say it again.
    g_settings.quiet = false;
    leave_preload();
    return say(g_settings.error + "; not recording");
  }
  g_pid = getpid();
  prepare_environment();
  if (!begin_trace()) return;
  // Registered after the tracer's own handler, so it runs before it (and after the
  // program's static destructors and atexit handlers, registered later).
  std::atexit([] {
    thread_ending();
    finish();
  });
  pthread_atfork(nullptr, nullptr, in_forked_child);
  install_signal_handlers();
  t_main_end.armed = true;
  g_recording.store(true, std::memory_order_release);
}

// The recorder starts as the library is loaded, after the settings above are constructed
// (in the order of their definitions) and before the program's main.
struct Load {
  Load() { recorder_load(); }
} g_load;

}  // namespace

void thread_ending() { t_depth = 1 << 20; }

bool in_recording_process() { return getpid() == g_pid; }

const char* recorder_library() {
  Dl_info self = {};
  return dladdr(reinterpret_cast<void*>(&recorder_library), &self) ? self.dli_fname : nullptr;
}

std::string preload_without_recorder(const char* preload, const char* library) {
  const char* base = std::strrchr(library, '/');
  base = base ? base + 1 : library;
  std::string kept, entry;
  for (const char* p = preload;; p++) {
    if (*p && *p != ':' && *p != ' ') {
      entry += *p;
      continue;
    }
    const char* slash = std::strrchr(entry.c_str(), '/');
    if (!entry.empty() && std::strcmp(slash ? slash + 1 : entry.c_str(), base) != 0)
      kept += (kept.empty() ? "" : ":") + entry;
    entry.clear();
    if (!*p) break;
  }
  return kept;
}

bool exec_begin() {
  Guard guard;
  if (getpid() != g_pid || g_finished.load() || !g_recording.load(std::memory_order_acquire)) return false;
  g_recording.store(false, std::memory_order_relaxed);
  tracer::stop();
  // A CPU tick still pending on this thread would outlive the exec and meet SIGPROF's
  // default action (the end of the process) before the new program's recorder is up.
  sigset_t prof, old;
  sigemptyset(&prof);
  sigaddset(&prof, SIGPROF);
  pthread_sigmask(SIG_BLOCK, &prof, &old);
  const timespec now = {};
  while (sigtimedwait(&prof, nullptr, &now) > 0) {
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return true;
}

void exec_failed() {
  Guard guard;
  if (begin_trace()) g_recording.store(true, std::memory_order_release);
}

void finish() {
  Guard guard;
  if (getpid() != g_pid || g_finished.exchange(true)) return;
  g_recording.store(false, std::memory_order_relaxed);
  tracer::Stats s = tracer::stop();
  if (g_settings.flight > 0) {
    say(std::to_string(g_flights) + " flight recording(s) written");
    return;
  }
  std::string line = "wrote " + g_settings.output + ": " + std::to_string(s.events) + " events, " +
                     megabytes(s.bytes) + ", " + std::to_string(s.generations) + " generations";
  if (s.generations_dropped) line += ", " + std::to_string(s.generations_dropped) + " generations dropped";
  if (s.misuse) line += ", " + std::to_string(s.misuse) + " calls not recorded";
  if (s.sink_failed) line += " (the file could not be written to the end)";
  say(line);
}

}  // namespace gotrace::record
