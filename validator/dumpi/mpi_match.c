/* The cross-rank stage of the MPI consistency layer: the per-rank summaries
 * of one trace (mpi_rank.c), taken in rank order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

/* Rank references whose communicator size the rank itself never recorded:
 * MPI_COMM_WORLD has the .meta numprocs ranks. */
static void check_deferred_ranks(hv_report *r, mpi_rank *m, uint64_t world_size)
{
	size_t it = 0;
	uint64_t id;
	void *val;
	while (mpi_map_next(&m->comms, &it, &id, &val)) {
		mpi_comm *c = val;
		if (c->ref.max < 0) continue;
		int64_t size = c->size >= 0 ? c->size : id == MPI_D_COMM_WORLD && world_size ? (int64_t)world_size : -1;
		if (size < 0) continue;
		if (hv_eval(r, HV_R_DUMPI_MPI_RANK_RANGE, c->ref.max < size)) continue;
		char path[48];
		hv_emit(r, HV_R_DUMPI_MPI_RANK_RANGE, m->file, c->ref.off, 4, dumpi_record_path(path, sizeof path, c->ref.rec),
			"rank %ld record %llu (%s): %s %lld is outside communicator %llu%s, which has %lld ranks%s", m->rank,
			(unsigned long long)c->ref.rec, dumpi_function_name(c->ref.fn),
			c->ref.role == RO_DEST ? "dest" : c->ref.role == RO_SOURCE ? "source" : "root",
			(long long)c->ref.max, (unsigned long long)id, id == MPI_D_COMM_WORLD ? " (world)" : "",
			(long long)size, id == MPI_D_COMM_WORLD ? " (numprocs in the .meta)" : "");
	}
}

void mpi_trace_check(hv_report *r, mpi_rank *const *ranks, size_t n, uint64_t world_size)
{
	for (size_t i = 0; i < n; i++) {
		mpi_rank *m = ranks[i];
		if (!m || !m->complete) continue;
		m->r = r;
		check_deferred_ranks(r, m, world_size);
	}
}
