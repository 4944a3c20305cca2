/* hpcvet-gen's library: our own writers for every format, written from the
 * specs, plus `break` variants that violate exactly one rule. Tests, the
 * corpus, fuzz seeds and benchmarks are all made from it. */
#ifndef HV_GEN_H
#define HV_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/report.h" /* enum hv_edition */

#define GEN_MAX_FILES 64

typedef struct gen_file {
	char name[128];   /* relative path inside the output ("meta.db", "loom.x/proc.1/...") */
	uint8_t *data;
	size_t len;
} gen_file;

/* Where files go as a writer produces them, instead of files[]: a trace
 * of thousands of rank files need not be held in memory (hpcvet-gen writes
 * each to disk at once). Returns 0, or -1 when the file cannot be stored. */
typedef int (*gen_sink)(void *ctx, const char *name, const uint8_t *data, size_t len);

typedef struct gen_output {
	gen_file files[GEN_MAX_FILES];
	size_t n;
	bool is_set;      /* a directory input (database, trace tree), not one file */
	/* gen_generate_to only: files are handed to sink and freed, not kept;
	 * `sunk` counts them, `sink_failed` says one could not be stored. */
	gen_sink sink;
	void *sink_ctx;
	size_t sunk;
	bool sink_failed;
} gen_output;

typedef struct gen_params {
	const char *what;          /* "metadb", "hpctoolkit-db", ... (see gen_list_whats) */
	enum hv_edition edition;   /* DRAFT or RELEASE; AUTO means RELEASE */
	unsigned minor;            /* 0, or a newer minor: larger strides, junk in gaps */
	uint64_t seed;
	/* Shape and scale; 0 means the writer's default. */
	unsigned contexts, depth, metrics, modules, files, functions;
	unsigned profiles, trace_len;
	unsigned in_flight;   /* dumpi: nonblocking messages each rank keeps in flight at once */
	unsigned request_calls; /* dumpi: rounds of the request calls the program's phases never make */
	/* Live-state stress (tests/live_state_memory.test.sh): a trace whose
	 * checks must hold this many unresolved things at once. */
	unsigned unmatched;   /* dumpi-trace: rank 0 sends N messages (tags all different) nobody receives */
	/* dumpi: the MPI library whose habits the program shows (GEN_MPI_*:
	 * its MPI_PROC_NULL, its shared and recycled request handles), and
	 * whether the program also makes calls libdumpi does not record
	 * (nonblocking collectives, matched probes, MPI-3 constructors). */
	unsigned mpi_lib;
	bool unrecorded;
	/* dumpi-trace: the program the ranks run (GEN_PATTERN_*): the default mix
	 * of phases, or a 3-D stencil code (halo exchange with the six
	 * neighbours of a Cartesian decomposition, all-to-all on row
	 * communicators from MPI_Comm_split, an allreduce and a ring step per
	 * iteration), the same number of records on every rank at any width. */
	unsigned pattern;
	unsigned open_tasks;  /* ovni-trace-runtime: a worker creates N tasks that never run */
	unsigned looms;       /* ovni-trace-runtime: looms (nodes), each of `profiles` streams */
	unsigned busy;        /* ovni-trace-runtime: workers per process that run the loop, the rest nearly idle (0: all) */
	/* HPCToolkit: how ctxIds fall over the tree (GEN_IDS_*). */
	unsigned ctx_ids;
	const char *break_rule;    /* NULL: a valid output */
	/* HPCToolkit: metrics without custom scopes, and a point scope in every
	 * metric that propagates (so no value is unverifiable); set for --break
	 * outputs, whose only finding must be the broken rule. */
	bool plain_metrics;
	/* HPCToolkit: trace.db bounds as hpcprof writes them, from its
	 * measurement source's time range (looser than the samples), not the
	 * samples' own first and last timestamps. */
	bool measured_bounds;
} gen_params;

/* ctxId orders: spread over the tree at random; reverse breadth-first (a
 * level's children, then the level: children before their parents,
 * siblings consecutive); depth-first post-order (every subtree a range of
 * ids with its root last), close to how hpcprof numbers its contexts: in
 * the shared real databases with over 100 contexts, 94-98% of the contexts
 * come after all their children and 69-96% of the subtrees are such ranges
 * (bench/hpctk-ctxid-order.py). */
enum { GEN_IDS_SPREAD, GEN_IDS_LEVELS, GEN_IDS_POSTORDER };
/* MPI libraries a generated DUMPI program ran under: by default none shows
 * (no MPI_PROC_NULL, whose value tells the library, so a valid output fires
 * no rule at all). */
enum { GEN_MPI_DEFAULT, GEN_MPI_MPICH, GEN_MPI_OPENMPI };
enum { GEN_PATTERN_MIX, GEN_PATTERN_STENCIL3D, GEN_PATTERN_LAMMPS };
/* Ranks a dumpi-trace may have: GEN_MAX_FILES - 1 when the files are kept
 * in memory (gen_generate), this many when they go to a sink. */
#define GEN_MAX_RANKS 1048576u

void gen_params_default(gen_params *p);

/* 0 on success. On failure writes a reason to err (unknown `what`, a rule
 * this `what` cannot break in this edition, impossible shape). */
int gen_generate(const gen_params *p, gen_output *out, char *err, size_t errlen);
/* The same, each file handed to `sink` as soon as it is complete and freed
 * (out->files stays empty): outputs of any number of files, in memory one
 * file at a time. */
int gen_generate_to(const gen_params *p, gen_output *out, gen_sink sink, void *ctx, char *err, size_t errlen);
void gen_output_free(gen_output *out);

/* Which `what` can produce a file breaking `rule_id` in `edition`; NULL when
 * no writer can. The coverage test requires one for every rule. */
const char *gen_breaker_for(const char *rule_id, enum hv_edition edition);

/* One writer family. */
typedef struct gen_family {
	const char *name;
	const char *const *whats;                            /* NULL-terminated */
	int (*generate)(const gen_params *p, gen_output *out, char *err, size_t errlen);
	bool (*can_break)(const char *what, const char *rule_id, enum hv_edition edition);
	bool never_valid;                                    /* every output is meant to be rejected */
} gen_family;

extern const gen_family *const gen_families[];

/* Output helpers for writers. */
gen_file *gen_add_file(gen_output *out, const char *name, uint8_t *data, size_t len);

/* A growable byte buffer with absolute-offset writes, for laying out files. */
typedef struct gen_buf {
	uint8_t *data;
	size_t len, cap;
	bool oom;
} gen_buf;

size_t gen_buf_reserve(gen_buf *b, size_t n, size_t align);  /* append n zero bytes at an aligned offset; returns offset */
size_t gen_buf_append(gen_buf *b, const void *p, size_t n);  /* returns offset */
/* Formatted text (no NUL), at most 1023 bytes a call: JSON and YAML writers. */
void gen_buf_printf(gen_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
size_t gen_buf_str(gen_buf *b, const char *s);               /* append with NUL; returns offset */
void gen_buf_pad(gen_buf *b, size_t align, uint8_t fill);     /* pad len up to align */
uint8_t *gen_buf_at(gen_buf *b, size_t off);                 /* pointer into data (valid until next append) */
void gen_buf_free(gen_buf *b);

/* Deterministic pseudo-random numbers (splitmix64). */
typedef struct gen_rng { uint64_t s; } gen_rng;
uint64_t gen_rand(gen_rng *r);
static inline uint64_t gen_below(gen_rng *r, uint64_t n) { return n ? gen_rand(r) % n : 0; }

#endif
