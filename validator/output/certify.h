/* Certificates (`hpcvet certify`): per input, the format, edition and
 * version found, every rule of the table with its result (pass, fail, not
 * applicable) and evaluation counts, the rule-table version and the verdict.
 * Like the other writers they format finished reports and never read input. */
#ifndef HV_CERTIFY_H
#define HV_CERTIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "output.h"

/* What a certificate binds its verdict to: every file of an input, by name
 * relative to the input path, with its size and SHA-256 (computed by the
 * CLI while it validates, validator/cli/digest.c). */
typedef struct hv_cert_file {
	char *name;
	uint64_t size;
	char sha256[65]; /* lowercase hex */
} hv_cert_file;

typedef struct hv_cert_files {
	hv_cert_file *files;
	size_t n;
	bool complete;   /* false: a digest could not be computed (see problem) */
	const char *problem;
} hv_cert_files;

/* A file's name relative to its input, so a certificate holds for a copy of
 * the input elsewhere: "meta.db" for "db/meta.db" when the input is "db" or
 * "db/"; the base name for a single file; for a DUMPI .meta (whose folder
 * is read), the name within that folder. Points into `name`. */
const char *hv_cert_relative_name(const char *label, const char *name);

void hv_write_certify_text(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o);
/* False when the JSON document could not be built (out of memory). */
bool hv_write_certify_json(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o);

#endif
