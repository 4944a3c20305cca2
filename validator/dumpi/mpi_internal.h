/* State shared by the per-rank pass (mpi_rank.c) and the cross-rank stage
 * (mpi_match.c). Not part of any API. */
#ifndef HV_DUMPI_MPI_INTERNAL_H
#define HV_DUMPI_MPI_INTERNAL_H

#include "../core/validate.h"
#include "mpi_check.h"
#include "mpi_map.h"

/* Argument roles, found by field name in the layout table once. */
enum mpi_role {
	RO_COUNT, RO_SENDCOUNT, RO_RECVCOUNT,
	RO_DATATYPE, RO_SENDTYPE, RO_RECVTYPE, RO_OLDTYPE, RO_NEWTYPE,
	RO_DEST, RO_SOURCE, RO_ROOT,
	RO_TAG, RO_SENDTAG, RO_RECVTAG,
	RO_COMM, RO_OLDCOMM, RO_NEWCOMM,
	RO_REQUEST, RO_REQUESTS, RO_INDEX, RO_FLAG, RO_OUTCOUNT, RO_INDICES,
	RO_STATUS, RO_STATUSES,
	RO_COLOR, RO_KEY, RO_SIZE, RO_RANK,
	RO_COUNT_ROLES
};

/* A rank reference whose communicator size was not known when it was
 * read: the largest one per communicator, checked when the size is known. */
typedef struct mpi_rankref {
	int64_t max;          /* largest rank named (-1: none) */
	uint64_t rec, off;    /* the record naming it */
	uint16_t fn;
	uint8_t role;
} mpi_rankref;

/* A communicator index of this rank. */
typedef struct mpi_comm {
	uint8_t state;        /* 0 never seen, 1 live, 2 freed */
	int64_t size;         /* -1: unknown */
	uint64_t size_rec;    /* the MPI_Comm_size record it came from */
	uint64_t freed_rec;
	mpi_rankref ref;
} mpi_comm;

typedef struct mpi_req {
	uint8_t kind;         /* REQ_* */
	bool cancelled;
	uint16_t fn;          /* the call that created it */
	uint64_t rec, off;
} mpi_req;
enum { REQ_ACTIVE = 1, REQ_PERSIST_IDLE, REQ_PERSIST_ACTIVE };

struct mpi_rank {
	hv_report *r;
	hv_blob *b;
	const char *file;
	uint8_t version[3];
	long rank;
	/* a private window for array arguments (the stream walk owns its own) */
	hv_window win;
	bool win_ok;
	bool finalized, complete, ended, io_requests;
	uint64_t records;
	uint64_t last_rec, last_off;
	uint16_t last_fn;
	mpi_map comms;        /* comm index -> mpi_comm */
	mpi_map types;        /* freed datatype index -> record that freed it */
	mpi_map reqs;         /* request index -> mpi_req */
};

#endif
