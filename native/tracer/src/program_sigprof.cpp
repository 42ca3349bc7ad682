#include "program_sigprof.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

namespace gotrace::tracer::detail {

namespace {

constinit char g_tag = 0;
std::atomic<bool> g_owned{false};
std::atomic<void (*)()> g_default_hook{nullptr};

// The program's actions, each kept in a slot that is never freed, so that a signal
// handler can read the current one while another thread sets the next. Slots are reused
// round the ring: a handler would have to be overtaken by 64 sigaction calls on SIGPROF
// while it copies one for that to matter.
constexpr unsigned kSlots = 64;
struct sigaction g_slots[kSlots];
std::atomic<unsigned> g_next_slot{0};
std::atomic<const struct sigaction*> g_program{nullptr};

const struct sigaction* keep(const struct sigaction& a) {
  struct sigaction* slot = &g_slots[g_next_slot.fetch_add(1, std::memory_order_relaxed) % kSlots];
  *slot = a;
  return slot;
}

struct sigaction default_action() {
  struct sigaction a = {};
  a.sa_handler = SIG_DFL;
  sigemptyset(&a.sa_mask);
  return a;
}

}  // namespace

void* sigprof_timer_tag() { return &g_tag; }

void own_sigprof(void (*handler)(int, siginfo_t*, void*)) {
  if (g_owned.load(std::memory_order_acquire)) return;
  struct sigaction before = {};
  if (sigaction(SIGPROF, nullptr, &before) != 0) before = default_action();
  g_program.store(keep(before), std::memory_order_release);
  struct sigaction sa = {};
  sa.sa_sigaction = handler;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGPROF, &sa, nullptr) == 0) g_owned.store(true, std::memory_order_release);
}

bool owns_sigprof() { return g_owned.load(std::memory_order_acquire); }

bool program_sigprof_action(const struct sigaction* act, struct sigaction* old) {
  if (!owns_sigprof()) return false;
  const struct sigaction* before = act ? g_program.exchange(keep(*act), std::memory_order_acq_rel)
                                       : g_program.load(std::memory_order_acquire);
  if (old) *old = *before;
  return true;
}

void set_sigprof_default_hook(void (*hook)()) { g_default_hook.store(hook, std::memory_order_release); }

void sigprof_default_now() {
  // Straight to the kernel: in gotrace-record, libc's sigaction is the program's view.
  // SIG_DFL with no flags and an empty mask is all zeros in every layout of the
  // kernel's struct.
  struct {
    void* words[4];
  } k = {};
  ::syscall(SYS_rt_sigaction, SIGPROF, &k, nullptr, 8);
}

void deliver_to_program(int sig, siginfo_t* info, void* context) {
  const struct sigaction* current = g_program.load(std::memory_order_acquire);
  if (!current) return;
  struct sigaction a = *current;
  if (a.sa_handler == SIG_IGN) return;
  if (a.sa_handler == SIG_DFL) {
    if (void (*hook)() = g_default_hook.load(std::memory_order_acquire)) return hook();
    sigprof_default_now();
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    raise(sig);
    pthread_sigmask(SIG_UNBLOCK, &one, nullptr);  // (the process ends here)
    return;
  }
  if (a.sa_flags & SA_RESETHAND) g_program.compare_exchange_strong(current, keep(default_action()));
  // The mask the program asked for while its handler runs; the signal itself stays
  // blocked (as it is in the tracer's handler) unless it asked otherwise.
  sigset_t mask = a.sa_mask, saved;
  pthread_sigmask(SIG_BLOCK, &mask, &saved);
  if (a.sa_flags & SA_NODEFER) {
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  }
  if (a.sa_flags & SA_SIGINFO) a.sa_sigaction(sig, info, context);
  else a.sa_handler(sig);
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
}

}  // namespace gotrace::tracer::detail
