/* The MPI program behind generated DUMPI traces: per rank, the records of
 * one SPMD program (point-to-point, nonblocking, persistent, collectives,
 * sub-communicators), consistent across ranks, so the validator's MPI layer
 * (validator/dumpi/mpi_*.c) finds nothing unless a --break asks for it. */
#ifndef GEN_DUMPI_MPI_H
#define GEN_DUMPI_MPI_H

#include <stdbool.h>
#include <stdint.h>

#include "dumpi/dumpi.h"
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
	/* --pattern=lammps: the same grid, LAMMPS's timestep (program.c) */
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

#endif
