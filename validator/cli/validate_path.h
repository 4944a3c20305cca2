/* Validate what a path names, exactly as the hpcvet program reads it: shared
 * by the CLI and the public API (hpcvet_validate_path) so the two never
 * disagree on how a path becomes blobs. */
#ifndef HV_VALIDATE_PATH_H
#define HV_VALIDATE_PATH_H

#include <stddef.h>

#include "core/blob.h"
#include "core/validate.h"

/* Called with the blobs just before they are validated and once after
 * (the CLI draws its progress line through these; the API passes NULL). */
typedef struct hv_path_observer {
	void (*begin)(void *ctx, const char *label, hv_blob *blobs, size_t n);
	void (*end)(void *ctx);
	void *ctx;
} hv_path_observer;

/* A directory is validated as a set of files; a DUMPI .meta names a whole
 * trace, so its folder is validated as a set (the DUMPI family sees the
 * .meta as the input path and checks only that trace); anything else is
 * one file. An unreadable path is reported as such in `r`.
 *
 * A verdict comes only from one consistent set of bytes: each file's
 * identity (fileio.h, hv_file_id) is taken at its first opening, compared
 * at every later one, and compared once more after the observer's end
 * (so after a certificate's hashing and a dump's reading). A file that
 * changed makes the input unreadable, "FILE: changed while it was read",
 * whatever was found before; the return value is then false. */
bool hv_validate_path(const char *path, const hv_options *opt, hv_report *r, const hv_path_observer *obs);

/* From an observer's end hook: compare the identities of the input's files
 * now (hpcvet dump, before it writes the report after its own reading).
 * False, with `r` made unreadable, when one changed. */
bool hv_path_unchanged(hv_report *r);

#endif
