/* The MPI consistency layer over decoded DUMPI records (rules in
 * rules.def). Two stages, so ranks can be checked in parallel:
 *  - per rank (rank.c, messages.c, colls.c, requests.c):
 *    one pass over the rank's records as the stream is walked: argument
 *    validity, handle and request life cycles, and a small summary of what
 *    other ranks must agree with;
 *  - across ranks (match.c, comms.c, collmatch.c): the
 *    summaries of all ranks of one trace, merged in rank order.
 * Memory is bounded by what is live or unresolved (requests, communicators,
 * message channels), not by the number of records. */
#ifndef HV_DUMPI_MPI_CHECK_H
#define HV_DUMPI_MPI_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/report.h"
#include "core/wire.h"
#include "dumpi/dumpi.h"

/* Predefined handle indices (sst-dumpi dumpi/common/constants.h). */
enum {
	MPI_D_COMM_NULL = 1,
	MPI_D_COMM_WORLD = 2,
	MPI_D_COMM_SELF = 3,
	MPI_D_FIRST_USER_COMM = 4,
	MPI_D_REQUEST_NULL = 1,
	MPI_D_FIRST_USER_DATATYPE = 28,
};
/* Rank and tag constants as DUMPI writes them (see rules.def). */
#define MPI_D_ANY_SOURCE (-1)
#define MPI_D_ANY_TAG (-1)
#define MPI_D_ROOT (-2)

typedef struct mpi_rank mpi_rank;

/* A pass over one rank file `b` (its diagnostics go to `r`). NULL when out
 * of memory (reported on r). */
mpi_rank *mpi_rank_new(hv_blob *b, hv_report *r, const uint8_t version[3]);
/* The footer's per-function counts (`n` entries, indexed by function id):
 * calls ignored while tracing was off are not in the stream. Call before
 * the first record. */
void mpi_rank_set_ignored(mpi_rank *m, uint64_t footer_off, const uint32_t *called, const uint32_t *ignored,
			  unsigned n);
/* What not recording function `fn` hides from the checks (0: nothing; else
 * a mask of IGN_* in internal.h). */
unsigned mpi_ignored_hides(unsigned fn);
/* One decoded record, in stream order. */
void mpi_rank_record(mpi_rank *m, const dumpi_record *rec, const dumpi_args *a);
/* The same, as the stream walk hands records over (dumpi_layer in
 * dumpi.h): each record through its function's path, with no bookkeeping
 * a record; the walk, which hands over every record of its stream in order
 * from index 0, names the last one with mpi_rank_walked before
 * mpi_rank_end. mpi_rank_record keeps that count and last record itself,
 * for callers that feed records one by one (tests). */
const dumpi_layer *mpi_rank_layer(mpi_rank *m);
void mpi_rank_walked(mpi_rank *m, const dumpi_record *last);
/* The stream ended: `complete` when it reached its end label intact. Runs
 * the end-of-rank checks and drops per-record state; what the cross-rank
 * stage needs stays. */
void mpi_rank_end(mpi_rank *m, bool complete);
void mpi_rank_free(mpi_rank *m);
/* The user's options (hv_options.dumpi_mpi, .dumpi_replay): call after
 * mpi_rank_new or mpi_rank_load. */
void mpi_rank_set_options(mpi_rank *m, const hv_options *opt);
/* The world rank of this file (from its -NNNN.bin name, else its
 * MPI_Comm_rank(MPI_COMM_WORLD) record), or -1. */
long mpi_rank_world_rank(const mpi_rank *m);
void mpi_rank_set_world_rank(mpi_rank *m, long rank);

/* An ended rank's summary as bytes (wire.c), for hpcvet-mpi, where the
 * rank file was checked by another process (NULL travels too). load builds
 * it for blob `b` (whose name it takes; diagnostics go to `rep`) from bytes
 * that are input: *ok false when they are malformed or memory ran out. */
void mpi_rank_save(const mpi_rank *m, hv_wbuf *w);
mpi_rank *mpi_rank_load(hv_rbuf *r, hv_blob *b, hv_report *rep, bool *ok);
/* The same, as a skeleton when `skeleton`: channels without their message
 * sizes, for a cross-rank stage partitioned over processes (the process
 * that checked the rank file holds it whole; mpi_trace_check_over). */
mpi_rank *mpi_rank_load_as(hv_rbuf *r, hv_blob *b, hv_report *rep, bool skeleton, bool *ok);

/* Cross-rank checks of one trace: `ranks[i]` may be NULL (missing or
 * unreadable rank file); `world_size` is the .meta numprocs (0: unknown).
 * Diagnostics go to `r`. */
void mpi_trace_check(const hv_options *opt, hv_report *r, mpi_rank *const *ranks, size_t n, uint64_t world_size);
/* The same over the processes of `part` (hpcvet-mpi's units runner; NULL:
 * mpi_trace_check), which every process calls with the same ranks: each
 * holds whole the ranks it checked and the others as skeletons
 * (mpi_rank_load_as), and matches the messages to the ranks it holds whole
 * (part.c). The report is the same on every process, and the same as
 * mpi_trace_check's with every rank whole. */
struct hv_units_runner;
void mpi_trace_check_over(const hv_options *opt, hv_report *r, mpi_rank *const *ranks, size_t n, uint64_t world_size,
			  struct hv_units_runner *part);

/* What the layer proves and what it cannot (hpcvet explain dumpi.mpi). */
const char *mpi_layer_explain(void);

#endif
