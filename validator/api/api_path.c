/* hpcvet_validate_path: the part of the public API that reads the file
 * system. It uses the CLI's readers (validator/cli/fileio.c, linked into
 * the library for this), so fileio.c stays the only code that opens files
 * and the library reads paths exactly as the hpcvet program does. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../cli/fileio.h"
#include "api_internal.h"

static void validate_dir(const char *dir, const hv_options *opt, hv_report *r)
{
	const char *why = NULL;
	hv_dir d;
	if (!hv_dir_open(&d, dir, &why)) {
		hv_report_unreadable(r, "%s", why);
		return;
	}
	hv_blob *blobs = calloc(d.n ? d.n : 1, sizeof *blobs);
	if (!blobs) {
		hv_report_internal(r, "out of memory");
	} else {
		for (size_t i = 0; i < d.n; i++) blobs[i] = d.files[i].blob;
		hv_validate_set(opt, blobs, d.n, r);
		for (size_t i = 0; i < d.n; i++) hv_blob_release(&blobs[i]);
		free(blobs);
	}
	hv_dir_close(&d);
}

hpcvet_report *hpcvet_validate_path(const char *path, const hpcvet_options *opt)
{
	hv_options hopt;
	hpcvet_report *rep = hv_api_report_new(path, opt, &hopt);
	if (!rep) return NULL;
	hv_report *r = &rep->r;
	struct stat st;
	if (!path || stat(path, &st) != 0) {
		hv_report_unreadable(r, "%s", path ? strerror(errno) : "no path");
		return rep;
	}
	/* A DUMPI .meta names a whole trace: its folder is validated as a set. */
	size_t plen = strlen(path);
	if (S_ISREG(st.st_mode) && plen > 5 && strcmp(path + plen - 5, ".meta") == 0) {
		const char *slash = strrchr(path, '/');
		char dir[4096];
		snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
		validate_dir(dir, &hopt, r);
		return rep;
	}
	if (S_ISDIR(st.st_mode)) {
		validate_dir(path, &hopt, r);
		return rep;
	}
	hv_file f;
	const char *why = NULL;
	if (!hv_file_open(&f, path, &why)) {
		hv_report_unreadable(r, "%s", why);
		return rep;
	}
	hv_validate_blob(&hopt, &f.blob, r);
	hv_file_close(&f);
	return rep;
}
