/* A fault injector for tests/torture/run.sh, loaded with LD_PRELOAD into
 * hpcvet (or python3): it counts the calls of one kind the process makes
 * once it is loaded, and makes the k-th of them fail, as a login node under
 * `ulimit -v`, a file system under load or a full process table would.
 *
 *   HV_FAULT_KIND  alloc: malloc, calloc, realloc, posix_memalign,
 *                  aligned_alloc, memalign, strdup's malloc -- the
 *                  libraries' (cJSON, libyaml, libcrypto, libc's) included;
 *                  read: read and pread (the failure: HV_FAULT_READ);
 *                  thread: pthread_create (EAGAIN)
 *   HV_FAULT_AT    k (1-based): the call that fails; 0 or unset: none (count only)
 *   HV_FAULT_READ  eio (the default), short (half the bytes asked) or eintr
 *   HV_FAULT_COUNT a file that receives, at exit, the number of calls counted
 *   HV_FAULT_ARMED 0: count nothing until hv_fault_arm() is called (a Python
 *                  test arms it around one call into the library)
 * A program that loads it may also call hv_fault_reset(k) (count from 0
 * again, fail the k-th: 0 none, and arm), hv_fault_disarm() and
 * hv_fault_calls() (the calls counted), to try many k in one process.
 *
 * Only the k-th call fails: the program then goes on with a working
 * allocator, so what is tested is what it makes of one failure. A test
 * tool, never linked into hpcvet. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum kind { K_NONE, K_ALLOC, K_READ, K_THREAD };

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static enum kind kind = K_NONE;
static uint64_t fail_at;
static int read_mode; /* 0 EIO, 1 short, 2 EINTR */
static atomic_bool armed;
static atomic_uint_fast64_t calls;
static char count_file[4096];

/* getenv and strtoull allocate nothing. */
static void __attribute__((constructor(101))) setup(void)
{
	const char *k = getenv("HV_FAULT_KIND");
	if (k && strcmp(k, "alloc") == 0) kind = K_ALLOC;
	else if (k && strcmp(k, "read") == 0) kind = K_READ;
	else if (k && strcmp(k, "thread") == 0) kind = K_THREAD;
	const char *at = getenv("HV_FAULT_AT");
	fail_at = at ? strtoull(at, NULL, 10) : 0;
	const char *m = getenv("HV_FAULT_READ");
	read_mode = m && strcmp(m, "short") == 0 ? 1 : m && strcmp(m, "eintr") == 0 ? 2 : 0;
	const char *c = getenv("HV_FAULT_COUNT");
	if (c) snprintf(count_file, sizeof count_file, "%s", c);
	const char *a = getenv("HV_FAULT_ARMED");
	atomic_store(&armed, !(a && strcmp(a, "0") == 0));
}

static void __attribute__((destructor)) write_count(void)
{
	if (!count_file[0]) return;
	int fd = open(count_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) return;
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%llu\n", (unsigned long long)atomic_load(&calls));
	if (n > 0) (void)!write(fd, buf, (size_t)n);
	close(fd);
}

void hv_fault_arm(void);
void hv_fault_arm(void) { atomic_store(&armed, true); }
void hv_fault_disarm(void);
void hv_fault_disarm(void) { atomic_store(&armed, false); }
void hv_fault_reset(unsigned long long k);
void hv_fault_reset(unsigned long long k)
{
	atomic_store(&calls, 0);
	fail_at = k;
	atomic_store(&armed, true);
}
unsigned long long hv_fault_calls(void);
unsigned long long hv_fault_calls(void) { return atomic_load(&calls); }

/* This call of kind `k` is the one to fail. */
static int fails(enum kind k)
{
	if (kind != k || !atomic_load(&armed)) return 0;
	uint64_t n = atomic_fetch_add(&calls, 1) + 1;
	return fail_at && n == fail_at;
}

void *malloc(size_t n)
{
	if (fails(K_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t z)
{
	if (fails(K_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(n, z);
}

void *realloc(void *p, size_t n)
{
	if (p && n == 0) return __libc_realloc(p, n); /* a free */
	if (fails(K_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, n);
}

void *memalign(size_t a, size_t n)
{
	if (fails(K_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_memalign(a, n);
}

void *aligned_alloc(size_t a, size_t n) { return memalign(a, n); }

int posix_memalign(void **out, size_t a, size_t n)
{
	if (fails(K_ALLOC)) return ENOMEM;
	void *p = __libc_memalign(a, n);
	if (!p) return ENOMEM;
	*out = p;
	return 0;
}

static ssize_t read_fault(size_t len, ssize_t (*io)(size_t))
{
	switch (read_mode) {
	case 1:
		return io(len > 1 ? len / 2 : len);
	case 2:
		errno = EINTR;
		return -1;
	default:
		errno = EIO;
		return -1;
	}
}

static __thread int cur_fd;
static __thread void *cur_buf;
static __thread off_t cur_off;
static ssize_t do_read(size_t len) { return syscall(SYS_read, cur_fd, cur_buf, len); }
static ssize_t do_pread(size_t len) { return syscall(SYS_pread64, cur_fd, cur_buf, len, cur_off); }

ssize_t read(int fd, void *buf, size_t len)
{
	if (fails(K_READ)) {
		cur_fd = fd, cur_buf = buf;
		return read_fault(len, do_read);
	}
	return syscall(SYS_read, fd, buf, len);
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	if (fails(K_READ)) {
		cur_fd = fd, cur_buf = buf, cur_off = off;
		return read_fault(len, do_pread);
	}
	return syscall(SYS_pread64, fd, buf, len, off);
}

ssize_t pread64(int fd, void *buf, size_t len, off_t off) { return pread(fd, buf, len, off); }

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
	if (fails(K_THREAD)) return EAGAIN;
	if (!real) real = (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))dlsym(RTLD_NEXT,
													"pthread_create");
	return real(t, attr, fn, arg);
}
