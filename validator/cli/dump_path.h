/* Validate a path and dump it (see dump_path.c): the one sequence behind
 * `hpcvet dump` and the library's hpcvet_dump_path. */
#ifndef HV_DUMP_PATH_H
#define HV_DUMP_PATH_H

#include <stdbool.h>
#include <stdio.h>

#include "core/report.h"
#include "dump/dump.h"

/* Validate `path` into r, and while its files are still open (the report
 * complete) dump them to out with the report; an input that cannot be read
 * dumps its report alone. hits (may be NULL) says which selectors matched.
 * Whether the files were dumped. */
bool hv_dump_validated(FILE *out, const hv_dump_opts *o, const char *path, const hv_options *opt, hv_report *r,
		       hv_dump_hits *hits);

#endif
