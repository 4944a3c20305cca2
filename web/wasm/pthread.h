/* The WebAssembly build runs the checking core on one thread: wasi-libc
 * (Debian's, without wasm threads) has no <pthread.h>. The core uses
 * pthread_once for tables it builds on first use and, in the split ovni
 * replay (ovni/model/split.c), a mutex and condition variables that only
 * matter when a runner runs its tasks at once; the page gives no runner,
 * so tasks run one after the other and nobody ever has to wait. This
 * header, found before the system's by the wasm build only, gives those
 * calls their one-thread meaning. A wait that would block forever on one
 * thread traps instead of hanging the page. */
#ifndef HV_WEB_PTHREAD_H
#define HV_WEB_PTHREAD_H

typedef int pthread_once_t;
#define PTHREAD_ONCE_INIT 0
typedef struct { int unused; } pthread_mutex_t;
typedef struct { int unused; } pthread_cond_t;
typedef struct { int unused; } pthread_mutexattr_t;
typedef struct { int unused; } pthread_condattr_t;

static inline int pthread_once(pthread_once_t *once, void (*fn)(void))
{
	if (!*once) {
		*once = 1;
		fn();
	}
	return 0;
}

static inline int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) { (void)m, (void)a; return 0; }
static inline int pthread_mutex_destroy(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_lock(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_unlock(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) { (void)c, (void)a; return 0; }
static inline int pthread_cond_destroy(pthread_cond_t *c) { (void)c; return 0; }
static inline int pthread_cond_signal(pthread_cond_t *c) { (void)c; return 0; }
static inline int pthread_cond_broadcast(pthread_cond_t *c) { (void)c; return 0; }
static inline int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	(void)c, (void)m;
	__builtin_trap();
}

#endif
