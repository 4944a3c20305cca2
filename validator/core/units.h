/* Units of work: an input split into pieces that are checked independently
 * (the rank files of a DUMPI trace, the streams of an ovni tree, the data
 * files of an HPCToolkit database, ...). Each unit writes its diagnostics
 * into its own report and what the checks after the units need into its
 * own summary; the family then merges reports and summaries in unit order.
 * Because the merge order is fixed and the merge is associative, the report
 * is byte-identical however the units were scheduled: in order, on -j
 * threads, or on the ranks of hpcvet-mpi (validator/mpi/), where each unit
 * is checked by one rank and its report and summary travel as bytes
 * (core/wire.h) to every other rank. See CONTRIBUTING.md, "Units". */
#ifndef HV_UNITS_H
#define HV_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blob.h"
#include "report.h"
#include "wire.h"

typedef struct hv_units {
	size_t n;
	void *ctx;
	/* Check unit i into report(ctx, i) and its summary. */
	void (*check)(void *ctx, size_t i);
	/* The unit's own report (initialised, empty before the check). NULL:
	 * the units cannot travel, and every process checks all of them. */
	hv_report *(*report)(void *ctx, size_t i);
	/* The unit's summary, to bytes and back (NULL: it has none). load
	 * gets what save wrote, on a process that did not check the unit;
	 * false when the bytes are malformed. */
	void (*save)(void *ctx, size_t i, hv_wbuf *w);
	bool (*load)(void *ctx, size_t i, hv_rbuf *r);
	/* The file the unit reads, whose io_failed travels with it (may be NULL). */
	hv_blob *(*blob)(void *ctx, size_t i);
	/* Bytes the unit reads, to balance the plan (NULL: all equal). */
	uint64_t (*size)(void *ctx, size_t i);
} hv_units;

/* How big units are: a family splits a piece of `total` bytes into units
 * of about hv_unit_bytes(opt, total) bytes: opt->unit_bytes (the CLI's
 * HPCVET_UNIT_BYTES; 0: HV_UNIT_BYTES_DEFAULT), but never more than
 * HV_UNITS_MAX units, so the reports and summaries waiting to be merged
 * stay bounded whatever the input's size. */
#define HV_UNIT_BYTES_DEFAULT (64ull << 20)
#define HV_UNITS_MAX 1024u
uint64_t hv_unit_bytes(const hv_options *opt, uint64_t total);

/* How many of the next `left` files (k-th size: size_of(ctx, k)) make one
 * batch of checks run together, at most `max`. Over processes (opt->units:
 * hpcvet-mpi, where a batch is one exchange) every batch is `max`; with
 * threads a batch closes once it holds 8 files and 8 MiB per job, so many
 * tiny files start the threads once per batch, not once per handful of
 * files. At least 1 when left > 0. */
size_t hv_batch_len(const hv_options *opt, size_t left, size_t max, uint64_t (*size_of)(const void *ctx, size_t k),
		    const void *ctx);

/* Bytes that came from every process of a runner, in process order:
 * process p's are buf[off[p], off[p] + len[p]); lost[p]: they could not
 * travel (out of memory, too large). */
typedef struct hv_gathered {
	int nranks, me;
	uint8_t *buf;
	uint64_t *off, *len;
	bool *lost;
} hv_gathered;
void hv_gathered_free(hv_gathered *g);

/* Something that checks units elsewhere (hpcvet-mpi's ranks). A unit's
 * summary then lives whole only on the process that checked it; a check
 * after the units may share its work out the same way (the DUMPI cross-rank
 * stage, dumpi/mpi/part.c) with the two collectives below (NULL: not
 * offered). Every process calls them in the same sequence with the same
 * `step`; false: out of memory on this process (what it should have
 * received is then lost).
 *  - gather: every process receives every process's `mine`;
 *  - route: to[p] (one buffer per process; to NULL: nothing) goes to
 *    process p; g holds what each process sent this one. */
typedef struct hv_units_runner {
	void (*run)(struct hv_units_runner *self, const hv_options *opt, const hv_units *u);
	bool (*gather)(struct hv_units_runner *self, uint64_t step, const hv_wbuf *mine, hv_gathered *g);
	bool (*route)(struct hv_units_runner *self, uint64_t step, const hv_wbuf *to, hv_gathered *g);
} hv_units_runner;

/* Check every unit: through opt->units when set and the units can travel,
 * else through opt's thread runner (hv_for_each), else in order. */
void hv_run_units(const hv_options *opt, const hv_units *u);

/* One unit's output (report, its file's io_failed, summary) as bytes. */
void hv_unit_save(const hv_units *u, size_t i, hv_wbuf *w);
/* Into unit i's (empty) report and summary; false when malformed, and the
 * unit's report then records an internal error. */
bool hv_unit_load(const hv_units *u, size_t i, hv_rbuf *r);

/* Items by size, largest first (ties: lower index first), so every process
 * and thread orders them the same way. */
typedef struct hv_sized {
	uint64_t size;
	size_t i;
} hv_sized;
void hv_sort_largest_first(hv_sized *v, size_t n);

/* A static plan: owner[i] in [0, nproc) for every unit, largest units first
 * each to the least loaded process (ties: lower unit index, lower process),
 * so every process computes the same plan. `load` (nproc entries, may be
 * NULL) receives each process's bytes. False when out of memory. */
bool hv_units_plan(const hv_units *u, unsigned nproc, unsigned *owner, uint64_t *load);

#endif
