/* Entry points of the checking core. Readers (the CLI, fuzz targets, tests)
 * build blobs and call these; nothing below does I/O. */
#ifndef HV_VALIDATE_H
#define HV_VALIDATE_H

#include <stdbool.h>

#include "alloc.h"
#include "blob.h"
#include "report.h"

/* One single-file format. `sniff` looks at content only; `file_name` is the
 * standard name used as a fallback when the content is too damaged to be
 * recognised (so a meta.db with a broken magic still gets meta.db's header
 * diagnostics instead of "unrecognised"). */
typedef struct hv_format {
	const char *name;       /* "hpctoolkit meta.db" */
	const char *file_name;  /* "meta.db", or NULL */
	bool (*sniff)(hv_blob *b);
	void (*check)(const hv_options *opt, hv_blob *b, hv_report *r);
} hv_format;

/* A format family that understands a set of files forming one input (an
 * HPCToolkit database directory, an ovni trace tree, a DUMPI trace). */
typedef struct hv_family {
	const char *name;       /* "hpctoolkit" */
	/* True when this family recognises `b` (by content, else by name). */
	bool (*claims)(hv_blob *b);
	/* Check all files of the set; the family ignores files it does not claim. */
	void (*check_set)(const hv_options *opt, hv_blob *files, size_t n, hv_report *r);
} hv_family;

/* NULL-terminated registries (validator/formats.c). */
extern const hv_format *const hv_formats[];
extern const hv_family *const hv_families[];

/* The format whose signature `b` carries, else the one whose standard file
 * name matches the last component of b->name, else NULL. */
const hv_format *hv_detect(hv_blob *b, bool *by_name);

/* Validate one file. */
void hv_validate_blob(const hv_options *opt, hv_blob *b, hv_report *r);

/* Validate a set of files forming one input (a directory). */
void hv_validate_set(const hv_options *opt, hv_blob *files, size_t n, hv_report *r);

/* Leave fault scope `s` (core/alloc.h) opened for checking into `r`: a
 * check that could not allocate what it needed was not made, so whatever
 * it reported, `r` becomes an internal error naming the bytes it wanted.
 * hv_validate_blob and hv_validate_set do it; a reader wraps its own work
 * for the input (opening its files) the same way. */
void hv_validate_scope_end(hv_fault_scope *s, hv_report *r);

/* Last path component of a display name. */
const char *hv_basename(const char *path);

#endif
