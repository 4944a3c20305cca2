/* Where libdumpi puts the fields of the functions whose paths read them at
 * constant argument indices ("libdumpi's places": the point-to-point,
 * request and collective paths of fused.c, fusedcoll.c and requests.c,
 * rank.c's datatype paths), and whether each function's layout really has
 * them there. The layout table (dumpi/format/funcs.def) is libdumpi's, so
 * it does; the question is asked once, in one place (places.c, when
 * rank.c's compute_plans makes the plans), so that a layout laid out
 * otherwise sends the function to a path that finds its fields through
 * its roles, and no record pays for the question. */
#ifndef HV_DUMPI_MPI_PLACES_H
#define HV_DUMPI_MPI_PLACES_H

#include "pass.h"

/* ---- the places, by function (the paths read their fields here) ---- */

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

/* ---- the table, and its answer ---- */

/* One function's places (places.c): the plan its path is written for, the
 * field of each role it has (in field order, ended by RO_COUNT_ROLES;
 * every role not listed must be absent), and how many of its first fields
 * must be no root-only one (DUMPI_MAX_FIELDS: none may be), as its path
 * reads those without testing their presence. */
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
/* Fill mpi_at_places from the roles and plans: rank.c's compute_plans
 * calls it once (under its pthread_once), after the plans and before it
 * chooses the paths. */
void mpi_places_compute(void);
/* Function fn's row (NULL: none), and whether a function laid out as L,
 * with roles ro (an mpi_roles row), plan `plan` and count and use roles cr
 * and ur (mpi_count_roles, mpi_use_roles rows) fits row p: what
 * mpi_places_compute asks of each function, and the tests of layouts
 * other than the table's. */
const mpi_place *mpi_place_of(unsigned fn);
bool mpi_place_fits(const mpi_place *p, const dumpi_layout *L, const int8_t *ro, uint8_t plan, const uint8_t *cr,
		    const uint8_t *ur);

#endif
