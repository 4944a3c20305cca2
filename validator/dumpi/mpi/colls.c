/* Collectives of the per-rank pass: each call on a communicator instance
 * enters its digests (functions and roots; scalar counts), and the first
 * COLL_KEEP are kept with the counts this member states (scalar counts of a
 * built-in datatype; for the v-variants, rank-weighted sums over their
 * arrays), for the cross-rank comparison (collmatch.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "collenter.h"

/* Scalar counts: the (count, datatype) pairs this member states for one
 * block, in order of trust (mpi_count_pair_step). A send side (Allgather,
 * Alltoall; the root's own block of Gather and Scatter) may be
 * MPI_IN_PLACE. */
typedef struct { int c, t; bool in_place; } cand_t;
static void scalar_counts(unsigned fn, const dumpi_args *a, mpi_coll *op)
{
	if (fn != 54 && fn != 56 && fn != 58 && fn != 60) {
		/* one (count, datatype) pair, the loop below's default case */
		const uint8_t *ix = mpi_role_ix[fn];
		unsigned ic = ix[RO_COUNT], it = ix[RO_DATATYPE];
		if (!a->f[ic].present || !a->f[it].present) return;
		int32_t cc = (int32_t)(uint32_t)a->f[ic].v;
		uint64_t t = a->f[it].v;
		if (mpi_builtin_type(t) && cc >= 0) op->count = cc, op->dtype = (uint16_t)t, op->role0 = RO_COUNT;
		return;
	}
	cand_t cand[2];
	int nc = 0;
	uint64_t v;
	switch (fn) {
	case 58: case 60:
		cand[nc++] = (cand_t){RO_RECVCOUNT, RO_RECVTYPE, false};
		cand[nc++] = (cand_t){RO_SENDCOUNT, RO_SENDTYPE, true};
		break;
	case 54: { /* Gather: recvcount exists only at the root */
		bool root = mpi_arg(fn, a, RO_RECVCOUNT, &v);
		if (root) cand[nc++] = (cand_t){RO_RECVCOUNT, RO_RECVTYPE, false};
		cand[nc++] = (cand_t){RO_SENDCOUNT, RO_SENDTYPE, root};
		break;
	}
	case 56: { /* Scatter: sendcount exists only at the root */
		bool root = mpi_arg(fn, a, RO_SENDCOUNT, &v);
		if (root) cand[nc++] = (cand_t){RO_SENDCOUNT, RO_SENDTYPE, false};
		cand[nc++] = (cand_t){RO_RECVCOUNT, RO_RECVTYPE, root};
		break;
	}
	default: cand[nc++] = (cand_t){RO_COUNT, RO_DATATYPE, false}; break;
	}
	for (int i = 0; i < nc; i++) {
		uint64_t c, t;
		if (!mpi_arg(fn, a, cand[i].c, &c) || !mpi_arg(fn, a, cand[i].t, &t)) continue;
		mpi_count_pair_step(op, (mpi_count_pair){(int32_t)(uint32_t)c, t, (uint8_t)cand[i].c, cand[i].in_place});
	}
}

/* Sums over a counted u32 array at `at` (n entries): s[0] = sum c[j], s[1] =
 * sum j*c[j], s[2] = sum mpi_weight(j)*c[j] (modulo 2^64), a digest of the
 * entries; entry `skip` is left out of the sums. False when an entry cannot
 * be read. */
static bool arr_sums(mpi_rank *m, uint64_t at, uint64_t n, int64_t skip, uint64_t *s0, uint64_t *s1, uint64_t *s2,
		     uint64_t *dig, bool *zero)
{
	*s0 = *s1 = *s2 = 0;
	*dig = 0x5ca1ab1eull;
	*zero = true;
	for (uint64_t j = 0; j < n; j++) {
		uint32_t c;
		if (!mpi_arr_u32(m, at, j, &c)) return false;
		*dig = mpi_hash(*dig, j, c, 0xc0);
		if (c) *zero = false;
		if ((int64_t)j == skip) continue;
		uint64_t cv = (uint64_t)(int64_t)(int32_t)c;
		*s0 += cv;
		*s1 += j * cv;
		*s2 += mpi_weight(j) * cv;
	}
	return true;
}

/* The one built-in datatype every entry of a counted u16 array names, or 0. */
static uint16_t arr_type(mpi_rank *m, uint64_t at, uint64_t n)
{
	uint16_t t = 0;
	for (uint64_t j = 0; j < n; j++) {
		if (!m->pass->win_ok) return 0;
		const uint8_t *p = hv_window_get(&m->pass->win, at + 4 + 2 * j, 2);
		if (!p) return 0;
		uint16_t x = hv_be16(p);
		if (!mpi_builtin_type(x) || (j && x != t)) return 0;
		t = x;
	}
	return t;
}

/* V-variants: each side as a scalar or as sums over its array (see mpi_coll). */
static void vector_counts(mpi_rank *m, unsigned fn, const dumpi_args *a, mpi_coll *op)
{
	uint64_t v, n, t, dig;
	bool zero;
	int64_t self = -1;
	if ((fn == 55 || fn == 57) && mpi_arg(fn, a, RO_COMMRANK, &v)) self = (int32_t)(uint32_t)v;
	op->vself = (int32_t)self;
	/* send side */
	if (fn == 55 || fn == 59) { /* sendcount (the Gatherv root's own block is not compared) */
		uint64_t c;
		bool root = fn == 55 && mpi_arg(fn, a, RO_RECVCOUNTS, &v);
		if (!root && mpi_arg(fn, a, RO_SENDCOUNT, &c) && mpi_arg(fn, a, RO_SENDTYPE, &t) && mpi_builtin_type(t) &&
		    (fn == 55 || (int32_t)(uint32_t)c != 0)) {
			op->count = (int32_t)(uint32_t)c;
			op->vtype = (uint16_t)t;
			op->vflags |= VS_SCALAR;
		}
	} else if ((fn == 57 || fn == 61 || fn == 155) && mpi_arg(fn, a, RO_SENDCOUNTS, &n)) {
		uint16_t ty = fn == 155 ? (mpi_arg(fn, a, RO_SENDTYPES, &v) && v == n ? arr_type(m, mpi_arg_at(fn, a, RO_SENDTYPES), v) : 0)
					: (mpi_arg(fn, a, RO_SENDTYPE, &t) && mpi_builtin_type(t) ? (uint16_t)t : 0);
		if (ty && arr_sums(m, mpi_arg_at(fn, a, RO_SENDCOUNTS), n, fn == 57 ? self : -1, &op->s0, &op->s1, &op->s2, &dig, &zero) &&
		    !(fn != 57 && zero)) {
			op->vtype = ty;
			op->vflags |= VS_SUMS;
			op->vlen = (uint32_t)(n < UINT32_MAX ? n : UINT32_MAX);
		}
	}
	/* receive side */
	if (fn == 57) { /* recvcount (the Scatterv root's own block is not compared) */
		uint64_t c;
		if (!mpi_arg(fn, a, RO_SENDCOUNTS, &v) && mpi_arg(fn, a, RO_RECVCOUNT, &c) && mpi_arg(fn, a, RO_RECVTYPE, &t) &&
		    mpi_builtin_type(t)) {
			op->count2 = (int32_t)(uint32_t)c;
			op->vtype2 = (uint16_t)t;
			op->vflags |= VR_SCALAR;
		}
	} else if (mpi_arg(fn, a, RO_RECVCOUNTS, &n)) {
		int ro = fn == 66 ? RO_DATATYPE : RO_RECVTYPE;
		uint16_t ty = fn == 155 ? (mpi_arg(fn, a, RO_RECVTYPES, &v) && v == n ? arr_type(m, mpi_arg_at(fn, a, RO_RECVTYPES), v) : 0)
					: (mpi_arg(fn, a, ro, &t) && mpi_builtin_type(t) ? (uint16_t)t : 0);
		if (ty && arr_sums(m, mpi_arg_at(fn, a, RO_RECVCOUNTS), n, fn == 55 ? self : -1, &op->r0, &op->r1, &op->r2, &op->vdig, &zero)) {
			op->vtype2 = ty;
			op->vflags |= VR_SUMS;
			if (op->vlen && op->vlen != n) op->vflags = 0; /* arrays of different lengths: not compared */
			op->vlen = (uint32_t)(n < UINT32_MAX ? n : UINT32_MAX);
		}
	}
}

void mpi_collectives(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	unsigned fn = rec->fn;
	if (!mpi_is_coll(fn)) return;
	uint64_t comm, v;
	/* communicator constructors are collectives of their parent (MPI_Alltoallw 155 and MPI_Exscan 156 are not constructors) */
	bool creator = fn == 84 || fn == 85 || fn == 86 || fn == 99 || fn == 101 || fn == 111;
	if (!mpi_arg(fn, a, creator ? RO_OLDCOMM : RO_COMM, &comm)) return;
	mpi_inst *in = mpi_inst_of(m, mpi_inst_of_comm(m, comm));
	if (!in || comm == MPI_D_COMM_SELF) return;
	int32_t root = -3;
	bool rooted = fn == 53 || (fn >= 54 && fn <= 57) || fn == 62;
	if (rooted && mpi_arg(fn, a, RO_ROOT, &v)) root = (int32_t)(uint32_t)v;
	mpi_coll_enter(m, rec, a, in, root);
}

/* out of line: the calls after the first COLL_KEEP only enter the digests */
__attribute__((noinline)) void mpi_coll_keep(mpi_inst *in, const mpi_coll *op)
{
	/* most communicators see a few collectives: grow by doubling up to COLL_KEEP */
	if (!in->ops_lost && in->ncoll == in->ops_cap) {
		uint8_t nc = in->ops_cap ? (uint8_t)(2 * in->ops_cap < COLL_KEEP ? 2 * in->ops_cap : COLL_KEEP) : 2;
		mpi_coll *no = hv_realloc(in->ops, nc * sizeof *no);
		if (no) in->ops = no, in->ops_cap = nc;
		else free(in->ops), in->ops = NULL, in->ops_lost = true; /* all or none of the calls are kept */
	}
	if (in->ops) in->ops[in->ncoll] = *op;
}

void mpi_coll_enter(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, mpi_inst *in, int32_t root)
{
	unsigned fn = rec->fn;
	/* the sequence digest: functions and roots; counts have their own */
	in->digest = mpi_digest_step(in->digest, fn | (uint64_t)(uint32_t)root << 16);
	/* the first COLL_KEEP calls are kept whole; the rest only enter the digests */
	bool keep = in->ncoll < COLL_KEEP;
	mpi_coll op;
	if (keep)
		op = (mpi_coll){.fn = (uint16_t)fn, .root = root, .count = -1, .count2 = -1, .vself = -1, .rec = rec->index,
				.off = rec->offset};
	else
		op.count = op.count2 = -1, op.dtype = 0; /* all scalar_counts reads */
	if (mpi_coll_scalar(fn)) {
		scalar_counts(fn, a, &op);
		if (op.count >= 0)
			in->cdigest = mpi_digest_step(in->cdigest, fn | (uint64_t)op.dtype << 16 | (uint64_t)(uint32_t)op.count << 32);
		else in->cmixed = true;
	} else if (keep && mpi_coll_vector(fn)) { /* only kept calls are compared */
		vector_counts(m, fn, a, &op);
	}
	in->coll_rec = rec->index;
	in->coll_off = rec->offset;
	if (keep) mpi_coll_keep(in, &op);
	in->ncoll++;
}
