/* Where libdumpi puts the fields of the functions whose paths read them at
 * constant argument indices, and whether each function's layout has them
 * there (places.h): one table, asked once with the plans. */
#include <string.h>

#include "checks.h"

bool mpi_at_places[DUMPI_NFUNCS];

/* The plans the paths are written for (rank.c's compute_plans makes them
 * from the roles): a path makes its plan's checks in the plan's order, so
 * a function whose plan had another step would lose it there. */
#define PL_SEND (PLAN_COUNTS | PLAN_USES | PLAN_MSG | PLAN_RANKS)
#define PL_RECV (PLAN_COUNTS | PLAN_STATUS | PLAN_USES | PLAN_MSG | PLAN_RANKS)
#define PL_NONBLOCKING (PLAN_COUNTS | PLAN_USES | PLAN_RANKS | PLAN_REQ)
#define PL_SENDRECV (PLAN_COUNTS | PLAN_STATUS | PLAN_USES | PLAN_MSG | PLAN_RANKS)
#define PL_REQS (PLAN_COUNTS | PLAN_REQ)
#define PL_COLL (PLAN_COUNTS | PLAN_USES | PLAN_COLL | PLAN_RANKS)
#define ALL DUMPI_MAX_FIELDS
#define END {RO_COUNT_ROLES, 0}
#define SEND_AT {RO_COUNT, P2P_COUNT}, {RO_DATATYPE, P2P_DATATYPE}, {RO_DEST, P2P_PEER}, {RO_TAG, P2P_TAG}, {RO_COMM, P2P_COMM}
#define RECV_AT {RO_COUNT, P2P_COUNT}, {RO_DATATYPE, P2P_DATATYPE}, {RO_SOURCE, P2P_PEER}, {RO_TAG, P2P_TAG}, {RO_COMM, P2P_COMM}
#define SEND_ROW(fn) {fn, PL_SEND, ALL, {SEND_AT, END}}
#define ISEND_ROW(fn) {fn, PL_NONBLOCKING, ALL, {SEND_AT, {RO_REQUEST, P2P_REQUEST}, END}}
#define IRECV_ROW(fn) {fn, PL_NONBLOCKING, ALL, {RECV_AT, {RO_REQUEST, P2P_REQUEST}, END}}
#define ALLREDUCE_ROW(fn) \
	{fn, PL_COLL, ALL, {{RO_COUNT, ALLREDUCE_COUNT}, {RO_DATATYPE, ALLREDUCE_DATATYPE}, {RO_COMM, ALLREDUCE_COMM}, END}}
#define BOTH_ROW(fn)                                                                                               \
	{fn, PL_COLL, ALL,                                                                                         \
	 {{RO_SENDCOUNT, BOTH_SENDCOUNT}, {RO_SENDTYPE, BOTH_SENDTYPE}, {RO_RECVCOUNT, BOTH_RECVCOUNT},            \
	  {RO_RECVTYPE, BOTH_RECVTYPE}, {RO_COMM, BOTH_COMM}, END}}

/* By function id (dumpi/common/funclabels.h), each with every role its
 * libdumpi layout has (fields of no role, as MPI_Reduce's op, are not
 * listed). Only Gather's and Scatter's root's sides may be root-only:
 * their path tests the presence of those two fields alone. */
static const mpi_place places[] = {
	/* fused.c's point-to-point paths (fused_p2p and its common cases) */
	SEND_ROW(0), SEND_ROW(3), SEND_ROW(4), SEND_ROW(5),
	{1, PL_RECV, ALL, {RECV_AT, {RO_STATUS, P2P_STATUS}, END}},
	ISEND_ROW(8), ISEND_ROW(9), ISEND_ROW(10), ISEND_ROW(11), IRECV_ROW(12),
	ISEND_ROW(26), ISEND_ROW(27), ISEND_ROW(28), ISEND_ROW(29), IRECV_ROW(30),
	/* the request paths: mpi_request_wait (requests.c), request_test_at,
	 * request_free_at (fused.c), mpi_request_waitany (requests.c),
	 * fused_waitall_at, fused_startall (fused.c) */
	{13, PLAN_REQ, ALL, {{RO_REQUEST, WAIT_REQUEST}, {RO_STATUS, WAIT_STATUS}, END}},
	{14, PLAN_REQ, ALL, {{RO_REQUEST, TEST_REQUEST}, {RO_FLAG, TEST_FLAG}, {RO_STATUS, TEST_STATUS}, END}},
	{15, PLAN_REQ, ALL, {{RO_REQUEST, FREE_REQUEST}, END}},
	{16, PL_REQS, ALL,
	 {{RO_COUNT, WAITANY_COUNT}, {RO_REQUESTS, WAITANY_REQUESTS}, {RO_INDEX, WAITANY_INDEX},
	  {RO_STATUS, WAITANY_STATUS}, END}},
	{18, PL_REQS, ALL,
	 {{RO_COUNT, WAITALL_COUNT}, {RO_REQUESTS, WAITALL_REQUESTS}, {RO_STATUSES, WAITALL_STATUSES}, END}},
	{32, PL_REQS, ALL, {{RO_COUNT, STARTALL_COUNT}, {RO_REQUESTS, STARTALL_REQUESTS}, END}},
	/* fused.c's MPI_Sendrecv and MPI_Sendrecv_replace (sendrecv_hot) */
	{33, PL_SENDRECV, ALL,
	 {{RO_SENDCOUNT, SR_SENDCOUNT}, {RO_SENDTYPE, SR_SENDTYPE}, {RO_DEST, SR_DEST}, {RO_SENDTAG, SR_SENDTAG},
	  {RO_RECVCOUNT, SR_RECVCOUNT}, {RO_RECVTYPE, SR_RECVTYPE}, {RO_SOURCE, SR_SOURCE}, {RO_RECVTAG, SR_RECVTAG},
	  {RO_COMM, SR_COMM}, {RO_STATUS, SR_STATUS}, END}},
	{34, PL_SENDRECV, ALL,
	 {{RO_COUNT, SRR_COUNT}, {RO_DATATYPE, SRR_DATATYPE}, {RO_DEST, SRR_DEST}, {RO_SENDTAG, SRR_SENDTAG},
	  {RO_SOURCE, SRR_SOURCE}, {RO_RECVTAG, SRR_RECVTAG}, {RO_COMM, SRR_COMM}, {RO_STATUS, SRR_STATUS}, END}},
	/* rank.c's datatype paths (type_call with constants) */
	{35, PLAN_COUNTS | PLAN_USES | PLAN_HANDLES, ALL,
	 {{RO_COUNT, CONTIG_COUNT}, {RO_OLDTYPE, CONTIG_OLDTYPE}, {RO_NEWTYPE, CONTIG_NEWTYPE}, END}},
	{43, PLAN_USES, ALL, {{RO_DATATYPE, TYPEARG_DATATYPE}, {RO_SIZE, TYPEARG_SIZE}, END}},
	{46, PLAN_USES, ALL, {{RO_DATATYPE, TYPEARG_DATATYPE}, END}},
	{47, PLAN_USES | PLAN_HANDLES, ALL, {{RO_DATATYPE, TYPEARG_DATATYPE}, END}},
	/* fusedcoll.c's collectives (coll_pair, coll_both, fused_rooted) */
	{52, PLAN_USES | PLAN_COLL | PLAN_RANKS, ALL, {{RO_COMM, BARRIER_COMM}, END}},
	{53, PL_COLL, ALL,
	 {{RO_COUNT, BCAST_COUNT}, {RO_DATATYPE, BCAST_DATATYPE}, {RO_ROOT, BCAST_ROOT}, {RO_COMM, BCAST_COMM}, END}},
	{54, PL_COLL, ROOTED_ROOT_COUNT,
	 {{RO_COMMRANK, ROOTED_COMMRANK}, {RO_SENDCOUNT, ROOTED_COUNT}, {RO_SENDTYPE, ROOTED_TYPE},
	  {RO_ROOT, ROOTED_ROOT}, {RO_COMM, ROOTED_COMM}, {RO_RECVCOUNT, ROOTED_ROOT_COUNT},
	  {RO_RECVTYPE, ROOTED_ROOT_TYPE}, END}},
	{56, PL_COLL, ROOTED_ROOT_COUNT,
	 {{RO_COMMRANK, ROOTED_COMMRANK}, {RO_RECVCOUNT, ROOTED_COUNT}, {RO_RECVTYPE, ROOTED_TYPE},
	  {RO_ROOT, ROOTED_ROOT}, {RO_COMM, ROOTED_COMM}, {RO_SENDCOUNT, ROOTED_ROOT_COUNT},
	  {RO_SENDTYPE, ROOTED_ROOT_TYPE}, END}},
	BOTH_ROW(58), BOTH_ROW(60),
	{62, PL_COLL, ALL,
	 {{RO_COUNT, REDUCE_COUNT}, {RO_DATATYPE, REDUCE_DATATYPE}, {RO_ROOT, REDUCE_ROOT}, {RO_COMM, REDUCE_COMM}, END}},
	ALLREDUCE_ROW(65), ALLREDUCE_ROW(67), ALLREDUCE_ROW(156),
};

const mpi_place *mpi_place_of(unsigned fn)
{
	for (size_t k = 0; k < sizeof places / sizeof places[0]; k++)
		if (places[k].fn == fn) return &places[k];
	return NULL;
}

/* Whether list (a count or use role row, RO_COUNT_ROLES ended) holds the
 * roles of `order` that want places, in that order, and no other. */
static bool same_roles(const uint8_t *list, const uint8_t *order, size_t n, const int8_t *want)
{
	for (size_t k = 0; k < n; k++)
		if (want[order[k]] >= 0 && *list++ != order[k]) return false;
	return *list == RO_COUNT_ROLES;
}

bool mpi_place_fits(const mpi_place *p, const dumpi_layout *L, const int8_t *ro, uint8_t plan, const uint8_t *cr,
		    const uint8_t *ur)
{
	if (!p || !L || plan != p->plan) return false;
	for (unsigned i = 0; i < L->nfields && i < p->fixed; i++)
		if (L->fields[i].root_only) return false;
	int8_t want[RO_COUNT_ROLES];
	memset(want, -1, sizeof want);
	for (unsigned j = 0; j < MPI_PLACES_MAX && p->at[j][0] != RO_COUNT_ROLES; j++) want[p->at[j][0]] = (int8_t)p->at[j][1];
	for (unsigned k = 0; k < RO_COUNT_ROLES; k++)
		if (ro[k] != want[k]) return false;
	/* The paths check counts and uses at their places in role order, the
	 * order mpi_check_counts and mpi_uses walk these rows (compute_plans
	 * leaves some handle roles out of them by function): the rows must be
	 * the listed roles, in that order. */
	static const uint8_t counts[] = {RO_COUNT, RO_SENDCOUNT, RO_RECVCOUNT};
	static const uint8_t uses[] = {RO_COMM, RO_OLDCOMM, RO_DATATYPE, RO_SENDTYPE, RO_RECVTYPE, RO_OLDTYPE};
	return same_roles(cr, counts, sizeof counts, want) && same_roles(ur, uses, sizeof uses, want);
}

void mpi_places_compute(void)
{
	for (unsigned fn = 0; fn < DUMPI_NFUNCS; fn++)
		mpi_at_places[fn] = mpi_place_fits(mpi_place_of(fn), dumpi_layout_of(fn), mpi_roles[fn], mpi_plans[fn],
						   mpi_count_roles[fn], mpi_use_roles[fn]);
}
