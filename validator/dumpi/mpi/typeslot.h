/* The datatype calls' common cases of the freed-type table (reuse.c keeps
 * the whole), inline where the datatype paths (rank.c) meet them, a call
 * per record each: a constructor's result with no use after its free
 * waiting, and a free of an index with none. Each makes exactly the steps
 * of the whole for its case, and calls the whole otherwise. */
#ifndef HV_DUMPI_MPI_TYPESLOT_H
#define HV_DUMPI_MPI_TYPESLOT_H

#include "pass.h"

/* The chunk of the table (mpi_pass.types) that holds datatype index id,
 * or NULL when it was never made (nothing of it freed). */
static inline uint64_t *mpi_type_chunk(const mpi_pass *p, uint64_t id)
{
	return id < TYPE_INDICES && p->types ? p->types[id / TYPE_CHUNK] : NULL;
}

/* mpi_type_made: an index never freed has nothing to clear; one freed
 * with no use after it waiting, its entry cleared. */
static inline __attribute__((always_inline)) void mpi_type_made_hot(mpi_rank *m, uint64_t id,
								     const dumpi_record *rec)
{
	uint64_t *c = mpi_type_chunk(m->pass, id);
	if (!c) return;
	uint64_t *t = &c[id % TYPE_CHUNK];
	if (*t & TYPE_REUSED) mpi_type_made(m, id, rec);
	else *t = 0;
}

/* mpi_type_freed: an index whose chunk exists and with no use after an
 * earlier free waiting, freed by this record. */
static inline __attribute__((always_inline)) void mpi_type_freed_hot(mpi_rank *m, uint64_t id,
								      const dumpi_record *rec)
{
	uint64_t *c = mpi_type_chunk(m->pass, id);
	uint64_t *t = c ? &c[id % TYPE_CHUNK] : NULL;
	if (t && !(*t & TYPE_REUSED)) *t = rec->index + 1;
	else mpi_type_freed(m, id, rec);
}

#endif
