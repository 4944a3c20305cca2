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

static void validate_blobs(const char *label, hv_blob *blobs, size_t n, bool set, const hv_options *opt,
			   hv_report *r, const hv_path_observer *obs)
{
	if (obs && obs->begin) obs->begin(obs->ctx, label, blobs, n);
	if (set)
		hv_validate_set(opt, blobs, n, r);
	else
		hv_validate_blob(opt, blobs, r);
	if (obs && obs->end) obs->end(obs->ctx);
}

static void validate_path(const char *path, const hv_options *opt, hv_report *r, const hv_path_observer *obs);

/* An allocation that fails while the input's files are opened is the
 * validator's failure, not the input's: internal error, not unreadable. */
void hv_validate_path(const char *path, const hv_options *opt, hv_report *r, const hv_path_observer *obs)
{
	hv_fault_scope s;
	hv_fault_scope_enter(&s);
	validate_path(path, opt, r, obs);
	hv_validate_scope_end(&s, r);
}

static void validate_path(const char *path, const hv_options *opt, hv_report *r, const hv_path_observer *obs)
{
	struct stat st;
	const char *why = NULL;
	if (!path || stat(path, &st) != 0) {
		hv_report_unreadable(r, "%s", path ? strerror(errno) : "no path");
		return;
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
			return;
		}
		hv_blob *blobs = hv_calloc(d.n ? d.n : 1, sizeof *blobs);
		if (!blobs) {
			hv_report_internal(r, "out of memory");
		} else {
			for (size_t i = 0; i < d.n; i++) blobs[i] = d.files[i].blob;
			validate_blobs(path, blobs, d.n, true, opt, r, obs);
			for (size_t i = 0; i < d.n; i++) hv_blob_release(&blobs[i]);
			free(blobs);
		}
		hv_dir_close(&d);
		return;
	}
	hv_file f;
	if (!hv_file_open(&f, path, &why)) {
		hv_report_unreadable(r, "%s", why);
		return;
	}
	validate_blobs(path, &f.blob, 1, false, opt, r, obs);
	hv_file_close(&f);
}
