/* Cross-file checks of an HPCToolkit database, carried by visitors of the
 * profile.db, cct.db and trace.db walks (so the value data is read once),
 * and the streaming transpose comparison of cct.db against profile.db.
 *
 * Memory: bitmaps of the 65536 metric ids, one 24-byte digest per cct.db
 * context (nCtxs is bounded by the bytes of cct.db's {CI} array), nothing
 * proportional to the number of values. */
#ifndef HV_HPCTK_CROSSDB_H
#define HV_HPCTK_CROSSDB_H

#include <stdbool.h>
#include <stdint.h>

#include "cctdb.h"
#include "hpctoolkit.h"
#include "profiledb.h"
#include "tracedb.h"

typedef struct hpctk_digest {
	uint64_t n, h1, h2; /* count and two sums of value hashes (profile.db adds, cct.db subtracts) */
} hpctk_digest;

typedef struct hpctk_xdb {
	hv_report *r;
	enum hv_edition edition;
	const hpctk_metadb_summary *meta;   /* NULL: no usable meta.db */
	hpctk_profiledb *prof;              /* NULL when absent or its {PI} array is unusable */
	hpctk_cctdb *cct;                   /* NULL when absent or its {CI} array is unusable */
	hpctk_tracedb *trace;
	hv_blob *prof_blob;                 /* profile.db even when its {PI} array is unusable (id tuples) */
	uint8_t prop[8192], stat[8192];     /* bitmaps of meta.db's metric ids */
	hpctk_digest *dig;                  /* per cct.db context, for the transpose */
	uint8_t *ctx_map;                   /* bitmap of meta.db's ctxIds when dense enough, else NULL */
	uint32_t ctx_map_max;
	uint8_t *taint;                     /* per context: cct.db values left out of the transpose */
	uint32_t last_cct_ctx;              /* the cct.db context whose ctxId was checked last */
	bool cct_ctx_seen;
	uint64_t elided[2], elided_off[2];  /* release-edition elided ctxIds: profile.db, cct.db */
	uint32_t elided_first[2], elided_owner[2];
} hpctk_xdb;

/* `meta`, `prof`, `cct`, `trace` may each be NULL. */
void hpctk_xdb_init(hpctk_xdb *x, hv_report *r, enum hv_edition ed, const hpctk_metadb_summary *meta,
		    hpctk_profiledb *prof, hpctk_cctdb *cct, hpctk_tracedb *trace);
void hpctk_xdb_free(hpctk_xdb *x);

/* Visitors whose arg is `x`, to pass to the walks. */
hpctk_prof_visitor hpctk_xdb_prof_visitor(hpctk_xdb *x);
hpctk_cct_visitor hpctk_xdb_cct_visitor(hpctk_xdb *x);
hpctk_trace_visitor hpctk_xdb_trace_visitor(hpctk_xdb *x);

/* After all walks: meta.db ids against nCtxs, the elided-context notes, the
 * transpose (only when both walks visited every value). */
void hpctk_xdb_finish(hpctk_xdb *x, bool prof_complete, bool cct_complete);

/* The transpose's localisation: first differing metric and profile inside a
 * context (crossdb_transpose.c). */
void hpctk_xdb_report_transpose(hpctk_xdb *x, uint32_t ctx, uint64_t nctx_differ);

#endif
