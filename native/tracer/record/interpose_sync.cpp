// Locks, condition variables, semaphores and barriers. A lock is tried first and only a
// contended acquisition is a block, with Go's reason for a contended sync.Mutex ("sync");
// a condition wait is a block with the reason of Go's sync.Cond ("sync.(*Cond).Wait").
#include <pthread.h>
#include <semaphore.h>

#include "interpose.h"

using namespace gotrace::record;
using gotrace::tracer::BlockReason;

// The condition variable calls have two versions in glibc; programs use the newer one
// (the first, of LinuxThreads, is for binaries from before 2003).
#define COND_VERSION "GLIBC_2.3.2"

GOTRACE_INTERPOSE int pthread_mutex_lock(pthread_mutex_t* m) {
  auto call = GOTRACE_REAL(pthread_mutex_lock);
  if (!recording()) return call(m);
  int r = pthread_mutex_trylock(m);
  if (r != EBUSY) return r;
  BlockRecord b(BlockReason::Sync);
  return call(m);
}

GOTRACE_INTERPOSE int pthread_mutex_timedlock(pthread_mutex_t* m, const struct timespec* abstime) {
  auto call = GOTRACE_REAL(pthread_mutex_timedlock);
  if (!recording()) return call(m, abstime);
  int r = pthread_mutex_trylock(m);
  if (r != EBUSY) return r;
  BlockRecord b(BlockReason::Sync);
  return call(m, abstime);
}

GOTRACE_INTERPOSE int pthread_mutex_clocklock(pthread_mutex_t* m, clockid_t clock, const struct timespec* abstime) {
  auto call = GOTRACE_REAL(pthread_mutex_clocklock);
  if (!recording()) return call(m, clock, abstime);
  int r = pthread_mutex_trylock(m);
  if (r != EBUSY) return r;
  BlockRecord b(BlockReason::Sync);
  return call(m, clock, abstime);
}

GOTRACE_INTERPOSE int pthread_rwlock_rdlock(pthread_rwlock_t* l) {
  auto call = GOTRACE_REAL(pthread_rwlock_rdlock);
  if (!recording()) return call(l);
  int r = pthread_rwlock_tryrdlock(l);
  if (r != EBUSY) return r;
  BlockRecord b(BlockReason::Sync);
  return call(l);
}

GOTRACE_INTERPOSE int pthread_rwlock_wrlock(pthread_rwlock_t* l) {
  auto call = GOTRACE_REAL(pthread_rwlock_wrlock);
  if (!recording()) return call(l);
  int r = pthread_rwlock_trywrlock(l);
  if (r != EBUSY) return r;
  BlockRecord b(BlockReason::Sync);
  return call(l);
}

GOTRACE_INTERPOSE int pthread_cond_wait(pthread_cond_t* c, pthread_mutex_t* m) {
  auto call = GOTRACE_REAL(pthread_cond_wait, COND_VERSION);
  if (!recording()) return call(c, m);
  BlockRecord b(BlockReason::CondWait);
  return call(c, m);
}

GOTRACE_INTERPOSE int pthread_cond_timedwait(pthread_cond_t* c, pthread_mutex_t* m, const struct timespec* abstime) {
  auto call = GOTRACE_REAL(pthread_cond_timedwait, COND_VERSION);
  if (!recording()) return call(c, m, abstime);
  BlockRecord b(BlockReason::CondWait);
  return call(c, m, abstime);
}

GOTRACE_INTERPOSE int pthread_cond_clockwait(pthread_cond_t* c, pthread_mutex_t* m, clockid_t clock,
                                             const struct timespec* abstime) {
  auto call = GOTRACE_REAL(pthread_cond_clockwait);
  if (!recording()) return call(c, m, clock, abstime);
  BlockRecord b(BlockReason::CondWait);
  return call(c, m, clock, abstime);
}

GOTRACE_INTERPOSE int sem_wait(sem_t* s) {
  auto call = GOTRACE_REAL(sem_wait);
  if (!recording()) return call(s);
  if (sem_trywait(s) == 0) return 0;
  BlockRecord b(BlockReason::Sync);
  return call(s);
}

GOTRACE_INTERPOSE int sem_timedwait(sem_t* s, const struct timespec* abstime) {
  auto call = GOTRACE_REAL(sem_timedwait);
  if (!recording()) return call(s, abstime);
  if (sem_trywait(s) == 0) return 0;
  BlockRecord b(BlockReason::Sync);
  return call(s, abstime);
}

GOTRACE_INTERPOSE int pthread_barrier_wait(pthread_barrier_t* barrier) {
  auto call = GOTRACE_REAL(pthread_barrier_wait);
  if (!recording()) return call(barrier);
  BlockRecord b(BlockReason::Sync);
  return call(barrier);
}
