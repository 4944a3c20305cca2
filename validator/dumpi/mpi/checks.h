/* The per-record argument checks of the pass (rank.c) that its fused paths
 * (fused.c) make as well, each function's plan: which checks its
 * arguments can feed, computed once from its roles (rank.c), and where
 * libdumpi puts the fields the paths read at constant places. The fused
 * paths are the common records' steps, each argument read once, made in
 * the order the plan makes them; rank.c's dispatch calls them. */
#ifndef HV_DUMPI_MPI_CHECKS_H
#define HV_DUMPI_MPI_CHECKS_H

#include "pass.h"

/* ---- each function's plan (rank.c computes them) ---- */

/* Which per-record checks a function's arguments can feed, from its roles
 * (compute_roles): a record skips the checks that would look up roles its
 * function has none of, and find nothing. */
enum {
	PLAN_COUNTS = 1,   /* a count role checked for sign (mpi_check_counts) */
	PLAN_USES = 2,     /* a communicator or datatype input (mpi_uses) */
	PLAN_HANDLES = 4,  /* creates, frees or sizes a handle (rank.c's handles) */
	PLAN_RANKS = 8,    /* names a communicator: ranks and tags (rank.c's ranks_and_tags) */
	PLAN_COLL = 16,    /* a collective (mpi_collectives) */
	PLAN_MSG = 32,     /* a blocking message (mpi_messages) */
	PLAN_REQ = 64,     /* creates, completes or names requests (mpi_requests) */
	PLAN_STATUS = 128, /* makes or reads a status (rank.c's status_reads) */
};
extern uint8_t mpi_plans[DUMPI_NFUNCS];
/* The path each function's records take (rank.c's dispatch): the common
 * point-to-point records (MPI_Send and its modes, MPI_Recv, MPI_Isend and
 * its modes, MPI_Irecv, the persistent inits) a fused path (fused.c):
 * their arguments read once, the same checks in the same order as their
 * plan; MPI_Wait, whose plan is its request alone, goes straight to it;
 * the others as compute_plans (rank.c) says. */
enum {
	FUSED_SEND = 1, FUSED_RECV, FUSED_ISEND, FUSED_IRECV, FUSED_WAIT, FUSED_WAITALL, FUSED_COLL, FUSED_SENDRECV,
	FUSED_REQS, FUSED_USES, FUSED_NOTHING, FUSED_SOME, FUSED_COLL_PAIR,
	FUSED_COLL_BOTH
};
/* ---- libdumpi's places (fused.c's table) ---- */

/* Where libdumpi puts the fields of the functions whose paths read them at
 * constant argument indices ("libdumpi's places": the point-to-point,
 * request and collective paths of fused.c, fusedcoll.c and requests.c,
 * rank.c's datatype paths), and whether each function's layout really has
 * them there. The layout table (dumpi/format/funcs.def) is libdumpi's, so
 * it does; the question is asked once, in one place (fused.c's table of
 * places, when compute_plans makes the plans), so that a function laid
 * out otherwise goes to a path that finds its fields through its roles,
 * and no record pays for the question. */

/* A point-to-point record (count, datatype, peer, tag, comm, then its
 * request, or MPI_Recv's status): MPI_Send and its modes, MPI_Recv,
 * MPI_Isend and its modes, MPI_Irecv, the persistent inits. */
enum { P2P_COUNT, P2P_DATATYPE, P2P_PEER, P2P_TAG, P2P_COMM, P2P_REQUEST };
enum { P2P_STATUS = P2P_REQUEST };
/* MPI_Sendrecv, and MPI_Sendrecv_replace (its one count and datatype where
 * the send's are); the status follows the communicator. */
enum { SR_SENDCOUNT, SR_SENDTYPE, SR_DEST, SR_SENDTAG, SR_RECVCOUNT, SR_RECVTYPE, SR_SOURCE, SR_RECVTAG, SR_COMM,
       SR_STATUS };
enum { SRR_COUNT, SRR_DATATYPE, SRR_DEST, SRR_SENDTAG, SRR_SOURCE, SRR_RECVTAG, SRR_COMM, SRR_STATUS };
/* The request calls: MPI_Wait, MPI_Test, MPI_Request_free, MPI_Waitany,
 * MPI_Waitall, MPI_Startall. */
enum { WAIT_REQUEST, WAIT_STATUS };
enum { TEST_REQUEST, TEST_FLAG, TEST_STATUS };
enum { FREE_REQUEST };
enum { WAITANY_COUNT, WAITANY_REQUESTS, WAITANY_INDEX, WAITANY_STATUS };
enum { WAITALL_COUNT, WAITALL_REQUESTS, WAITALL_STATUSES };
enum { STARTALL_COUNT, STARTALL_REQUESTS };
/* The collectives: MPI_Barrier; MPI_Bcast; MPI_Reduce; MPI_Allreduce,
 * MPI_Scan and MPI_Exscan; MPI_Allgather and MPI_Alltoall; MPI_Gather and
 * MPI_Scatter (ROOTED_: Gather's send side, Scatter's receive side, then
 * the root's side, its two last fields, present at the root alone). */
enum { BARRIER_COMM };
enum { BCAST_COUNT, BCAST_DATATYPE, BCAST_ROOT, BCAST_COMM };
enum { REDUCE_COUNT, REDUCE_DATATYPE, REDUCE_OP, REDUCE_ROOT, REDUCE_COMM };
enum { ALLREDUCE_COUNT, ALLREDUCE_DATATYPE, ALLREDUCE_OP, ALLREDUCE_COMM };
enum { BOTH_SENDCOUNT, BOTH_SENDTYPE, BOTH_RECVCOUNT, BOTH_RECVTYPE, BOTH_COMM };
enum { ROOTED_COMMRANK, ROOTED_COUNT, ROOTED_TYPE, ROOTED_ROOT, ROOTED_COMM, ROOTED_ROOT_COUNT, ROOTED_ROOT_TYPE };
/* The datatype calls: MPI_Type_contiguous; MPI_Type_commit and
 * MPI_Type_free (datatype), MPI_Type_size (datatype, size). */
enum { CONTIG_COUNT, CONTIG_OLDTYPE, CONTIG_NEWTYPE };
enum { TYPEARG_DATATYPE, TYPEARG_SIZE };

/* One function's places (a row of fused.c's table): the plan its path is
 * written for, the field of each role it has (in field order, ended by
 * RO_COUNT_ROLES; every role not listed must be absent), and how many of
 * its first fields must be no root-only one (DUMPI_MAX_FIELDS: none may
 * be), as its path reads those without testing their presence. */
#define MPI_PLACES_MAX 11
typedef struct mpi_place {
	uint16_t fn;
	uint8_t plan;
	uint8_t fixed;
	uint8_t at[MPI_PLACES_MAX][2];
} mpi_place;

/* Whether function fn's layout puts its fields where its row says, with
 * the row's plan (mpi_places_compute): what rank.c, fused.c and
 * fusedcoll.c ask before giving a function a path that reads them there.
 * False for a function with no row. */
extern bool mpi_at_places[DUMPI_NFUNCS];
/* Fill mpi_at_places from the roles and plans (fused.c): compute_plans
 * calls it once (under its pthread_once), after the plans and before it
 * chooses the paths. */
void mpi_places_compute(void);
/* Function fn's row (NULL: none), and whether a function laid out as L,
 * with roles ro (an mpi_roles row), plan `plan` and count and use roles cr
 * and ur (mpi_count_roles, mpi_use_roles rows; cr NULL: the count roles
 * compute_plans makes of ro, not compared) fits row p: what
 * mpi_places_compute asks of each function, and the tests of layouts
 * other than the table's. */
const mpi_place *mpi_place_of(unsigned fn);
bool mpi_place_fits(const mpi_place *p, const dumpi_layout *L, const int8_t *ro, uint8_t plan, const uint8_t *cr,
		    const uint8_t *ur);

/* The count roles a function has, and the handle inputs (communicators,
 * then datatypes) mpi_uses() looks at, in role order; RO_COUNT_ROLES ends each. */
extern uint8_t mpi_count_roles[DUMPI_NFUNCS][4], mpi_use_roles[DUMPI_NFUNCS][7];

/* ---- argument checks (rank.c; the handles' uses reuse.c) ---- */

/* The checks below take a field as the args and its index (i), not its
 * offset: dumpi_arg_at then runs only where a check reports (an offset
 * computed before the evaluation's count, a store, is not moved past it). */

/* Count argument `ro` of value c (field i of a). */
static inline void mpi_check_count(mpi_rank *m, const dumpi_record *rec, int ro, int32_t c, const dumpi_args *a,
				   unsigned i)
{
	if (!hv_eval(m->r, HV_R_DUMPI_MPI_COUNT_NEGATIVE, c >= 0))
		mpi_emit(m, HV_R_DUMPI_MPI_COUNT_NEGATIVE, rec, dumpi_arg_at(a, rec->fn, i), 4, "%s is %d; counts are >= 0",
			 mpi_role_label(ro), c);
}

/* The count roles of a record whose plan has PLAN_COUNTS. */
void mpi_check_counts(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);

/* Whether rank x lies in a communicator of known size `size`: x >= 0,
 * size >= 0 and x < size in one comparison, with no branch to mispredict
 * on the negative ranks (MPI_PROC_NULL, MPI_ANY_SOURCE) mixed in. A size
 * is an int of the file or -1 (mpi_comm.size), so a negative x, read as
 * unsigned, is never below one. */
static inline bool mpi_rank_inside(int32_t x, int64_t size)
{
	return (int64_t)(uint32_t)x < size;
}

/* Rank argument `ro` of value x (field i of a) on communicator `comm`: a
 * negative one (the constants DUMPI writes), and one checked against the
 * communicator found (c), out of line. */
void mpi_check_rank_any(mpi_rank *m, const dumpi_record *rec, uint64_t comm, int ro, int32_t x, const dumpi_args *a,
			unsigned i);
void mpi_check_rank_in(mpi_rank *m, const dumpi_record *rec, uint64_t comm, int ro, int32_t x, const dumpi_args *a,
		       unsigned i, mpi_comm *c);
static inline void mpi_check_rank(mpi_rank *m, const dumpi_record *rec, uint64_t comm, int ro, int32_t x,
				  const dumpi_args *a, unsigned i)
{
	if (x < 0) {
		mpi_check_rank_any(m, rec, comm, ro, x, a, i);
		return;
	}
	/* most ranks lie inside a communicator of known size */
	mpi_comm *c = mpi_comm_of(m, comm);
	if (c && mpi_rank_inside(x, c->size)) hv_eval(m->r, HV_R_DUMPI_MPI_RANK_RANGE, true);
	else if (c) mpi_check_rank_in(m, rec, comm, ro, x, a, i, c);
}

/* Tag argument `ro` of value t (field i of a). */
static inline void mpi_check_tag(mpi_rank *m, const dumpi_record *rec, int ro, int32_t t, const dumpi_args *a,
				 unsigned i, bool receive)
{
	bool ok = t >= 0 || (receive && t == MPI_D_ANY_TAG);
	if (!hv_eval(m->r, HV_R_DUMPI_MPI_TAG_RANGE, ok))
		mpi_emit(m, HV_R_DUMPI_MPI_TAG_RANGE, rec, dumpi_arg_at(a, rec->fn, i), 4, "%s %d is negative%s", mpi_role_label(ro), t,
			 receive ? " and not MPI_ANY_TAG (-1)" : "; send tags are >= 0");
}

/* The handles a record uses (mpi_uses, reuse.c), and one communicator or datatype
 * input of a user handle (id at or above the first user index; most
 * records name predefined ones, and are not looked up). */
void mpi_uses(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_use_comm(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, int ro, uint64_t id);
/* A use of a datatype the rank freed and made no more since (its entry in
 * mpi_pass.types set): reuse.c's share of it. */
void mpi_use_type_freed(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a, int ro, uint64_t id);
static inline __attribute__((always_inline)) void mpi_use_type(mpi_rank *m, const dumpi_record *rec,
							       const dumpi_args *a, int ro, uint64_t id)
{
	/* most uses are of a datatype never freed, or made again since (its
	 * chunk absent, or its entry 0), seen here without a call */
	hv_eval(m->r, HV_R_DUMPI_MPI_HANDLE_FREED, true);
	const mpi_pass *p = m->pass;
	if (id >= TYPE_INDICES || !p->types) return;
	const uint64_t *c = p->types[id / TYPE_CHUNK];
	if (c && c[id % TYPE_CHUNK]) mpi_use_type_freed(m, rec, a, ro, id);
}


/* ---- the fused paths (fused.c) ---- */

void mpi_fused_send(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_fused_recv(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_fused_isend(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_fused_irecv(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_fused_coll(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_fused_coll_pair(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_fused_coll_both(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_fused_sendrecv(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_fused_waitall(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_fused_some(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
void mpi_fused_reqs(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
/* The path of its own a request call of kind `kind` (FUSED_*) takes, or
 * NULL for its kind's: MPI_Startall, MPI_Test and MPI_Request_free,
 * frequent in the mix and in real traces, one of their own (no switch on
 * the function, their roles read once) when their count, if any, is their
 * only count role, the other FUSED_REQS calls mpi_fused_reqs; MPI_Waitall,
 * MPI_Waitany and MPI_Startall (and MPI_Test and MPI_Request_free), when
 * libdumpi's layout puts their fields where these read them
 * (mpi_at_places), ones that read them there; the persistent inits,
 * of the nonblocking calls' kinds, copies of their own. */
dumpi_layer_path *mpi_fused_req_path(unsigned fn, unsigned kind);

#endif
