/* A collective's entry into its communicator instance (colls.c keeps the
 * whole), inline where the fused collective paths (fused.c) meet it: a
 * collective of the common kinds is a few of these steps and one call out
 * of line for its first COLL_KEEP calls, where a call into colls.c for the
 * rest cost as much as the steps themselves. */
#ifndef HV_DUMPI_MPI_COLLENTER_H
#define HV_DUMPI_MPI_COLLENTER_H

#include "pass.h"

/* Keeps call `op` as instance `in`'s next of its first COLL_KEEP calls
 * (colls.c): out of line, as the calls after those only enter the digests. */
void mpi_coll_keep(mpi_inst *in, const mpi_coll *op);

/* A named built-in datatype (DUMPI 2..27; 0 is DUMPI's error index, 1 MPI_DATATYPE_NULL). */
static inline bool mpi_builtin_type(uint64_t t) { return t >= 2 && t < MPI_D_FIRST_USER_DATATYPE; }

/* One candidate pair's step, in order of trust: the first counted pair is
 * the call's count, a second of the same datatype its count2. A send side
 * with count 0 or a null datatype may be MPI_IN_PLACE, whose count MPI
 * ignores: it is not compared. */
static inline __attribute__((always_inline)) void mpi_count_pair_step(mpi_coll *op, mpi_count_pair p)
{
	if (p.in_place && (p.count == 0 || p.dtype < 2)) return;
	if (!mpi_builtin_type(p.dtype) || p.count < 0) return;
	if (op->count < 0) {
		op->count = p.count, op->dtype = (uint16_t)p.dtype, op->role0 = p.role;
	} else if (op->count2 < 0 && op->dtype == p.dtype) {
		op->count2 = p.count, op->role1 = p.role;
	}
}

/* The counts of a call before its pairs' steps: none compared. */
static inline mpi_coll mpi_coll_counts_none(void)
{
	mpi_coll cnt;
	cnt.count = cnt.count2 = -1, cnt.dtype = 0, cnt.role0 = cnt.role1 = 0;
	return cnt;
}

/* A scalar collective (mpi_coll_scalar) or MPI_Barrier on instance `in`
 * with root `root` (-3: none) and the counts its pairs' steps left in cnt
 * (count, count2, dtype, role0, role1): what mpi_coll_enter does with it,
 * the counts found in a few registers and the call built whole only when
 * kept. */
static inline __attribute__((always_inline)) void mpi_coll_enter_counted(const dumpi_record *rec, mpi_inst *in,
									  int32_t root, const mpi_coll *cnt)
{
	unsigned fn = rec->fn;
	in->digest = mpi_digest_step(in->digest, fn | (uint64_t)(uint32_t)root << 16);
	if (cnt->count >= 0)
		in->cdigest = mpi_digest_step(in->cdigest, fn | (uint64_t)cnt->dtype << 16 | (uint64_t)(uint32_t)cnt->count << 32);
	else if (mpi_coll_scalar(fn)) in->cmixed = true;
	in->coll_rec = rec->index;
	in->coll_off = rec->offset;
	if (in->ncoll < COLL_KEEP) {
		mpi_coll op = {.fn = (uint16_t)fn, .root = root, .count = cnt->count, .count2 = cnt->count2,
			       .dtype = cnt->dtype, .role0 = cnt->role0, .role1 = cnt->role1, .vself = -1, .rec = rec->index,
			       .off = rec->offset};
		mpi_coll_keep(in, &op);
	}
	in->ncoll++;
}

/* The path of its own (fused.c) a collective of kind `kind` (FUSED_*)
 * takes, or NULL for its kind's: MPI_Barrier, MPI_Bcast, MPI_Reduce,
 * MPI_Allreduce, MPI_Scan, MPI_Exscan, MPI_Allgather, MPI_Alltoall,
 * MPI_Gather and MPI_Scatter, each with its fields read at their places,
 * when libdumpi's layout puts them there (mpi_at_places, checks.h). */
dumpi_layer_path *mpi_fused_coll_path(unsigned fn, unsigned kind);

#endif
