/* The public API's report object, shared by api.c (I/O-free) and
 * path.c (the one part that reads the file system). */
#ifndef HV_API_INTERNAL_H
#define HV_API_INTERNAL_H

#include "core/validate.h"
#include "include/hpcvet.h"

struct hpcvet_report {
	hv_report r;
	char *input_name; /* hv_report.input_path points here */
	int strict;
	unsigned jobs; /* the runner's thread count (hv_options.runner_ctx points here) */
};

/* A report for `input_name` with options applied; NULL when out of memory.
 * *hopt receives the core options. */
hpcvet_report *hv_api_report_new(const char *input_name, const hpcvet_options *opt, hv_options *hopt);

#endif
