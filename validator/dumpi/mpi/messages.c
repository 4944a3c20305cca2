/* Blocking messages of the per-rank pass (MPI_Send and its modes, MPI_Recv,
 * MPI_Sendrecv[_replace]), tallied on their channels (chans.c). The
 * request life cycles (requests.c) count a nonblocking message when it
 * starts or completes; the cross-rank stage (match.c) matches the tallies. */

#include "pass.h"

bool mpi_messages_of(unsigned fn) { return fn == 0 || (fn >= 3 && fn <= 5) || fn == 1 || fn == 33 || fn == 34; }

void mpi_messages(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a)
{
	unsigned fn = rec->fn;
	if (fn == 0 || (fn >= 3 && fn <= 5)) {
		mpi_msg g = mpi_msg_from(m, fn, a, false, RO_COUNT, RO_DEST, RO_TAG, RO_DATATYPE);
		mpi_send_msg(m, rec, &g);
	} else if (fn == 1) {
		mpi_msg g = mpi_msg_from(m, fn, a, true, RO_COUNT, RO_SOURCE, RO_TAG, RO_DATATYPE);
		mpi_recv_msg(m, rec, &g, mpi_status_of(m, fn, a, RO_STATUS, 0));
	} else if (fn == 33 || fn == 34) {
		bool rep = fn == 34;
		mpi_msg s = mpi_msg_from(m, fn, a, false, rep ? RO_COUNT : RO_SENDCOUNT, RO_DEST, RO_SENDTAG,
					 rep ? RO_DATATYPE : RO_SENDTYPE);
		mpi_msg r = mpi_msg_from(m, fn, a, true, rep ? RO_COUNT : RO_RECVCOUNT, RO_SOURCE, RO_RECVTAG,
					 rep ? RO_DATATYPE : RO_RECVTYPE);
		mpi_send_msg(m, rec, &s);
		mpi_recv_msg(m, rec, &r, mpi_status_of(m, fn, a, RO_STATUS, 0));
	}
}
