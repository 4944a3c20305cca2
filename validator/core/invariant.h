/* Self-checks for states the validator believes impossible (a bug in the
 * validator, never in the input). Fuzzing builds, compiled with
 * FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, abort so libFuzzer/AFL++ record
 * the input as a crash; production builds report an internal error on the
 * report (`r` may be NULL) — exit code 4 — and the caller bails out.
 *
 *     if (!HV_INVARIANT(r, idx < n)) return;
 */
#ifndef HV_INVARIANT_H
#define HV_INVARIANT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "report.h"

static inline bool hv_invariant_failed(hv_report *r, const char *cond, const char *file, int line)
{
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	(void)r;
	fprintf(stderr, "hpcvet: invariant violated: %s (%s:%d)\n", cond, file, line);
	abort();
#else
	if (r && !r->internal_error) hv_report_internal(r, "invariant violated: %s (%s:%d)", cond, file, line);
	return false;
#endif
}

#define HV_INVARIANT(r, cond) ((cond) ? true : hv_invariant_failed((r), #cond, __FILE__, __LINE__))

/* A bookkeeping expectation whose violation misleads no user (the result
 * stays right) but shows a check written against the conventions: abort in
 * fuzzing builds only, so campaigns find it; nothing in production. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define HV_FUZZ_EXPECT(cond) ((cond) ? (void)0 : (void)hv_invariant_failed(NULL, #cond, __FILE__, __LINE__))
#else
#define HV_FUZZ_EXPECT(cond) ((void)0)
#endif

#endif
