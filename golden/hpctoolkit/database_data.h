/* The data behind profile.db, cct.db and trace.db of one generated
 * HPCToolkit database: which contexts and metrics exist (taken from the
 * meta.db model so every file agrees), the profiles with their identifier
 * tuples, and the performance values and trace samples.
 *
 * Values and samples are never stored: they are pure functions of
 * (seed, profile, context, metric) and (seed, profile, sample index), so a
 * 1 GiB database costs only its output buffers, and cct.db is the exact
 * transpose of profile.db by construction (both ask the same function). */
#ifndef GEN_HPCTKDB_DATA_H
#define GEN_HPCTKDB_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../gen.h"
#include "model.h"

#define HDB_MAX_IDS 4

typedef struct hdb_id {
	uint8_t kind;
	uint16_t flags;     /* bit 0 isPhysical */
	uint32_t logical;
	uint64_t physical;
} hdb_id;

typedef struct hdb_prof {
	hdb_id ids[HDB_MAX_IDS];
	unsigned nids;
	bool empty;            /* no values at all (pValues == pCtxIndices) */
	uint64_t trace_len;    /* samples in its trace line (thread profiles) */
	uint64_t trace_cap;    /* reserved samples (>= trace_len): the writer's slack */
} hdb_prof;

/* Layout choices a `--break` can force on the writers (all off = what the
 * writers choose themselves). */
typedef struct hdb_knobs {
	/* profile.db */
	int pdb_order;           /* -1: writer's choice; 0: Profile Info first; 1: tuples first */
	unsigned pdb_tup_shift;  /* bytes inserted before the tuple section */
	unsigned pdb_pi_hdr;     /* Profile Info section header size (0: writer's) */
	int pdb_blk;             /* profile whose block gets the three below; -1: none */
	unsigned pdb_vals_shift; /* pValues this far past its 4-aligned slot */
	unsigned pdb_idx_pad;    /* extra bytes between the arrays (after 4-alignment) */
	bool pdb_idx_first;      /* {Idx} array before the {Val} array */
	/* cct.db */
	int cdb_ctx;             /* ctxId whose block gets the two below; -1: none */
	unsigned cdb_vals_shift;
	unsigned cdb_idx_pad;
	bool cdb_idx_first;      /* that block's {Idx} array before its {Val} array */
	unsigned cdb_ci_shift;   /* Context Info section this far past its aligned place */
	unsigned cdb_ci_hdr;     /* Context Info section header size (0: writer's) */
	int cdb_extra_ctx;       /* ctxId given one extra value with profIndex = nProfiles; -1: none */
	/* trace.db */
	bool tdb_other_edition;  /* write trace.db in the other edition's layout */
	unsigned tdb_sec_shift;  /* trace header section this far past 0x20 */
	unsigned tdb_arr_shift;  /* pTraces this far past its aligned place */
	unsigned tdb_line0_shift;/* header 0's line this far into its reservation */
	uint64_t tdb_min_below;  /* minTimestamp this far below the first sample */
	uint64_t tdb_max_above;  /* maxTimestamp this far above the last sample */
	/* values: thread 1's value (or the summary's, vb_summary) of metric id
	 * vb_id at the global context multiplied by vb_factor (0: off) */
	double vb_factor;
	uint16_t vb_id;
	bool vb_summary;
} hdb_knobs;

typedef struct hdb {
	hpctk_model m;           /* the shared model: ids, metrics, profiles, values */
	enum hv_edition edition; /* DRAFT or RELEASE */
	unsigned minor;
	uint64_t seed;
	/* Contexts. */
	uint32_t *meta_ctx;      /* ctxIds in meta.db's tree, sorted ascending */
	size_t n_meta_ctx;
	uint32_t *val_ctx;       /* ctxIds that may carry values: 0, meta_ctx, elided; sorted */
	size_t n_val_ctx;
	uint32_t max_ctx;        /* largest of val_ctx (cct.db nCtxs = max_ctx + 1) */
	uint32_t *elided;        /* ctxIds of elided contexts (release writer behaviour), sorted: */
	size_t n_elided;         /*   holes between meta.db's ids, as hpcprof leaves them */
	/* Metrics (ids as meta.db lists them). */
	uint16_t *prop;          /* propMetricIds as written (a break may rename one), sorted */
	size_t n_prop;
	uint16_t *stat;          /* statMetricIds, sorted: the summary profile */
	size_t n_stat;
	uint8_t nkinds;          /* meta.db Identifier Names count */
	double *wx, *wf;         /* per value class, per val_ctx: execution / function weights */
	/* Profiles: [0] is the summary. */
	hdb_prof *prof;
	unsigned nprof;
	/* Traces. */
	bool has_traces;
	hdb_knobs k;         /* some thread has samples (hpcprof writes no trace.db otherwise) */
	/* The summary profile's values, folded over the threads on first use
	 * (after a break's knobs are set): asked per (context, statistic), each
	 * a sum over all threads, the writers walked every thread's values
	 * again for every time they asked (counting, writing, visiting). */
	struct hdb_sums *sums;
} hdb;

/* Build the data from the generator parameters (and the meta.db model for
 * the same parameters). `elide` adds ctxIds absent from meta.db. */
int hdb_build(const gen_params *p, bool elide, hdb *d, char *err, size_t errlen);
void hdb_free(hdb *d);

/* True (and *v set, non-zero and finite) when profile `prof` has a value
 * for context val_ctx[ci] and metric m-th of its list (stat for the
 * summary, prop otherwise). */
bool hdb_value(const hdb *d, unsigned prof, size_t ci, size_t m, double *v);

/* True when profile `prof` has any value at context val_ctx[ci] (cheap
 * pre-filter for hdb_value). */
bool hdb_visits(const hdb *d, unsigned prof, size_t ci);


/* Bounds the release trace.db stores (may be looser than the extremes). */
uint64_t hdb_min_ts(const hdb *d);
uint64_t hdb_max_ts(const hdb *d);


#endif
