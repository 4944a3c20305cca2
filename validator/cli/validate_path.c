/* See validate_path.h. Reading goes through fileio.c, which stays the only
 * code that opens files. */
#include "validate_path.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/validate.h"
#include "fileio.h"

/* The files of the input this thread validates, for hv_path_unchanged. */
static _Thread_local struct {
	hv_file *files;
	size_t n;
} t_input;

bool hv_path_unchanged(hv_report *r)
{
	for (size_t i = 0; i < t_input.n; i++)
		if (!hv_file_unchanged(&t_input.files[i])) {
			/* nothing found in bytes that are not one consistent set
			 * stands, an internal error included */
			r->internal_error = false;
			hv_report_unreadable(r, "%s: changed while it was read", t_input.files[i].path);
			return false;
		}
	return true;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* What reads the input again after the verdict (the reports' views of the
 * bytes, fileio.h hv_judged_*) may show only the bytes judged: each file a
 * finding names is recorded with the identity just found unchanged. The
 * report's pool of file names is small (its stored findings'), the input's
 * files may be a million: the pool is sorted and searched. */
static void record_judged(hv_report *r, const hv_file *files, size_t n)
{
	if (!hv_judged_keeping() || r->nfiles == 0) return;
	char **names = hv_malloc(r->nfiles * sizeof *names);
	if (!names) return; /* the fault makes the input an internal error */
	memcpy(names, r->files, r->nfiles * sizeof *names);
	qsort(names, r->nfiles, sizeof *names, cmp_names);
	for (size_t i = 0; i < n; i++) {
		const char *p = files[i].path;
		if (p && bsearch(&p, names, r->nfiles, sizeof *names, cmp_names) && !hv_judged_add(p, &files[i].id)) break;
	}
	free(names);
}

static bool validate_blobs(const char *label, hv_file *files, hv_blob *blobs, size_t n, bool set,
			   const hv_options *opt, hv_report *r, const hv_path_observer *obs)
{
	t_input.files = files;
	t_input.n = n;
	if (obs && obs->begin) obs->begin(obs->ctx, label, blobs, n);
	if (set)
		hv_validate_set(opt, blobs, n, r);
	else
		hv_validate_blob(opt, blobs, r);
	if (obs && obs->end) obs->end(obs->ctx);
	bool same = hv_path_unchanged(r);
	if (same) record_judged(r, files, n);
	t_input.files = NULL;
	t_input.n = 0;
	return same;
}

static bool validate_path(const char *path, const hv_options *opt, hv_report *r, const hv_path_observer *obs);

/* An allocation that fails while the input's files are opened is the
 * validator's failure, not the input's: internal error, not unreadable. A
 * file that changed while it was read stands over a lost allocation: no
 * check of bytes that are not one consistent set means anything. */
bool hv_validate_path(const char *path, const hv_options *opt, hv_report *r, const hv_path_observer *obs)
{
	hv_fault_scope s;
	hv_fault_scope_enter(&s);
	bool same = validate_path(path, opt, r, obs);
	if (same)
		hv_validate_scope_end(&s, r);
	else
		hv_fault_scope_leave(&s);
	return same;
}

static bool validate_path(const char *path, const hv_options *opt, hv_report *r, const hv_path_observer *obs)
{
	struct stat st;
	const char *why = NULL;
	if (!path || stat(path, &st) != 0) {
		hv_report_unreadable(r, "%s", path ? strerror(errno) : "no path");
		return true;
	}
	size_t plen = strlen(path);
	bool dumpi_meta = S_ISREG(st.st_mode) && plen > 5 && strcmp(path + plen - 5, ".meta") == 0;
	char dir_of_meta[4096];
	if (dumpi_meta) {
		const char *slash = strrchr(path, '/');
		snprintf(dir_of_meta, sizeof dir_of_meta, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
			 slash ? path : ".");
	}
	if (S_ISDIR(st.st_mode) || dumpi_meta) {
		hv_dir d;
		if (!hv_dir_open(&d, dumpi_meta ? dir_of_meta : path, &why)) {
			hv_report_unreadable(r, "%s", why);
			return true;
		}
		bool same = true;
		hv_blob *blobs = hv_calloc(d.n ? d.n : 1, sizeof *blobs);
		if (!blobs) {
			hv_report_internal(r, "out of memory");
		} else {
			for (size_t i = 0; i < d.n; i++) blobs[i] = d.files[i].blob;
			same = validate_blobs(path, d.files, blobs, d.n, true, opt, r, obs);
			for (size_t i = 0; i < d.n; i++) hv_blob_release(&blobs[i]);
			free(blobs);
		}
		hv_dir_close(&d);
		return same;
	}
	hv_file f;
	if (!hv_file_open(&f, path, &why)) {
		hv_report_unreadable(r, "%s", why);
		return true;
	}
	bool same = validate_blobs(path, &f, &f.blob, 1, false, opt, r, obs);
	hv_file_close(&f);
	return same;
}
