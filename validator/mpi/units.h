/* hpcvet-mpi's runners: units of one input spread over the ranks, and
 * several inputs spread over the ranks (see README.md, "MPI"). */
#ifndef HV_MPI_UNITS_H
#define HV_MPI_UNITS_H

#include "cli/hooks.h"
#include "core/units.h"

/* A units runner over MPI_COMM_WORLD: a static plan by size (core/units.h),
 * each rank checks its own units (on opt's threads when -j > 1), then every
 * rank receives every unit's report and summary. */
extern hv_units_runner hv_mpi_units_runner;

/* The CLI hook: one input is split into units over all ranks; several
 * inputs are spread over the ranks whole (by size). --certify: every input
 * is split, and rank 0 alone computes the files' digests (reading every
 * file once more where its units did not). Afterwards every rank
 * holds every report; a rank's read error or internal error is merged into
 * the report everywhere. */
void hv_mpi_validate(const char **paths, size_t n, hv_report *reps, hv_options *opt, bool digests,
		     hv_cli_validate_one one, void *ctx);

#endif
