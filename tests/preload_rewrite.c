/* An LD_PRELOAD interposer for tests/changed.test.sh: a writer that
 * rewrites a file while hpcvet reads it. It counts the openings (open,
 * open64, openat, openat64) of paths containing HV_REWRITE_PATH, and at the
 * HV_REWRITE_AT-th one, before the program's own opening, rewrites one byte
 * of that file in place (same size) through a descriptor of its own, as a
 * concurrent writer would. A line "rewrote PATH at open N" is appended to
 * HV_REWRITE_MARK, so a test knows the rewrite took place.
 *
 * File times come from the kernel's coarse clock (one tick is 1-10 ms): a
 * rewrite within the tick of the file's last change leaves its times as
 * they were, and no reader can tell it from the file it opened first. A
 * real writer still rewriting its output is ticks away from its last
 * write; so is this one: it waits until the coarse clock has passed the
 * file's modification and change times before it writes (README, "Files
 * that change while they are read").
 *
 * HV_REWRITE_MODE=replace: instead, a copy of the same bytes is renamed over
 * the file (another inode, same times or not); =read: the file is only
 * read through, as another reader would (its access time may move, its
 * identity does not: hpcvet must not call that a change).
 * HV_REWRITE_DELAY_MS=N: wait N ms first (a writer that comes late, after
 * another process read the file).
 * HV_REWRITE_RANK=R: only in the process whose OMPI_COMM_WORLD_RANK is R
 * (under mpirun each rank counts its own openings).
 * HV_KILL_PATH, HV_KILL_AT, HV_KILL_RANK: at that opening in that rank, the
 * process is killed (SIGKILL), as a node lost mid-run would be.
 *
 * Plain build only: a sanitizer build links its runtime statically and
 * interposes these functions itself. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HV_API __attribute__((visibility("default")))

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);

static atomic_long g_rewrite_seen, g_kill_seen;

static bool this_rank(const char *want)
{
	if (!want || !*want) return true;
	const char *me = getenv("OMPI_COMM_WORLD_RANK");
	return me && strcmp(me, want) == 0;
}

static bool ts_after(struct timespec a, struct timespec b)
{
	return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec);
}

static void note(const char *what, const char *path, long n)
{
	open_fn real_open = (open_fn)dlsym(RTLD_NEXT, "open");
	const char *mark = getenv("HV_REWRITE_MARK");
	int m = mark ? real_open(mark, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
	if (m >= 0) {
		dprintf(m, "%s %s at open %ld\n", what, path, n);
		close(m);
	}
}

/* mode "read": read the whole file; "replace": rename a copy over it */
static void other_mode(const char *mode, const char *path, long n)
{
	open_fn real_open = (open_fn)dlsym(RTLD_NEXT, "open");
	int fd = real_open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) return;
	char tmp[4096];
	int out = -1;
	if (strcmp(mode, "replace") == 0) {
		snprintf(tmp, sizeof tmp, "%s.rewrite", path);
		out = real_open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (out < 0) {
			close(fd);
			return;
		}
	}
	char buf[65536];
	ssize_t got;
	bool ok = true;
	while ((got = read(fd, buf, sizeof buf)) > 0)
		if (out >= 0 && write(out, buf, (size_t)got) != got) ok = false;
	close(fd);
	if (out >= 0) {
		ok = close(out) == 0 && ok && rename(tmp, path) == 0;
		if (ok) note("replaced", path, n);
	} else if (got == 0) {
		note("read", path, n);
	}
}

static void rewrite(const char *path, long n)
{
	const char *delay = getenv("HV_REWRITE_DELAY_MS");
	if (delay) {
		long ms = atol(delay);
		nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000}, NULL);
	}
	const char *mode = getenv("HV_REWRITE_MODE");
	if (mode && *mode) {
		other_mode(mode, path, n);
		return;
	}
	open_fn real_open = (open_fn)dlsym(RTLD_NEXT, "open");
	int fd = real_open(path, O_RDWR | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
		if (fd >= 0) close(fd);
		return;
	}
	/* past the tick of the file's last change */
	struct timespec last = ts_after(st.st_ctim, st.st_mtim) ? st.st_ctim : st.st_mtim, now;
	for (;;) {
		clock_gettime(CLOCK_REALTIME_COARSE, &now);
		if (ts_after(now, last)) break;
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	}
	const char *o = getenv("HV_REWRITE_OFF");
	off_t off = o ? (off_t)atoll(o) : st.st_size / 2;
	if (off >= st.st_size) off = st.st_size - 1;
	unsigned char b;
	bool done = pread(fd, &b, 1, off) == 1 && (b ^= 0x01, pwrite(fd, &b, 1, off) == 1);
	close(fd);
	if (done) note("rewrote", path, n);
}

static void before_open(const char *path)
{
	if (!path) return;
	const char *want = getenv("HV_REWRITE_PATH");
	const char *at = getenv("HV_REWRITE_AT");
	if (want && *want && at && strstr(path, want) && this_rank(getenv("HV_REWRITE_RANK"))) {
		long n = atomic_fetch_add(&g_rewrite_seen, 1) + 1;
		if (n == atol(at)) rewrite(path, n);
	}
	const char *kwant = getenv("HV_KILL_PATH");
	const char *kat = getenv("HV_KILL_AT");
	if (kwant && *kwant && kat && strstr(path, kwant) && this_rank(getenv("HV_KILL_RANK"))) {
		long n = atomic_fetch_add(&g_kill_seen, 1) + 1;
		if (n == atol(kat)) raise(SIGKILL);
	}
}

static mode_t mode_of(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

HV_API int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_of(flags, ap);
	va_end(ap);
	before_open(path);
	return ((open_fn)dlsym(RTLD_NEXT, "open"))(path, flags, mode);
}

HV_API int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_of(flags, ap);
	va_end(ap);
	before_open(path);
	return ((open_fn)dlsym(RTLD_NEXT, "open64"))(path, flags, mode);
}

HV_API int openat(int dir, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_of(flags, ap);
	va_end(ap);
	before_open(path);
	return ((openat_fn)dlsym(RTLD_NEXT, "openat"))(dir, path, flags, mode);
}

HV_API int openat64(int dir, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_of(flags, ap);
	va_end(ap);
	before_open(path);
	return ((openat_fn)dlsym(RTLD_NEXT, "openat64"))(dir, path, flags, mode);
}
