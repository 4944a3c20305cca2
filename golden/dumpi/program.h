/* The MPI program behind generated DUMPI traces: per rank, the records of
 * one SPMD program (point-to-point, nonblocking, persistent, collectives,
 * sub-communicators), consistent across ranks, so the validator's MPI layer
 * (validator/dumpi/mpi_*.c) finds nothing unless a --break asks for it. */
#ifndef GEN_DUMPI_MPI_H
#define GEN_DUMPI_MPI_H

#include <stdbool.h>
#include <stdint.h>

#include "dumpi/dumpi.h"
#include "dumpi/mpi/layer.h"
#include "../gen.h"

#define GM_ARR 8
/* One record: values for some fields (by layout index); the writer fills
 * the others with neutral values. Arrays: counted u32 fields (requests,
 * indices) and statuses (pairs source, tag). */
typedef struct gm_rec {
	unsigned fn;
	bool set[DUMPI_MAX_FIELDS], aset[DUMPI_MAX_FIELDS];
	int64_t v[DUMPI_MAX_FIELDS];
	uint8_t alen[DUMPI_MAX_FIELDS];
	int32_t arr[DUMPI_MAX_FIELDS][2 * GM_ARR];
	int32_t bytes;     /* status byte count */
	bool cancelled;    /* every status says cancelled */
	const char *shape_break; /* a dumpi.rec.* shape rule this record bends (write_args), or NULL */
} gm_rec;

typedef struct gen_mpi {
	unsigned rank, n;
	const char *brk;      /* a dumpi.mpi.* break, applied on rank 0 */
	bool all;             /* every function id, neutral arguments */
	unsigned records;     /* wanted records (approximate) */
	gen_rng shared;       /* the same on every rank: the program's phases */
	unsigned phases, phase;
	gm_rec q[32];
	unsigned qh, qn;
	uint32_t next_req;
	unsigned next_comm, next_type, all_id;
	bool started, finished, broke;
	unsigned inflight;    /* --in-flight: Isend/Irecv pairs posted before any wait */
	unsigned fl_posted, fl_waited;
	uint32_t fl_first;
	unsigned unmatched, um_sent; /* --unmatched: sends from rank 0 nobody receives */
	unsigned request_calls, rc_done; /* --request-calls: rounds of the calls below, made */
	int32_t proc_null;    /* the library's MPI_PROC_NULL as libdumpi writes it (0: no library habits) */
	bool mpich;           /* MPICH's habits: one recycled request pool, empty PROC_NULL statuses */
	bool unrecorded;      /* phases with calls libdumpi does not record */
	/* --pattern=stencil3d: the rank's place in a px x py x pz grid (x
	 * fastest), and its row communicator (ranks of equal y and z) */
	bool stencil;
	unsigned dims[3], at[3];
	int row_comm;
	/* --pattern=lammps: the same grid, LAMMPS's timestep (patterns.c) */
	bool lammps;
} gen_mpi;

void gen_mpi_init(gen_mpi *g, unsigned rank, unsigned n, uint64_t seed, const char *brk, bool all, unsigned records);
/* The MPI library's habits (GEN_MPI_*; a --break gets none unless it is
 * about them) and the unrecorded calls (--unrecorded). */
void gen_mpi_set_habits(gen_mpi *g, const char *brk, unsigned lib, bool unrecorded);
/* Make the program a 3-D stencil code (after gen_mpi_init). */
void gen_mpi_stencil3d(gen_mpi *g);
/* Make the program a molecular-dynamics run shaped like LAMMPS's (after gen_mpi_init). */
void gen_mpi_lammps(gen_mpi *g);
/* The next record; false after the last one. */
bool gen_mpi_next(gen_mpi *g, gm_rec *out);
/* Neutral value of a field nobody set (by name and kind). */
int64_t gen_mpi_neutral(const dumpi_field *f, gen_rng *g);
/* Whether `rule` is one the MPI program breaks. */
bool gen_mpi_breaks(const char *rule);
/* Whether `rule` is one the MPI program breaks across ranks (dumpi-trace). */
bool gen_mpi_trace_breaks(const char *rule);

/* ---- for the program's own files (program.c, patterns.c) ---- */

/* DUMPI's encodings: the validator's own (dumpi/mpi/layer.h), so the two
 * cannot drift apart; T_INT is MPI_INT's index in DUMPI's datatype table. */
enum { WORLD = MPI_D_COMM_WORLD, SELF = MPI_D_COMM_SELF, FIRST_COMM = MPI_D_FIRST_USER_COMM,
       REQ_NULL = MPI_D_REQUEST_NULL, FIRST_REQ = MPI_D_REQUEST_NULL + 1, T_INT = 9,
       FIRST_TYPE = MPI_D_FIRST_USER_DATATYPE };

/* The record builders: each queues a record of function `fn` on g's queue
 * and returns it (NULL when the queue is full; the setters then do nothing). */
gm_rec *gm_push(gen_mpi *g, unsigned fn);
/* A field's value, an array of u32 (at most GM_ARR), or n statuses (source,
 * tag pairs) of `bytes` bytes, by the field's name; a field the function
 * lacks is skipped. */
void gm_set(gm_rec *r, const char *name, int64_t v);
void gm_set_arr(gm_rec *r, const char *name, const int32_t *v, unsigned n);
void gm_set_status(gm_rec *r, const char *name, const int32_t *src_tag, unsigned n, int32_t bytes);
/* One record as a table row: its function and (field, value) pairs, NULL-
 * terminated; fields the function lacks are skipped, the rest get neutral
 * values from the writer. Arrays and statuses are added to the result. */
typedef struct gm_arg {
	const char *name;
	int64_t v;
} gm_arg;
gm_rec *gm_rec_args(gen_mpi *g, unsigned fn, const gm_arg *a);
#define REC(g, fn, ...) gm_rec_args((g), (fn), (const gm_arg[]){__VA_ARGS__, {NULL, 0}})
/* A point-to-point call (send: dest; receive: source) on `comm`. */
gm_rec *gm_p2p(gen_mpi *g, unsigned fn, int count, int peer, int tag, int comm, bool send);
/* MPI_Wait on `req`, its status (src, tag) of `bytes` bytes. */
gm_rec *gm_wait_req(gen_mpi *g, int32_t req, int32_t src, int32_t tag, int32_t bytes);
/* MPI_Sendrecv of `count` ints to the right neighbour, from the left one. */
void gm_sendrecv(gen_mpi *g, int tag, int count);
/* One iteration of --pattern=stencil3d, one timestep of --pattern=lammps (patterns.c). */
void gen_mpi_stencil_phase(gen_mpi *g);
void gen_mpi_lammps_phase(gen_mpi *g);

#endif
