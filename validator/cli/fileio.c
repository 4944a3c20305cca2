#define _GNU_SOURCE
#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/fnv.h"
#include "output/output.h"

/* Read failures of this process, for hpcvet-mpi: a rank that could not
 * read a file others read diverges from them, and must say why. */
static _Atomic uint64_t g_read_errors;
static _Atomic int g_first_taken;
static char g_first_path[512];

/* strerror(errno) for a failed open, stat or opendir; ENOMEM (the kernel or
 * libc could not allocate) is the validator's fault, not the input's: it is
 * recorded as an allocation failure (core/alloc.h), so the input becomes
 * an internal error rather than unreadable. */
static const char *errno_text(void)
{
	if (errno == ENOMEM) hv_alloc_fault(0);
	return strerror(errno);
}

static void read_failed(const char *path)
{
	g_read_errors++;
	int no = 0;
	if (path && atomic_compare_exchange_strong(&g_first_taken, &no, 1))
		snprintf(g_first_path, sizeof g_first_path, "%s", path);
}

uint64_t hv_fileio_read_errors(const char **first)
{
	uint64_t n = g_read_errors;
	if (first) *first = n && g_first_taken ? g_first_path : NULL;
	return n;
}

static hv_file_id id_of(const struct stat *st)
{
	return (hv_file_id){(uint64_t)st->st_dev,        (uint64_t)st->st_ino,  (uint64_t)st->st_size,
			    (int64_t)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,   (int64_t)st->st_ctim.tv_sec,
			    st->st_ctim.tv_nsec};
}

bool hv_file_id_equal(const hv_file_id *a, const hv_file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_s == b->mtime_s &&
	       a->mtime_ns == b->mtime_ns && a->ctime_s == b->ctime_s && a->ctime_ns == b->ctime_ns;
}

static _Atomic int g_changed_taken;
static char g_changed_path[512];

static void mark_changed(hv_file *f)
{
	atomic_store(&f->changed, true);
	int no = 0;
	if (atomic_compare_exchange_strong(&g_changed_taken, &no, 1))
		snprintf(g_changed_path, sizeof g_changed_path, "%s", f->path);
}

const char *hv_fileio_first_changed(void) { return atomic_load(&g_changed_taken) ? g_changed_path : NULL; }

bool hv_file_unchanged(hv_file *f)
{
	if (atomic_load(&f->changed)) return false;
	struct stat st;
	hv_file_id now;
	if (f->path && stat(f->path, &st) == 0 && (now = id_of(&st), hv_file_id_equal(&now, &f->id))) return true;
	mark_changed(f);
	return false;
}

/* The identities log of hpcvet-mpi (fileio.h). */
static struct {
	bool on, failed;
	pthread_mutex_t lock;
	hv_file_ident *v;
	size_t n, cap;
} g_log = {.lock = PTHREAD_MUTEX_INITIALIZER};

void hv_fileio_log_identities(bool on) { g_log.on = on; }

static void log_identity(const char *path, const hv_file_id *id)
{
	pthread_mutex_lock(&g_log.lock);
	char *p = HV_GROW(g_log.v, g_log.cap, g_log.n + 1, 64) ? hv_strdup(path) : NULL;
	if (p) g_log.v[g_log.n++] = (hv_file_ident){p, *id};
	else g_log.failed = true;
	pthread_mutex_unlock(&g_log.lock);
}

bool hv_fileio_take_identities(hv_file_ident **out, size_t *n)
{
	pthread_mutex_lock(&g_log.lock);
	*out = g_log.v;
	*n = g_log.n;
	bool ok = !g_log.failed;
	g_log.v = NULL;
	g_log.n = g_log.cap = 0;
	g_log.failed = false;
	pthread_mutex_unlock(&g_log.lock);
	return ok;
}

void hv_fileio_free_identities(hv_file_ident *v, size_t n)
{
	for (size_t i = 0; i < n; i++) free(v[i].path);
	free(v);
}

static bool pread_fetch(void *io, uint64_t off, void *dst, size_t len)
{
	int fd = *(int *)io;
	uint8_t *p = dst;
	while (len > 0) {
		ssize_t got = pread(fd, p, len, (off_t)off);
		if (got < 0 && errno == EINTR) continue;
		if (got <= 0) return false; /* error, or the file shrank under us */
		p += got;
		off += (uint64_t)got;
		len -= (size_t)got;
	}
	return true;
}

/* Large files of a directory input are not kept open: a tree of thousands
 * of big streams would run out of descriptors. They are opened on their
 * first read, and opening one closes the one this thread opened before.
 * The descriptor belongs to the thread, not to the file: with -j several
 * threads may read ranges of one file (units of work, core/units.h), each
 * through its own descriptor, and no thread ever closes a descriptor
 * another is reading. A thread's descriptor is closed when it opens
 * another file, when the thread ends (the CLI's workers call
 * hv_file_release_lazy) and when the file is closed. */
static _Thread_local struct {
	const hv_file *f;
	int fd;
} t_lazy = {NULL, -1};

void hv_file_release_lazy(void)
{
	if (t_lazy.f && t_lazy.fd >= 0) close(t_lazy.fd);
	t_lazy.f = NULL;
	t_lazy.fd = -1;
}

static const char *g_fault;

void hv_fileio_set_fault(const char *substring) { g_fault = substring && *substring ? substring : NULL; }

static bool lazy_fetch(void *io, uint64_t off, void *dst, size_t len)
{
	hv_file *f = io;
	if (g_fault && strstr(f->path, g_fault)) { /* injected: tests only */
		read_failed(f->path);
		return false;
	}
	if (off <= f->head_len && len <= f->head_len - off) {
		memcpy(dst, f->head + off, len);
		return true;
	}
	if (t_lazy.f != f) {
		hv_file_release_lazy();
		int fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (fd < 0) {
			read_failed(f->path);
			return false;
		}
		struct stat st;
		/* the same file as at its first opening (device, inode, size,
		 * times), or the bytes read now are not the ones judged so far */
		if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			close(fd);
			read_failed(f->path);
			return false;
		}
		hv_file_id now = id_of(&st);
		if (!hv_file_id_equal(&now, &f->id)) {
			close(fd);
			mark_changed(f);
			read_failed(f->path);
			return false;
		}
		t_lazy.f = f;
		t_lazy.fd = fd;
	}
	if (pread_fetch(&t_lazy.fd, off, dst, len)) return true;
	read_failed(f->path);
	return false;
}

static uint64_t g_slurp_limit = UINT64_MAX;

void hv_fileio_set_slurp_limit(uint64_t max) { g_slurp_limit = max; }

/* O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then says
 * it is no regular file. Files up to `slurp_max` are read whole and the
 * descriptor closed at once, so a tree of many streams does not exhaust
 * descriptors. */
static bool file_open(hv_file *f, const char *path, uint64_t slurp_max, bool lazy, const char **why)
{
	memset(f, 0, sizeof *f);
	f->fd = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		*why = errno_text();
		return false;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		*why = errno_text();
		close(fd);
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file or directory";
		close(fd);
		return false;
	}
	f->path = hv_strdup(path);
	if (!f->path) {
		*why = "out of memory";
		close(fd);
		return false;
	}
	f->fd = fd;
	f->id = id_of(&st);
	if (g_log.on) log_identity(path, &f->id);
	f->blob.name = f->path;
	f->blob.size = (uint64_t)st.st_size;
	f->blob.fetch = pread_fetch;
	f->blob.io = &f->fd;
	if (slurp_max > g_slurp_limit) slurp_max = g_slurp_limit;
	if (f->blob.size <= slurp_max) {
		f->data = hv_malloc(f->blob.size ? (size_t)f->blob.size : 1);
		if (f->data && pread_fetch(&f->fd, 0, f->data, (size_t)f->blob.size)) {
			f->blob.mem = f->data;
			f->blob.fetch = NULL;
			f->blob.io = NULL;
			close(f->fd);
			f->fd = -1;
		} else if (f->data) {
			*why = "read error";
			hv_file_close(f);
			return false;
		}
	}
	if (lazy && !f->blob.mem) {
		/* the sniffs' bytes, while the file is open anyway (a trace of
		 * 65,536 rank files was opened four times a file, three of them
		 * by sniffs; under hpcvet-mpi by every process) */
		size_t h = f->blob.size < HV_FILE_HEAD ? (size_t)f->blob.size : HV_FILE_HEAD;
		if (pread_fetch(&f->fd, 0, f->head, h)) f->head_len = (uint8_t)h;
		close(f->fd);
		f->fd = -1;
		f->blob.fetch = lazy_fetch;
		f->blob.io = f;
	}
	return true;
}

bool hv_file_open(hv_file *f, const char *path, const char **why)
{
	return file_open(f, path, HV_SLURP_MAX, false, why);
}

void hv_file_close(hv_file *f)
{
	if (t_lazy.f == f) hv_file_release_lazy();
	hv_blob_release(&f->blob);
	free(f->data);
	free(f->path);
	if (f->fd >= 0) close(f->fd);
	memset(f, 0, sizeof *f);
	f->fd = -1;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A growable list of strings. */
typedef struct strlist {
	char **v;
	size_t n, cap;
} strlist;

static bool sl_push(strlist *l, char *s)
{
	if (!s) return false;
	if (!HV_GROW(l->v, l->cap, l->n + 1, 16)) {
		free(s);
		return false;
	}
	l->v[l->n++] = s;
	return true;
}

static void sl_free(strlist *l)
{
	for (size_t i = 0; i < l->n; i++) free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

typedef struct dir_id {
	dev_t dev;
	ino_t ino;
} dir_id;

/* The identities of the directories entered, as an open-addressing hash
 * set (a list searched linearly made a trace of 13,000 thread directories
 * cost 90 million comparisons). */
typedef struct dir_set {
	dir_id *slot;
	bool *used;
	size_t cap, n;
} dir_set;

static size_t dir_hash(dir_id id, size_t cap)
{
	uint64_t h = ((uint64_t)id.dev * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)id.ino * 0xc2b2ae3d27d4eb4full);
	return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

/* Add id; false with *dup set when it was there, false alone when out of memory. */
static bool dir_set_add(dir_set *s, dir_id id, bool *dup)
{
	*dup = false;
	if (2 * (s->n + 1) > s->cap) {
		size_t nc = s->cap ? 2 * s->cap : 64;
		dir_id *ns = hv_calloc(nc, sizeof *ns);
		bool *nu = hv_calloc(nc, sizeof *nu);
		if (!ns || !nu) {
			free(ns);
			free(nu);
			return false;
		}
		for (size_t i = 0; i < s->cap; i++) {
			if (!s->used[i]) continue;
			size_t h = dir_hash(s->slot[i], nc);
			while (nu[h]) h = (h + 1) & (nc - 1);
			ns[h] = s->slot[i];
			nu[h] = true;
		}
		free(s->slot);
		free(s->used);
		s->slot = ns, s->used = nu, s->cap = nc;
	}
	size_t h = dir_hash(id, s->cap);
	for (; s->used[h]; h = (h + 1) & (s->cap - 1))
		if (s->slot[h].dev == id.dev && s->slot[h].ino == id.ino) {
			*dup = true;
			return false;
		}
	s->slot[h] = id;
	s->used[h] = true;
	s->n++;
	return true;
}

/* The walk: an explicit stack of directories (depth comes from the file
 * system), and the identities of every directory entered, so a symlink
 * back to an ancestor is detected instead of followed forever. */
static bool walk(const char *root, strlist *files, char *failed, size_t flen)
{
	strlist stack = {0};
	size_t *depths = NULL, dcap = 0;
	dir_set seen = {0};
	bool ok = true, dup;
	struct stat st;
	if (stat(root, &st) != 0) {
		snprintf(failed, flen, "%s: %s", root, errno_text());
		return false;
	}
	ok = sl_push(&stack, hv_strdup(root));
	dcap = 16;
	depths = hv_malloc(dcap * sizeof *depths);
	if (!ok || !depths || !dir_set_add(&seen, (dir_id){st.st_dev, st.st_ino}, &dup)) {
		ok = false;
		snprintf(failed, flen, "out of memory");
	} else {
		depths[0] = 0;
	}
	while (ok && stack.n > 0) {
		char *dpath = stack.v[--stack.n];
		size_t depth = depths[stack.n];
		DIR *dir = opendir(dpath);
		if (!dir) {
			snprintf(failed, flen, "%s: %s", dpath, errno_text());
			free(dpath);
			ok = false;
			break;
		}
		struct dirent *e;
		while (ok && (e = readdir(dir)) != NULL) {
			if (e->d_name[0] == '.') continue;
			char *full = NULL;
			if (asprintf(&full, "%s/%s", dpath, e->d_name) < 0) {
				hv_alloc_fault(strlen(dpath) + strlen(e->d_name) + 2);
				snprintf(failed, flen, "out of memory");
				ok = false;
				break;
			}
			if (stat(full, &st) != 0) {
				snprintf(failed, flen, "%s: %s", full, errno_text());
				ok = false;
			} else if (S_ISDIR(st.st_mode)) {
				if (!dir_set_add(&seen, (dir_id){st.st_dev, st.st_ino}, &dup)) {
					if (dup) snprintf(failed, flen, "%s: directory already visited (symlink loop)", full);
					else snprintf(failed, flen, "out of memory");
					ok = false;
				}
				if (ok && depth + 1 > HV_DIR_MAX_DEPTH) {
					snprintf(failed, flen, "%s: deeper than %d directories", full, HV_DIR_MAX_DEPTH);
					ok = false;
				}
				if (ok && !HV_GROW(depths, dcap, stack.n + 1, 16)) ok = false;
				if (ok) {
					depths[stack.n] = depth + 1;
					ok = sl_push(&stack, full);
					full = NULL;
					if (!ok) snprintf(failed, flen, "out of memory");
				}
			} else if (S_ISREG(st.st_mode)) {
				if (files->n >= HV_DIR_MAX_FILES) {
					snprintf(failed, flen, "%s: more than %u files", root, HV_DIR_MAX_FILES);
					ok = false;
				} else {
					ok = sl_push(files, full);
					full = NULL;
					if (!ok) snprintf(failed, flen, "out of memory");
				}
			} else {
				snprintf(failed, flen, "%s: not a regular file or directory (%s)", full,
					 S_ISFIFO(st.st_mode) ? "FIFO" : S_ISSOCK(st.st_mode) ? "socket" : "device");
				ok = false;
			}
			free(full);
		}
		closedir(dir);
		free(dpath);
	}
	sl_free(&stack);
	free(depths);
	free(seen.slot);
	free(seen.used);
	return ok;
}

bool hv_dir_open(hv_dir *d, const char *path, const char **why)
{
	memset(d, 0, sizeof *d);
	static _Thread_local char failed[512]; /* -j: inputs are opened on several threads */
	failed[0] = '\0';
	strlist names = {0};
	bool ok = walk(path, &names, failed, sizeof failed);
	if (ok && names.n > 0) qsort(names.v, names.n, sizeof *names.v, cmp_names);
	if (ok) {
		d->files = hv_calloc(names.n ? names.n : 1, sizeof *d->files);
		ok = d->files != NULL;
	}
	uint64_t slurped = 0;
	for (size_t i = 0; ok && i < names.n; i++) {
		const char *err;
		/* Only small files are read whole, within a small budget: a
		 * database's data files and big streams are read in windows, so
		 * memory stays bounded whatever the input's total size (meta.db is
		 * made whole by its checker, which needs random access). */
		uint64_t room = slurped < HV_DIR_SLURP_BUDGET ? HV_DIR_SLURP_BUDGET - slurped : 0;
		uint64_t slurp_max = room < HV_DIR_SLURP_MAX ? room : HV_DIR_SLURP_MAX;
		if (file_open(&d->files[d->n], names.v[i], slurp_max, true, &err)) {
			if (d->files[d->n].blob.mem) slurped += d->files[d->n].blob.size;
			d->n++;
		} else {
			/* A file of the input that cannot be read makes the input unreadable. */
			snprintf(failed, sizeof failed, "%s: %s", names.v[i], err);
			ok = false;
		}
	}
	sl_free(&names);
	if (!ok) {
		hv_dir_close(d);
		*why = failed[0] ? failed : "out of memory";
		return false;
	}
	return true;
}

void hv_dir_close(hv_dir *d)
{
	for (size_t i = 0; i < d->n; i++) hv_file_close(&d->files[i]);
	free(d->files);
	memset(d, 0, sizeof *d);
}

/* The judged files (fileio.h): an open-addressing table by path, filled
 * while inputs are validated (on several threads with -j) and read when
 * the report is written. */
typedef struct judged {
	char *path;
	hv_file_id id;
	bool conflict;
} judged;

static struct {
	bool on;
	pthread_mutex_t lock;
	judged *v;
	size_t n, cap;
} g_judged = {.lock = PTHREAD_MUTEX_INITIALIZER};

void hv_judged_keep(bool on) { g_judged.on = on; }
bool hv_judged_keeping(void) { return g_judged.on; }

static size_t path_hash(const char *s)
{
	uint64_t h = hv_fnv1a_str(HV_FNV1A_SEED, s);
	return (size_t)(h ^ (h >> 32));
}

/* The slot of `path`, or the empty slot where it would go. */
static judged *judged_slot(judged *v, size_t cap, const char *path)
{
	size_t h = path_hash(path) & (cap - 1);
	while (v[h].path && strcmp(v[h].path, path) != 0) h = (h + 1) & (cap - 1);
	return &v[h];
}

bool hv_judged_add(const char *path, const hv_file_id *id)
{
	bool ok = true;
	pthread_mutex_lock(&g_judged.lock);
	if (2 * (g_judged.n + 1) > g_judged.cap) {
		size_t cap = g_judged.cap ? 2 * g_judged.cap : 64;
		judged *nv = hv_calloc(cap, sizeof *nv);
		if (!nv) {
			ok = false;
			goto out;
		}
		for (size_t i = 0; i < g_judged.cap; i++)
			if (g_judged.v[i].path) *judged_slot(nv, cap, g_judged.v[i].path) = g_judged.v[i];
		free(g_judged.v);
		g_judged.v = nv;
		g_judged.cap = cap;
	}
	judged *j = judged_slot(g_judged.v, g_judged.cap, path);
	if (j->path) {
		if (!hv_file_id_equal(&j->id, id)) j->conflict = true;
	} else if ((j->path = hv_strdup(path)) != NULL) {
		j->id = *id;
		g_judged.n++;
	} else {
		ok = false;
	}
out:
	pthread_mutex_unlock(&g_judged.lock);
	return ok;
}

void hv_judged_free(void)
{
	for (size_t i = 0; i < g_judged.cap; i++) free(g_judged.v[i].path);
	free(g_judged.v);
	g_judged.v = NULL;
	g_judged.n = g_judged.cap = 0;
}

/* The identity `path` was judged with; false when none is known. */
static bool judged_id(const char *path, hv_file_id *id)
{
	bool found = false;
	pthread_mutex_lock(&g_judged.lock);
	if (g_judged.cap) {
		judged *j = judged_slot(g_judged.v, g_judged.cap, path);
		found = j->path && !j->conflict;
		if (found) *id = j->id;
	}
	pthread_mutex_unlock(&g_judged.lock);
	return found;
}

static bool fd_has_id(int fd, const hv_file_id *id)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return false;
	hv_file_id now = id_of(&st);
	return hv_file_id_equal(&now, id);
}

/* The reports show the bytes a diagnostic points at; they are read again
 * when the report is written, so reports need not keep file contents. They
 * must be the bytes judged: the file's identity is compared before and
 * after the read (a rewrite in place moves the times, a replacement the
 * inode), as at every opening while it was checked. A short or failed
 * read shows fewer bytes, never an error. */
size_t hv_read_range(void *ctx, const char *path, uint64_t off, uint8_t *dst, size_t len)
{
	(void)ctx;
	hv_file_id id;
	if (!judged_id(path, &id)) return HV_READ_UNJUDGED;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) return HV_READ_CHANGED; /* removed, or no longer ours to read */
	size_t got = 0;
	if (!fd_has_id(fd, &id)) {
		close(fd);
		return HV_READ_CHANGED;
	}
	while (got < len) {
		ssize_t n = pread(fd, dst + got, len - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR) continue;
		if (n <= 0) break;
		got += (size_t)n;
	}
	bool same = fd_has_id(fd, &id);
	close(fd);
	if (!same) {
		memset(dst, 0, len);
		return HV_READ_CHANGED;
	}
	return got;
}
