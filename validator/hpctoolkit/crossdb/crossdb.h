/* Cross-file checks of an HPCToolkit database, carried by visitors of the
 * profile.db, cct.db and trace.db walks (so the value data is read once),
 * and the streaming transpose comparison of cct.db against profile.db.
 *
 * Memory: bitmaps of the 65536 metric ids (and their 128 KiB byte-table
 * form for the value loop), two 16-byte digests per cct.db
 * context (nCtxs is bounded by the bytes of cct.db's {CI} array), and for
 * hatchet's exclusive column, when a metric has another scope in it, 36
 * bytes per profile in each cct.db unit (bounded by profile.db's {PI}
 * array); nothing proportional to the number of values. */
#ifndef HV_HPCTK_CROSSDB_H
#define HV_HPCTK_CROSSDB_H

#include <stdbool.h>
#include <stdint.h>

#include "core/wire.h"
#include "hpctoolkit/cctdb/cctdb.h"
#include "hpctoolkit/hpctoolkit.h"
#include "hpctoolkit/profiledb/profiledb.h"
#include "hpctoolkit/tracedb/tracedb.h"
#include "hpctoolkit/values/values.h"

/* What the cross-file checks read, shared by the walks and never written
 * during them (so the walks of profile.db, cct.db and trace.db may run in
 * parallel). */
typedef struct hpctk_xdb {
	enum hv_edition edition;
	const hpctk_metadb_summary *meta;   /* NULL: no usable meta.db */
	hpctk_profiledb *prof;              /* NULL when absent or its {PI} array is unusable */
	hpctk_cctdb *cct;                   /* NULL when absent or its {CI} array is unusable */
	hpctk_tracedb *trace;
	hv_blob *prof_blob;                 /* profile.db even when its {PI} array is unusable (id tuples) */
	uint8_t prop[8192], stat[8192];     /* bitmaps of meta.db's metric ids */
	/* The value loop's form of prop / stat: one byte per metric id, 1
	 * where the id is not listed (a byte load per value, where a bitmap
	 * costs a shift and a mask more). Heap, 128 KiB; NULL without usable
	 * metrics, or out of memory (then the value loop has no fast path). */
	uint8_t (*reject)[65536];
	bool has_reject;                    /* reject is set (meta.db's metrics usable) */
	const uint8_t *ctx_map;             /* meta.db's bitmap of its ctxIds (hpctk_idset) when dense, else NULL */
	uint32_t ctx_map_max;
	bool transpose;                     /* both profile.db and cct.db have digests to compare */
	struct hpctk_vsumview *sumview;     /* profile.db's summary profile for the summary statistics, or NULL */
	/* hatchet 1.4.0's exclusive column (hatchet.c): per propMetricId below
	 * hz_npid its metric's group + 1 (0: none; a group is a metric with
	 * another scope in its exclusive scope's column), per group the
	 * exclusive scope's propMetricId; NULL: not checked. */
	uint16_t *hz_grp, *hz_exc;
	uint32_t hz_npid, hz_ngrp;
	/* The one thing the walks write: the value checkers' spare records,
	 * handed from one profile.db unit to the next (atomic; values.h). */
	hpctk_vspare vspare;
} hpctk_xdb;

enum { HPCTK_XPROF, HPCTK_XCCT, HPCTK_XTRACE, HPCTK_XFILES };

/* The cross-file state of one file's walk: the report it writes to and
 * what it collects for the rules decided after all walks. */
/* The first (context, profile) cell where hatchet shows another scope's value. */
typedef struct hpctk_hzfirst {
	uint32_t ctx, prof;
	uint16_t pid, exc;       /* the value shown's propMetricId, the exclusive scope's */
	bool has_exc;
	double v, x;             /* the value shown, the exclusive scope's */
	uint64_t off;            /* the value shown's {Val} entry in cct.db */
} hpctk_hzfirst;

typedef struct hpctk_xfile {
	const hpctk_xdb *x;
	hv_report *r;
	int which;                          /* HPCTK_XPROF, HPCTK_XCCT, HPCTK_XTRACE */
	hpctk_digest *dig;                  /* per cct.db context from dig_base: this file's transpose digest */
	uint8_t *taint;                     /* cct.db: per context from dig_base, values left out of the transpose */
	uint32_t dig_base, ndig;            /* the contexts dig and taint cover */
	bool dig_lent;                      /* dig is the caller's (hpctk_xfile_init_range_in): not freed here */
	uint32_t last_cct_ctx;              /* the cct.db context whose ctxId was checked last */
	bool cct_ctx_seen;
	uint64_t elided, elided_off;        /* release-edition elided ctxIds */
	uint32_t elided_first, elided_owner;
	hpctk_svb_fast fast[2];             /* the value loop's facts: thread / summary profiles */
	hpctk_trace_fast tfast;             /* the trace element loop's */
	struct hpctk_vcheck *vc;            /* profile.db: the propagated-value checker (values.h), or NULL */
	struct hpctk_vsum *vs;              /* cct.db: the summary-statistics checker (values.h), or NULL */
	bool vs_run;                        /* it takes this unit's runs */
	struct hpctk_hzcol *hz;             /* cct.db: hatchet's column state while the unit walks (hatchet.c) */
	uint64_t hz_count;                  /* cells hatchet misreads */
	hpctk_hzfirst hz_first;
	bool alloc_failed;
} hpctk_xfile;

/* `meta`, `prof`, `cct`, `trace` may each be NULL. */
/* `hatchet_role`: the taxonomy's columns (hpctk_check_taxonomy), or NULL. */
void hpctk_xdb_init(hpctk_xdb *x, enum hv_edition ed, const hpctk_metadb_summary *meta, hpctk_profiledb *prof,
		    hpctk_cctdb *cct, hpctk_tracedb *trace, const uint8_t *hatchet_role);
void hpctk_xdb_free(hpctk_xdb *x);

/* One file's state (`which`), reporting into `r`. */
void hpctk_xfile_init(hpctk_xfile *f, const hpctk_xdb *x, int which, hv_report *r);
/* The state of a unit of cct.db's contexts [base, base + n) (digests for
 * those only); of profile.db or trace.db: as hpctk_xfile_init. */
void hpctk_xfile_init_range(hpctk_xfile *f, const hpctk_xdb *x, int which, hv_report *r, uint32_t base, uint32_t n);
/* The same, with the digests (when the file has them) in `dig`: n zeroed
 * entries the caller owns and frees after hpctk_xfile_free (NULL: its own). */
void hpctk_xfile_init_range_in(hpctk_xfile *f, const hpctk_xdb *x, int which, hv_report *r, uint32_t base, uint32_t n,
			       hpctk_digest *dig);
/* At a unit's start: make what only its walk uses (the value checkers),
 * so units waiting to run or checked elsewhere hold only their summaries. */
void hpctk_xfile_unit_begin(hpctk_xfile *f);
/* At a unit's end: free what only its walk used (the value checkers'
 * scratch), keeping its summary. */
void hpctk_xfile_unit_done(hpctk_xfile *f);
/* A unit's summary into the file's (dst covers every context): digests
 * added (profile.db) or placed (cct.db), the elided count, the summary
 * statistics' differences appended. Call in unit order. */
void hpctk_xfile_merge(hpctk_xfile *dst, const hpctk_xfile *src);
void hpctk_xfile_free(hpctk_xfile *f);

/* After profile.db's walk: the value checks that need the whole file. */
void hpctk_xfile_prof_done(hpctk_xfile *f);

/* Visitors whose arg is `f`, to pass to the walks. */
hpctk_prof_visitor hpctk_xfile_prof_visitor(hpctk_xfile *f);
hpctk_cct_visitor hpctk_xfile_cct_visitor(hpctk_xfile *f);
hpctk_trace_visitor hpctk_xfile_trace_visitor(hpctk_xfile *f);

/* After all walks, into `r`: meta.db ids against nCtxs, the elided-context
 * notes, the transpose (only when both walks visited every value). */
void hpctk_xdb_finish(const hpctk_xdb *x, hv_report *r, const hpctk_xfile f[HPCTK_XFILES], bool prof_complete,
		      bool cct_complete);

/* A walk's summary (what hpctk_xdb_finish reads of `f`, and whether the
 * walk visited every value) to bytes and back, into a freshly initialised
 * `f` of the same database (wire.c). */
void hpctk_xfile_save(const hpctk_xfile *f, bool complete, hv_wbuf *w);
bool hpctk_xfile_load(hpctk_xfile *f, bool *complete, hv_rbuf *r);

/* The transpose's localisation: first differing metric and profile inside a
 * context (transpose.c). */
/* hatchet's exclusive column (hatchet.c): the groups from the taxonomy's
 * columns (HPCTK_HATCHET_*, per propMetricId of meta.db's value model;
 * NULL: not checked), a cct.db unit's state, its runs and values, a
 * block's end, the unit's end; the note after the walks. */
void hpctk_xdb_hatchet_init(hpctk_xdb *x, const uint8_t *role);
void hpctk_xdb_hatchet_free(hpctk_xdb *x);
void hpctk_xfile_hatchet_begin(hpctk_xfile *f);
/* Whether propMetricId pid's runs matter to hatchet's column (a run of
 * any other costs its caller this test, not a call). */
static inline bool hpctk_xdb_hatchet_wants(const hpctk_xdb *x, uint32_t pid)
{
	return pid < x->hz_npid && x->hz_grp[pid] != 0;
}
void hpctk_xfile_hatchet_run(hpctk_xfile *f, uint32_t ctx, uint16_t pid, const uint8_t *vals, uint64_t cnt,
			     uint64_t off0);
void hpctk_xfile_hatchet_value(hpctk_xfile *f, uint32_t ctx, uint16_t pid, uint32_t prof, uint64_t bits, uint64_t off);
void hpctk_xfile_hatchet_block_end(hpctk_xfile *f);
void hpctk_xfile_hatchet_done(hpctk_xfile *f);
void hpctk_xdb_report_hatchet(const hpctk_xdb *x, hv_report *r, const hpctk_xfile *cct);

void hpctk_xdb_report_transpose(const hpctk_xdb *x, hv_report *r, uint32_t ctx, uint64_t nctx_differ);

#endif
