/* What every fuzz target shares: the options it validates with, and the
 * self-checks on the report that turn a validator bug into a crash the
 * fuzzer records (an input can make the result nonconforming, never make the
 * validator fail). Header-only: each target is one small translation unit. */
#ifndef HV_FUZZ_HARNESS_H
#define HV_FUZZ_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Small diagnostic cap: storage is bounded, counting is not, so the checks
 * run in full while the fuzz loop does not spend its time formatting. */
#define FUZZ_MAX_DIAGS 50

static inline void fuzz_check_report(const hv_report *r)
{
	/* An internal error means the validator contradicted itself (HV_INVARIANT
	 * in production mode, or an explicit hv_report_internal): a bug. */
	if (r->internal_error) {
		fprintf(stderr, "fuzz: internal error: %s\n", r->problem);
		abort();
	}
	if (r->ndiags > r->max_diags || r->ndiags > r->count[0] + r->count[1] + r->count[2]) {
		fprintf(stderr, "fuzz: report holds %zu diagnostics for %llu failures (cap %zu)\n", r->ndiags,
			(unsigned long long)(r->count[0] + r->count[1] + r->count[2]), r->max_diags);
		abort();
	}
}

static inline const hv_format *fuzz_format_named(const char *name)
{
	for (size_t i = 0; hv_formats[i]; i++)
		if (strcmp(hv_formats[i]->name, name) == 0) return hv_formats[i];
	fprintf(stderr, "fuzz: no format named \"%s\" in the registry\n", name);
	abort();
}

#endif
