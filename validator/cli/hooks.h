/* hpcvet-mpi (validator/mpi/) is the hpcvet program with its main built as
 * hv_cli_main and these hooks set: same options, same reports, but the
 * inputs are validated over MPI ranks and only rank 0 writes. NULL in
 * hpcvet. With hooks, --color/--context default to off (under mpirun a
 * rank's stdout looks like a terminal wherever it goes) and there is no
 * progress line. */
#ifndef HV_CLI_HOOKS_H
#define HV_CLI_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/report.h"

/* Validate input i (paths[i] into its report) with `opt`; with `digest`,
 * also the files' SHA-256 for its certificate. */
typedef void (*hv_cli_validate_one)(void *ctx, size_t i, const hv_options *opt, bool digest);

typedef struct hv_cli_hooks {
	/* Validate every input, calling one(ctx, i, ...) for the inputs this
	 * process checks (one fills reps[i]); afterwards every reps[i] must be
	 * complete here. `digests`: --certify wants file digests. */
	void (*validate)(const char **paths, size_t n, hv_report *reps, hv_options *opt, bool digests,
			 hv_cli_validate_one one, void *ctx);
	bool silent;            /* this process writes no report (ranks other than 0) */
} hv_cli_hooks;

extern const hv_cli_hooks *hv_cli_active_hooks;

#endif
