/* The fused paths of the common collectives (MPI_Barrier, MPI_Bcast,
 * MPI_Reduce, MPI_Allreduce, MPI_Scan, MPI_Exscan, MPI_Allgather,
 * MPI_Alltoall, MPI_Gather, MPI_Scatter and the others of their kinds),
 * behind rank.c's dispatch as fused.c's point-to-point and request paths:
 * counts, uses, the collective, its root, in the generic path's order, with
 * each argument read once and the communicator found once. */
#include "checks.h"
#include "collenter.h"
/* The root of a collective on communicator comm, its entry c found
 * (NULL: none): mpi_check_rank's common case, a root inside a
 * communicator of known size, without finding c again. */
static inline __attribute__((always_inline)) void coll_root(mpi_rank *m, const dumpi_record *rec, uint64_t comm,
							      mpi_comm *c, int32_t root, const dumpi_args *a, unsigned i)
{
	if (c && mpi_rank_inside(root, c->size)) hv_eval(m->r, HV_R_DUMPI_MPI_RANK_RANGE, true);
	else mpi_check_rank(m, rec, comm, RO_ROOT, root, a, i);
}

/* mpi_check_count for the collectives' counts, seldom negative: the
 * failure's message out of line, so that the common case keeps no
 * registers for it. */
static __attribute__((noinline, cold)) void coll_count_failed(mpi_rank *m, const dumpi_record *rec, int ro,
								 int32_t c, const dumpi_args *a, unsigned i)
{
	mpi_check_count(m, rec, ro, c, a, i);
}
static inline __attribute__((always_inline)) void coll_count(mpi_rank *m, const dumpi_record *rec, int ro, int32_t c,
							       const dumpi_args *a, unsigned i)
{
	if (c >= 0) hv_eval(m->r, HV_R_DUMPI_MPI_COUNT_NEGATIVE, true);
	else coll_count_failed(m, rec, ro, c, a, i);
}

/* A collective of kind FUSED_COLL: counts, uses, the collective, its root,
 * as the generic path orders them, with the communicator found once. */
void mpi_fused_coll(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	unsigned fn = rec->fn;
	const uint8_t *ix = mpi_role_ix[fn];
	for (const uint8_t *ro = mpi_count_roles[fn]; *ro != RO_COUNT_ROLES; ro++) {
		unsigned i = ix[*ro];
		if (a->f[i].present) mpi_check_count(m, rec, *ro, (int32_t)(uint32_t)a->f[i].v, a, i);
	}
	/* uses: the communicator, then the datatypes (no OLDCOMM: compute_plans) */
	for (const uint8_t *ro = mpi_use_roles[fn]; *ro != RO_COUNT_ROLES; ro++) {
		unsigned i = ix[*ro];
		if (!a->f[i].present) continue;
		if (*ro == RO_COMM) {
			if (a->f[i].v >= MPI_D_FIRST_USER_COMM) mpi_use_comm(m, rec, a, RO_COMM, a->f[i].v);
		} else if (a->f[i].v >= MPI_D_FIRST_USER_DATATYPE) {
			mpi_use_type(m, rec, a, *ro, a->f[i].v);
		}
	}
	unsigned im = ix[RO_COMM], ir = ix[RO_ROOT];
	if (!a->f[im].present) return; /* neither a collective to enter nor ranks to check */
	uint64_t comm = a->f[im].v;
	mpi_comm *c = mpi_comm_of(m, comm);
	mpi_inst *in = c ? mpi_inst_of(m, c->inst) : NULL;
	int32_t root = a->f[ir].present ? (int32_t)(uint32_t)a->f[ir].v : -3;
	if (in && comm != MPI_D_COMM_SELF) mpi_coll_enter(m, rec, a, in, root);
	if (a->f[ir].present) mpi_check_rank(m, rec, comm, RO_ROOT, root, a, ir);
}

/* A field no function has (mpi_role_ix's index for a role it lacks). */
enum { NO_FIELD = DUMPI_MAX_FIELDS };
/* Whether field i of a collective's record is present: in a copy of its
 * path whose field places are constants (`fixed`, libdumpi's layout, no
 * root-only field among them: mpi_fused_coll_path), whether the function
 * has it at all, known when compiled; else as decoded. */
static inline __attribute__((always_inline)) bool coll_has(const dumpi_args *a, unsigned i, bool fixed)
{
	return fixed ? i != NO_FIELD : a->f[i].present;
}

/* A collective of kind FUSED_COLL_PAIR (MPI_Barrier, MPI_Bcast,
 * MPI_Reduce, MPI_Allreduce, MPI_Scan, MPI_Exscan): mpi_fused_coll's steps
 * without its loops over the roles, as its one count and its communicator
 * and datatype are its only count and use roles (Barrier: its communicator)
 * and every argument it has is present (no root-only field: compute_plans).
 * Its fields are ic, it, im, ir (NO_FIELD: none). */
static inline __attribute__((always_inline)) void coll_pair(mpi_rank *m, const dumpi_record *rec,
							    const dumpi_args *a, unsigned ic, unsigned it,
							    unsigned im, unsigned ir, bool fixed)
{
	bool counted = coll_has(a, ic, fixed), typed = coll_has(a, it, fixed), rooted = coll_has(a, ir, fixed);
	int32_t cc = (int32_t)(uint32_t)a->f[ic].v;
	uint64_t comm = a->f[im].v, t = a->f[it].v;
	if (counted) coll_count(m, rec, RO_COUNT, cc, a, ic);
	if (comm >= MPI_D_FIRST_USER_COMM) mpi_use_comm(m, rec, a, RO_COMM, comm);
	if (typed && t >= MPI_D_FIRST_USER_DATATYPE) mpi_use_type(m, rec, a, RO_DATATYPE, t);
	mpi_comm *c = mpi_comm_of(m, comm);
	mpi_inst *in = c ? mpi_inst_of(m, c->inst) : NULL;
	int32_t root = rooted ? (int32_t)(uint32_t)a->f[ir].v : -3;
	if (in && comm != MPI_D_COMM_SELF) {
		mpi_coll cnt = mpi_coll_counts_none();
		if (counted) mpi_count_pair_step(&cnt, (mpi_count_pair){cc, t, RO_COUNT, false});
		mpi_coll_enter_counted(rec, in, root, &cnt);
	}
	if (rooted) coll_root(m, rec, comm, c, root, a, ir);
}
void mpi_fused_coll_pair(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	const uint8_t *ix = mpi_role_ix[rec->fn];
	coll_pair(m, rec, a, ix[RO_COUNT], ix[RO_DATATYPE], ix[RO_COMM], ix[RO_ROOT], false);
}
/* libdumpi's layouts (checks.h): MPI_Barrier (comm), MPI_Bcast (count,
 * datatype, root, comm), MPI_Reduce (count, datatype, op, root, comm),
 * MPI_Allreduce, MPI_Scan, MPI_Exscan (count, datatype, op, comm) */
static void fused_barrier(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	coll_pair(m, rec, a, NO_FIELD, NO_FIELD, BARRIER_COMM, NO_FIELD, true);
}
static void fused_bcast(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	coll_pair(m, rec, a, BCAST_COUNT, BCAST_DATATYPE, BCAST_COMM, BCAST_ROOT, true);
}
static void fused_reduce(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	coll_pair(m, rec, a, REDUCE_COUNT, REDUCE_DATATYPE, REDUCE_COMM, REDUCE_ROOT, true);
}
static void fused_allreduce(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	coll_pair(m, rec, a, ALLREDUCE_COUNT, ALLREDUCE_DATATYPE, ALLREDUCE_COMM, NO_FIELD, true);
}

/* A collective of kind FUSED_COLL_BOTH (MPI_Allgather, MPI_Alltoall): the
 * same, with its send and receive pairs (counts, then the communicator and
 * the two datatypes, in role order), no root and every argument present
 * (compute_plans). */
static inline __attribute__((always_inline)) void coll_both(mpi_rank *m, const dumpi_record *rec,
							    const dumpi_args *a, unsigned isc, unsigned ist,
							    unsigned irc, unsigned irt, unsigned im)
{
	uint64_t comm = a->f[im].v, st = a->f[ist].v, rt = a->f[irt].v;
	int32_t sc = (int32_t)(uint32_t)a->f[isc].v, rc = (int32_t)(uint32_t)a->f[irc].v;
	coll_count(m, rec, RO_SENDCOUNT, sc, a, isc);
	coll_count(m, rec, RO_RECVCOUNT, rc, a, irc);
	if (comm >= MPI_D_FIRST_USER_COMM) mpi_use_comm(m, rec, a, RO_COMM, comm);
	if (st >= MPI_D_FIRST_USER_DATATYPE) mpi_use_type(m, rec, a, RO_SENDTYPE, st);
	if (rt >= MPI_D_FIRST_USER_DATATYPE) mpi_use_type(m, rec, a, RO_RECVTYPE, rt);
	mpi_comm *c = mpi_comm_of(m, comm);
	mpi_inst *in = c ? mpi_inst_of(m, c->inst) : NULL;
	if (in && comm != MPI_D_COMM_SELF) {
		/* the receive pair, then the send pair, which may be MPI_IN_PLACE */
		mpi_coll cnt = mpi_coll_counts_none();
		mpi_count_pair_step(&cnt, (mpi_count_pair){rc, rt, RO_RECVCOUNT, false});
		mpi_count_pair_step(&cnt, (mpi_count_pair){sc, st, RO_SENDCOUNT, true});
		mpi_coll_enter_counted(rec, in, -3, &cnt);
	}
}
void mpi_fused_coll_both(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	const uint8_t *ix = mpi_role_ix[rec->fn];
	coll_both(m, rec, a, ix[RO_SENDCOUNT], ix[RO_SENDTYPE], ix[RO_RECVCOUNT], ix[RO_RECVTYPE], ix[RO_COMM]);
}
/* libdumpi's layout of both (checks.h): sendcount, sendtype, recvcount,
 * recvtype, comm */
static void fused_alltoall(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	coll_both(m, rec, a, BOTH_SENDCOUNT, BOTH_SENDTYPE, BOTH_RECVCOUNT, BOTH_RECVTYPE, BOTH_COMM);
}

/* MPI_Gather and MPI_Scatter (FUSED_COLL) as libdumpi lays them out
 * (checks.h: commrank, then Gather's sendcount, sendtype, root, comm and,
 * at the root alone, recvcount and recvtype; Scatter's the other way round):
 * mpi_fused_coll's steps without its loops over the roles, each argument
 * read once. The root's side is present at the root alone, and the other
 * side is then maybe MPI_IN_PLACE; a pair counts when both its count and
 * its datatype are present (colls.c's scalar_counts). */
static inline __attribute__((always_inline)) void fused_rooted(mpi_rank *m, const dumpi_record *rec,
							       const dumpi_args *a, bool gather)
{
	/* the send side, then the receive side */
	unsigned isc = gather ? ROOTED_COUNT : ROOTED_ROOT_COUNT, irc = gather ? ROOTED_ROOT_COUNT : ROOTED_COUNT;
	unsigned ist = gather ? ROOTED_TYPE : ROOTED_ROOT_TYPE, irt = gather ? ROOTED_ROOT_TYPE : ROOTED_TYPE;
	/* the root's side is its two last fields, the others always present */
	bool hsc = gather || a->f[isc].present, hst = gather || a->f[ist].present;
	bool hrc = !gather || a->f[irc].present, hrt = !gather || a->f[irt].present;
	int32_t sc = (int32_t)(uint32_t)a->f[isc].v, rc = (int32_t)(uint32_t)a->f[irc].v;
	uint64_t st = a->f[ist].v, rt = a->f[irt].v, comm = a->f[ROOTED_COMM].v;
	int32_t root = (int32_t)(uint32_t)a->f[ROOTED_ROOT].v;
	/* counts, then uses, in role order */
	if (hsc) coll_count(m, rec, RO_SENDCOUNT, sc, a, isc);
	if (hrc) coll_count(m, rec, RO_RECVCOUNT, rc, a, irc);
	if (comm >= MPI_D_FIRST_USER_COMM) mpi_use_comm(m, rec, a, RO_COMM, comm);
	if (hst && st >= MPI_D_FIRST_USER_DATATYPE) mpi_use_type(m, rec, a, RO_SENDTYPE, st);
	if (hrt && rt >= MPI_D_FIRST_USER_DATATYPE) mpi_use_type(m, rec, a, RO_RECVTYPE, rt);
	mpi_comm *c = mpi_comm_of(m, comm);
	mpi_inst *in = c ? mpi_inst_of(m, c->inst) : NULL;
	if (in && comm != MPI_D_COMM_SELF) {
		mpi_coll cnt = mpi_coll_counts_none();
		if (gather) {
			if (hrc && hrt) mpi_count_pair_step(&cnt, (mpi_count_pair){rc, rt, RO_RECVCOUNT, false});
			mpi_count_pair_step(&cnt, (mpi_count_pair){sc, st, RO_SENDCOUNT, hrc});
		} else {
			if (hsc && hst) mpi_count_pair_step(&cnt, (mpi_count_pair){sc, st, RO_SENDCOUNT, false});
			mpi_count_pair_step(&cnt, (mpi_count_pair){rc, rt, RO_RECVCOUNT, hsc});
		}
		mpi_coll_enter_counted(rec, in, root, &cnt);
	}
	coll_root(m, rec, comm, c, root, a, ROOTED_ROOT);
}
static void fused_gather(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a) { fused_rooted(m, rec, a, true); }
static void fused_scatter(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a) { fused_rooted(m, rec, a, false); }

dumpi_layer_path *mpi_fused_coll_path(unsigned fn, unsigned kind)
{
	/* the functions whose fields are at libdumpi's places (mpi_at_places; for
	 * each kind, the rows' plans are the kind's, their counts and uses
	 * those the path reads, in role order, and no root-only field but
	 * Gather's and Scatter's root's side, whose presence fused_rooted
	 * tests) */
	if (!mpi_at_places[fn]) return NULL;
	switch (kind) {
	case FUSED_COLL_PAIR:
		if (fn == 52) return fused_barrier;
		if (fn == 53) return fused_bcast;
		if (fn == 62) return fused_reduce;
		return fn == 65 || fn == 67 || fn == 156 ? fused_allreduce : NULL;
	case FUSED_COLL_BOTH: return fn == 58 || fn == 60 ? fused_alltoall : NULL;
	case FUSED_COLL:
		if (fn == 54) return fused_gather;
		if (fn == 56) return fused_scatter;
		return NULL;
	default: return NULL;
	}
}
