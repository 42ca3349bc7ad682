#include "cpu_profiler.h"

#include <signal.h>
#include <time.h>

#include <cerrno>

#include "clock.h"
#include "program_sigprof.h"
#include "runtime.h"
#include "thread_state.h"
#include "unwind.h"

namespace gotrace::tracer::detail {

namespace {

// The SIGPROF handler: runs on the thread whose CPU timer fired, between any two of its
// instructions, so it uses only atomics, the thread's own ring and its own stack. Like
// Go's traceCPUSample it takes the write flag unless the interrupted code holds it, so
// the advancer cannot finish the generation while a sample of it is half-written.
// A SIGPROF the tracer's timers did not send is the program's (program_sigprof.h).
[[gnu::no_sanitize_address]] void on_sigprof(int sig, siginfo_t* info, void* context) {
  int saved_errno = errno;
  if (!from_tracer_timer(info)) {
    deliver_to_program(sig, info, context);
    errno = saved_errno;
    return;
  }
  ThreadState* m = t_thread;
  CpuRing* ring = m ? m->cpu.load(std::memory_order_relaxed) : nullptr;
  if (!ring) {
    errno = saved_errno;
    return;
  }
  bool took_flag = false;
  if ((m->seqlock.load(std::memory_order_relaxed) & 1) == 0) {
    m->seqlock.fetch_add(1, std::memory_order_seq_cst);
    took_flag = true;
  }
  uint64_t gen = rt().gen.load(std::memory_order_seq_cst);
  if (gen != 0) {
    uint32_t head = ring->head.load(std::memory_order_relaxed);
    if (head - ring->tail.load(std::memory_order_acquire) >= CpuRing::kSlots) {
      ring->lost.fetch_add(1, std::memory_order_relaxed);
    } else {
      CpuSample& s = ring->slots[head % CpuRing::kSlots];
      s.gen = gen;
      s.time = clock_now();
      s.m = m->id;
      s.p = m->sample_p.load(std::memory_order_relaxed);
      s.g = m->sample_g.load(std::memory_order_relaxed);
      s.frames = 0;
#if defined(__x86_64__)
      const auto* uc = static_cast<const ucontext_t*>(context);
      uint64_t pc = uint64_t(uc->uc_mcontext.gregs[REG_RIP]);
      uintptr_t fp = uintptr_t(uc->uc_mcontext.gregs[REG_RBP]);
      s.pcs[0] = pc;
      s.frames = 1 + uint32_t(unwind_frames(fp, m->stack_lo, m->stack_hi, 0, s.pcs + 1, kCpuSampleFrames - 1));
#else
      (void)context;
#endif
      ring->head.store(head + 1, std::memory_order_release);
    }
  }
  if (took_flag) m->seqlock.store(m->seqlock.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  errno = saved_errno;
}

}  // namespace

void CpuProfiler::begin(int hz) {
  hz_ = hz;
  if (hz <= 0) return;
  // Installed once and never removed: a tick still pending after a trace must not reach
  // the program's action (by default, the end of the process).
  own_sigprof(on_sigprof);
}

void CpuProfiler::attach(ThreadState* m) {
  if (!m->cpu.load(std::memory_order_relaxed)) m->cpu.store(new CpuRing, std::memory_order_release);
  if (m->has_cpu_timer) return;
  // A timer on this thread's CPU clock that signals this thread (as Go does since 1.18),
  // so each thread is sampled in proportion to the CPU it uses.
  sigevent sev = {};
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = SIGPROF;
  sev.sigev_value.sival_ptr = sigprof_timer_tag();
  sev._sigev_un._tid = pid_t(m->id);
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &m->cpu_timer) != 0) return;
  long period_ns = 1000000000L / hz_;
  itimerspec its = {};
  its.it_interval.tv_sec = period_ns / 1000000000L;
  its.it_interval.tv_nsec = period_ns % 1000000000L;
  its.it_value = its.it_interval;
  timer_settime(m->cpu_timer, 0, &its, nullptr);
  m->has_cpu_timer = true;
}

void CpuProfiler::detach(ThreadState* m) {
  if (!m->has_cpu_timer) return;
  timer_delete(m->cpu_timer);
  m->has_cpu_timer = false;
}

void CpuProfiler::release(ThreadState* m) {
  detach(m);
  if (!m->cpu.load(std::memory_order_relaxed)) return;
  // A signal already queued must not find the ring gone.
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGPROF);
  pthread_sigmask(SIG_BLOCK, &set, &old);
  CpuRing* ring = m->cpu.exchange(nullptr, std::memory_order_acq_rel);
  rt().cpu_lost.fetch_add(ring->lost.load(std::memory_order_relaxed), std::memory_order_relaxed);
  {
    std::lock_guard lock(exited_mu_);
    for (uint32_t t = ring->tail.load(), h = ring->head.load(); t != h; t++)
      exited_.push_back(ring->slots[t % CpuRing::kSlots]);
  }
  delete ring;
}

void CpuProfiler::drain(ThreadState* m, uint64_t gen, std::vector<CpuSample>& out, uint64_t& lost) {
  CpuRing* ring = m->cpu.load(std::memory_order_acquire);
  if (!ring) return;
  lost += ring->lost.exchange(0, std::memory_order_relaxed);
  uint32_t tail = ring->tail.load(std::memory_order_relaxed);
  uint32_t head = ring->head.load(std::memory_order_acquire);
  for (; tail != head; tail++) {
    const CpuSample& s = ring->slots[tail % CpuRing::kSlots];
    if (s.gen > gen) break;  // a later generation's: left for it
    if (s.gen == gen) out.push_back(s);
    else lost++;
  }
  ring->tail.store(tail, std::memory_order_release);
}

}  // namespace gotrace::tracer::detail

namespace gotrace::tracer::detail {

void CpuProfiler::drain_exited(uint64_t gen, std::vector<CpuSample>& out, uint64_t& lost) {
  std::lock_guard lock(exited_mu_);
  size_t kept = 0;
  for (CpuSample& s : exited_) {
    if (s.gen > gen) exited_[kept++] = s;
    else if (s.gen == gen) out.push_back(s);
    else lost++;
  }
  exited_.resize(kept);
}

}  // namespace gotrace::tracer::detail
