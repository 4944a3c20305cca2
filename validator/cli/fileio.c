#define _GNU_SOURCE
#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

bool hv_file_open(hv_file *f, const char *path, const char **why)
{
	memset(f, 0, sizeof *f);
	f->fd = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		*why = strerror(errno);
		return false;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		*why = strerror(errno);
		close(fd);
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file or directory";
		close(fd);
		return false;
	}
	f->path = strdup(path);
	if (!f->path) {
		*why = "out of memory";
		close(fd);
		return false;
	}
	f->fd = fd;
	f->blob.name = f->path;
	f->blob.size = (uint64_t)st.st_size;
	f->blob.fetch = pread_fetch;
	f->blob.io = &f->fd;
	if (f->blob.size <= HV_SLURP_MAX) {
		f->data = malloc(f->blob.size ? (size_t)f->blob.size : 1);
		if (f->data && pread_fetch(&f->fd, 0, f->data, (size_t)f->blob.size)) {
			f->blob.mem = f->data;
		} else if (f->data) {
			*why = "read error";
			hv_file_close(f);
			return false;
		}
	}
	return true;
}

void hv_file_close(hv_file *f)
{
	hv_blob_release(&f->blob);
	free(f->data);
	free(f->path);
	if (f->fd >= 0) close(f->fd);
	memset(f, 0, sizeof *f);
	f->fd = -1;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

bool hv_dir_open(hv_dir *d, const char *path, const char **why)
{
	memset(d, 0, sizeof *d);
	DIR *dir = opendir(path);
	if (!dir) {
		*why = strerror(errno);
		return false;
	}
	char **names = NULL;
	static char failed[320];
	failed[0] = '\0';
	size_t n = 0, cap = 0;
	struct dirent *e;
	bool ok = true;
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.') continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			char **nn = realloc(names, cap * sizeof *nn);
			if (!nn) {
				ok = false;
				break;
			}
			names = nn;
		}
		char *full = NULL;
		if (asprintf(&full, "%s/%s", path, e->d_name) < 0) {
			ok = false;
			break;
		}
		names[n++] = full;
	}
	closedir(dir);
	if (ok && n > 0) qsort(names, n, sizeof *names, cmp_names);
	if (ok) {
		d->files = calloc(n ? n : 1, sizeof *d->files);
		ok = d->files != NULL;
	}
	for (size_t i = 0; ok && i < n; i++) {
		struct stat st;
		const char *err;
		/* Subdirectories and special files are not part of a flat database. */
		if (stat(names[i], &st) != 0 || !S_ISREG(st.st_mode)) continue;
		if (hv_file_open(&d->files[d->n], names[i], &err)) {
			d->n++;
		} else {
			/* A file of the input that cannot be read makes the input unreadable. */
			snprintf(failed, sizeof failed, "%s: %s", names[i], err);
			ok = false;
		}
	}
	for (size_t i = 0; i < n; i++) free(names[i]);
	free(names);
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
