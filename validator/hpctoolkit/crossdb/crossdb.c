/* Cross-file checks of an HPCToolkit database (see crossdb.h). */
#include "crossdb.h"

#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bitmap.h"
#include "core/hv_int.h"
#include "hpctoolkit/values/values.h"


void hpctk_xdb_init(hpctk_xdb *x, enum hv_edition ed, const hpctk_metadb_summary *meta, hpctk_profiledb *prof,
		    hpctk_cctdb *cct, hpctk_tracedb *trace, const uint8_t *hatchet_role)
{
	memset(x, 0, sizeof *x);
	atomic_init(&x->vspare.recs, NULL);
	x->edition = ed;
	x->meta = meta && meta->valid ? meta : NULL;
	x->prof = prof && prof->pi.ok ? prof : NULL;
	x->cct = cct && cct->ci.ok ? cct : NULL;
	x->trace = trace;
	x->prof_blob = prof ? prof->b : NULL;
	if (x->meta && x->meta->metrics_ok) {
		for (size_t i = 0; i < x->meta->n_prop_metric_ids; i++) hv_bit_set(x->prop, x->meta->prop_metric_ids[i]);
		for (size_t i = 0; i < x->meta->n_stat_metric_ids; i++) hv_bit_set(x->stat, x->meta->stat_metric_ids[i]);
		/* The value loop's form of the two bitmaps: 1 where an id is not listed. */
		if ((x->reject = hv_malloc(2 * sizeof *x->reject + HPCTK_REJECT_PAD)) != NULL) {
			for (uint32_t i = 0; i < 65536; i++) {
				x->reject[0][i] = !hv_bit_get(x->prop, i);
				x->reject[1][i] = !hv_bit_get(x->stat, i);
			}
			memset(x->reject + 2, 0, HPCTK_REJECT_PAD);
			x->has_reject = true;
		}
	}
	/* meta.db's own bitmap of its ctxIds when they are dense (bit 0, the
	 * root, set: the index and trace fast paths rely on it). */
	if (x->meta && x->meta->ctx_ok && x->meta->ctx_ids.n > 0 && x->meta->ctx_ids.map) {
		x->ctx_map = x->meta->ctx_ids.map;
		x->ctx_map_max = x->meta->ctx_ids.max;
	}
	/* The transpose needs both files; one digest per context of cct.db in each. */
	x->transpose = x->prof && x->cct && x->cct->ci.n > 0;
	/* Summary statistics: checked from cct.db against profile.db's
	 * summary profile (release edition: the model is release only). */
	if (x->prof && x->cct && x->meta && x->meta->values && x->prof->edition == HV_EDITION_RELEASE &&
	    (x->sumview = hv_malloc(sizeof *x->sumview)) != NULL)
		hpctk_vsumview_make(x->sumview, x->prof->b, x->prof->h.body_end, x->prof->pi.p, x->prof->pi.sz,
				    x->prof->pi.n, x->meta->values);
	hpctk_xdb_hatchet_init(x, hatchet_role);
}

void hpctk_xdb_free(hpctk_xdb *x)
{
	if (x->meta && x->meta->values) hpctk_vspare_free(&x->vspare, x->meta->values);
	if (x->sumview) hpctk_vsumview_free(x->sumview);
	free(x->sumview);
	free(x->reject);
	hpctk_xdb_hatchet_free(x);
	x->reject = NULL;
	x->has_reject = false;
	x->sumview = NULL;
	x->ctx_map = NULL;
}

static void prof_run(void *arg, uint32_t owner, bool summary, uint32_t ctx, const uint8_t *vals, uint64_t cnt,
		     uint64_t off0)
{
	hpctk_vcheck_run(arg, owner, summary, ctx, vals, cnt, off0);
}

static void cct_run(void *arg, uint32_t owner, bool summary, uint32_t metric, const uint8_t *vals, uint64_t cnt,
		    uint64_t off0)
{
	(void)summary;
	hpctk_xfile *f = arg;
	if (f->vs_run) hpctk_vsum_run(f->vs, owner, (uint16_t)metric, vals, cnt, off0);
	if (f->hz && hpctk_xdb_hatchet_wants(f->x, (uint16_t)metric)) hpctk_xfile_hatchet_run(f, owner, (uint16_t)metric, vals, cnt, off0);
}

static void cct_block_end(void *arg, uint32_t owner, bool whole)
{
	hpctk_xfile *f = arg;
	if (f->vs_run) hpctk_vsum_block_end(f->vs, owner, whole);
	if (f->hz) hpctk_xfile_hatchet_block_end(f);
}

void hpctk_xfile_init(hpctk_xfile *f, const hpctk_xdb *x, int which, hv_report *r)
{
	hpctk_xfile_init_range(f, x, which, r, 0, x->cct ? x->cct->ci.n : 0);
}

void hpctk_xfile_init_range(hpctk_xfile *f, const hpctk_xdb *x, int which, hv_report *r, uint32_t base, uint32_t n)
{
	hpctk_xfile_init_range_in(f, x, which, r, base, n, NULL);
}

void hpctk_xfile_init_range_in(hpctk_xfile *f, const hpctk_xdb *x, int which, hv_report *r, uint32_t base, uint32_t n,
			       hpctk_digest *dig)
{
	memset(f, 0, sizeof *f);
	f->x = x;
	f->r = r;
	f->which = which;
	if (which != HPCTK_XCCT) base = 0, n = x->cct ? x->cct->ci.n : 0;
	f->dig_base = base;
	f->ndig = n;
	if (x->transpose && which != HPCTK_XTRACE) {
		f->dig_lent = dig != NULL;
		f->dig = dig ? dig : hv_calloc(n ? n : 1, sizeof *f->dig);
		if (which == HPCTK_XCCT) f->taint = hv_calloc((n + 7u) / 8u + 1, 1);
		if (!f->dig || (which == HPCTK_XCCT && !f->taint)) {
			hpctk_xfile_free(f);
			f->alloc_failed = true;
		}
	}
	uint32_t ndig = n;
	bool metrics = x->meta && x->meta->metrics_ok;
	if (which == HPCTK_XPROF) {
		const uint8_t *prop = x->has_reject ? x->reject[0] : NULL, *stat = x->has_reject ? x->reject[1] : NULL;
		f->fast[0] = (hpctk_svb_fast){.r_key = metrics ? HV_R_HPCTKDB_METRIC_PROP_KNOWN : -1, .key_reject = prop,
					      .dig = f->dig, .ndig = ndig};
		f->fast[1] = (hpctk_svb_fast){.r_key = metrics ? HV_R_HPCTKDB_METRIC_STAT_KNOWN : -1, .key_reject = stat};
		/* {Idx} ctxIds: what check_ctx evaluates, as data (not with a
		 * sparse context list: that one needs a search). */
		bool ctx = x->meta && x->meta->ctx_ok;
		for (int i = 0; i < 2; i++) {
			hpctk_svb_fast *p = &f->fast[i];
			p->idx_fast = !ctx || x->ctx_map;
			p->r_idx[0] = x->cct ? HV_R_HPCTKDB_CCT_CTX_COVERED : -1;
			p->idx_limit = x->cct ? x->cct->ci.n : UINT64_MAX;
			p->r_idx[1] = !ctx ? -1 : x->edition == HV_EDITION_DRAFT ? HV_R_HPCTKDB_CTX_UNKNOWN : HV_R_HPCTKDB_CTX_ELIDED;
			p->idx_allow = ctx ? x->ctx_map : NULL;
			p->idx_allow_n = (uint64_t)x->ctx_map_max + 1;
		}
		/* Value semantics: the checker is made when the unit starts (hpctk_xfile_unit_begin). */
	} else if (which == HPCTK_XCCT) {
		/* Without profile.db, cct_value checks nothing and digests nothing. */
		f->fast[0] = (hpctk_svb_fast){.r_key = x->prof ? HV_R_HPCTKDB_CCT_PROF_IN_RANGE : -1,
					      .key_limit = x->prof ? x->prof->pi.n : 0, .dig = f->dig, .dig_base = base,
					      .ndig = ndig};
		/* {Idx} metricIds: cct_index checks the context at a block's first
		 * entry, and the metric id of every entry. */
		f->fast[0].idx_fast = f->fast[0].idx_first = true;
		f->fast[0].r_idx[0] = metrics ? HV_R_HPCTKDB_METRIC_PROP_KNOWN : -1;
		f->fast[0].r_idx[1] = -1;
		f->fast[0].idx_limit = UINT64_MAX;
		f->fast[0].idx_allow = metrics ? x->prop : NULL;
		f->fast[0].idx_allow_n = 65536;
		/* the summary checker's kept differences; it starts with the unit */
		if (x->sumview && x->sumview->ok && !(f->vs = hv_calloc(1, sizeof *f->vs))) f->alloc_failed = true;
	}
}

void hpctk_xfile_unit_begin(hpctk_xfile *f)
{
	const hpctk_xdb *x = f->x;
	if (f->which == HPCTK_XPROF && x->prof && x->meta && x->meta->values && !f->vc &&
	    (f->vc = hv_malloc(sizeof *f->vc)) != NULL) {
		/* Value semantics: release meta.db with a readable tree and metrics. */
		hpctk_vcheck_init(f->vc, x->meta->values, f->r, x->prof->b, x->prof->b->name);
		f->vc->spare = (hpctk_vspare *)&x->vspare; /* x is read-only to the walks but for this */
		for (int i = 0; i < 2; i++) {
			f->fast[i].run = prof_run;
			f->fast[i].run_arg = f->vc;
			f->fast[i].run_summary = i == 1;
		}
	}
	/* cct.db's units come after profile.db's: the spare records are
	 * not needed any more (they would add to cct.db's memory) */
	if (f->which == HPCTK_XCCT && x->meta && x->meta->values)
		hpctk_vspare_free((hpctk_vspare *)&x->vspare, x->meta->values);
	if (f->which == HPCTK_XCCT && f->vs && !f->vs->on && !f->vs->nmiss) {
		hpctk_vsum_init(f->vs, x->meta->values, x->sumview, f->r, x->cct->b);
		f->vs_run = true;
	}
	if (f->which == HPCTK_XCCT) hpctk_xfile_hatchet_begin(f);
	if (f->vs_run || f->hz) {
		f->fast[0].run = cct_run;
		f->fast[0].block_end = cct_block_end;
		f->fast[0].run_arg = f;
	}
}

void hpctk_xfile_unit_done(hpctk_xfile *f)
{
	if (f->vc) hpctk_vcheck_free(f->vc);
	free(f->vc);
	f->vc = NULL;
	if (f->vs) hpctk_vsum_release(f->vs);
	f->vs_run = false;
	hpctk_xfile_hatchet_done(f);
	for (int i = 0; i < 2; i++) f->fast[i].run = NULL, f->fast[i].block_end = NULL;
}

void hpctk_xfile_free(hpctk_xfile *f)
{
	if (!f->dig_lent) free(f->dig);
	free(f->taint);
	if (f->vc) hpctk_vcheck_free(f->vc);
	free(f->vc);
	f->vc = NULL;
	if (f->vs) hpctk_vsum_free(f->vs);
	free(f->vs);
	f->vs = NULL;
	hpctk_xfile_hatchet_done(f);
	f->dig = NULL;
	f->taint = NULL;
	f->fast[0].dig = NULL;
}

static void digest_add(hpctk_digest *d, uint32_t prof, uint16_t metric, uint64_t bits)
{
	d->n++;
	d->h += hpctk_value_hash(((uint64_t)prof << 16) | metric, bits);
}

/* --- context ids ------------------------------------------------------------ */

/* Membership off the fast paths (those read x->ctx_map directly): a bitmap
 * lookup when the ids are dense, else a binary search. */
static bool meta_has_ctx(const hpctk_xdb *x, uint32_t ctx) { return hpctk_idset_has(&x->meta->ctx_ids, ctx); }

/* A ctxId named by profile.db or cct.db (f->which). */
static void check_ctx(hpctk_xfile *f, uint32_t ctx, uint64_t off, uint32_t owner)
{
	const hpctk_xdb *x = f->x;
	hv_report *r = f->r;
	bool prof = f->which == HPCTK_XPROF;
	char path[HV_PATH_MAX]; /* formatted only for a failure: this runs once per {Idx} */
#define CPATH()                                                                                                     \
	(prof ? snprintf(path, sizeof path, "profile.db/profile[%u]/valueBlock/pCtxIndices/ctxId", owner)           \
	      : snprintf(path, sizeof path, "cct.db/ctx[%u]", owner),                                                \
	 path)
	const char *file = prof ? x->prof->b->name : x->cct->b->name;
	if (prof && x->cct) {
		if (!hv_eval(r, HV_R_HPCTKDB_CCT_CTX_COVERED, ctx < x->cct->ci.n)) {
			hv_emit(r, HV_R_HPCTKDB_CCT_CTX_COVERED, file, off, 4, CPATH(),
				"ctxId %u is not below cct.db's nCtxs %u, so cct.db has no {CI} entry for it", ctx,
				x->cct->ci.n);
			return;
		}
	}
	if (!x->meta || !x->meta->ctx_ok) return;
	bool listed = ctx == 0 || meta_has_ctx(x, ctx);
	if (hv_eval(r, x->edition == HV_EDITION_DRAFT ? HV_R_HPCTKDB_CTX_UNKNOWN : HV_R_HPCTKDB_CTX_ELIDED, listed)) return;
	if (x->edition == HV_EDITION_DRAFT) {
		hv_emit(r, HV_R_HPCTKDB_CTX_UNKNOWN, file, off, 4, CPATH(),
			"ctxId %u is not listed in meta.db's context tree (draft edition: every ctxId must be)", ctx);
		return;
	}
	/* Release: elided contexts; summarised in one note per file. */
	if (f->elided++ == 0) {
		f->elided_first = ctx;
		f->elided_off = off;
		f->elided_owner = owner;
	}
#undef CPATH
}

/* --- profile.db visitor -------------------------------------------------------- */

static void prof_index(void *arg, uint32_t prof, bool summary, uint32_t ctx, uint64_t off)
{
	(void)summary;
	check_ctx(arg, ctx, off, prof);
}

/* Called per value only for the chunks the value loop's fast path did not
 * take (f->fast holds the same checks as data). */
static void prof_value(void *arg, uint32_t prof, bool summary, uint32_t ctx, uint16_t metric, uint64_t bits,
		       uint64_t off)
{
	hpctk_xfile *f = arg;
	const hpctk_xdb *x = f->x;
	hv_report *r = f->r;
	if (x->meta && x->meta->metrics_ok) {
		int rule = summary ? HV_R_HPCTKDB_METRIC_STAT_KNOWN : HV_R_HPCTKDB_METRIC_PROP_KNOWN;
		if (!hv_eval(r, rule, hv_bit_get(summary ? x->stat : x->prop, metric))) {
			char path[HV_PATH_MAX];
			snprintf(path, sizeof path, "profile.db/profile[%u]/valueBlock/value/metricId", prof);
			hv_emit(r, rule, x->prof->b->name, off, 2, path,
				"metricId %u (context %u) is not a %s in meta.db; %s", metric, ctx,
				summary ? "statMetricId" : "propMetricId",
				summary ? "summary profiles hold summary statistics" : "thread profiles hold propagated values");
		}
	}
	if (f->dig && !summary && ctx < x->cct->ci.n) digest_add(&f->dig[ctx], prof, metric, bits);
	if (f->vc) hpctk_vcheck_value(f->vc, prof, summary, ctx, metric, bits, off);
}

/* A profile's values are all walked: its propagation verdicts go into the
 * report now, behind its own diagnostics and ahead of the next profile's
 * (the order the report keeps for any split into units). */
static void prof_end(void *arg, uint32_t prof)
{
	(void)prof;
	hpctk_xfile *f = arg;
	if (f->vc) hpctk_vcheck_end_profile(f->vc);
}

void hpctk_xfile_prof_done(hpctk_xfile *f)
{
	const hpctk_profiledb *p = f->x->prof;
	if (!f->vc || !p) return;
	hpctk_vcheck_finish(f->vc);
	if (f->vc->oom) hv_report_internal(f->r, "%s: out of memory while checking values", p->b->name);
}

static void prof_kind(void *arg, uint8_t kind, uint64_t off)
{
	hpctk_xfile *f = arg;
	const hpctk_xdb *x = f->x;
	/* nKinds 0: meta.db's Identifier Names could not be read (reported there). */
	if (!x->meta || x->meta->nkinds == 0) return;
	if (!hv_eval(f->r, HV_R_HPCTKDB_IDT_KIND_KNOWN, kind < x->meta->nkinds))
		hv_emit(f->r, HV_R_HPCTKDB_IDT_KIND_KNOWN, x->prof_blob->name, off, 1, "profile.db/IdTuples/tuple/ids/kind",
			"kind %u has no name in meta.db's Identifier Names section (nKinds = %u)", kind, x->meta->nkinds);
}

hpctk_prof_visitor hpctk_xfile_prof_visitor(hpctk_xfile *f)
{
	/* Metrics without the reject tables (out of memory): no fast path,
	 * prof_value checks every value. */
	bool fast = !(f->x->meta && f->x->meta->metrics_ok && !f->x->has_reject);
	return (hpctk_prof_visitor){f, prof_index, prof_value, prof_kind, fast ? f->fast : NULL, prof_end};
}

/* --- cct.db visitor --------------------------------------------------------------- */

static void cct_index(void *arg, uint32_t ctx, uint16_t metric, uint64_t off)
{
	hpctk_xfile *f = arg;
	const hpctk_xdb *x = f->x;
	hv_report *r = f->r;
	char path[HV_PATH_MAX];
	if (!f->cct_ctx_seen || f->last_cct_ctx != ctx) {
		f->cct_ctx_seen = true;
		f->last_cct_ctx = ctx;
		check_ctx(f, ctx, x->cct->ci.p + (uint64_t)ctx * x->cct->ci.sz, ctx);
	}
	if (x->meta && x->meta->metrics_ok && !hv_eval(r, HV_R_HPCTKDB_METRIC_PROP_KNOWN, hv_bit_get(x->prop, metric))) {
		snprintf(path, sizeof path, "cct.db/ctx[%u]/valueBlock/pMetricIndices/metricId", ctx);
		hv_emit(r, HV_R_HPCTKDB_METRIC_PROP_KNOWN, x->cct->b->name, off, 2, path,
			"metricId %u is not a propMetricId in meta.db; cct.db holds propagated values only", metric);
	}
}

static void cct_value(void *arg, uint32_t ctx, uint16_t metric, uint32_t prof, uint64_t bits, uint64_t off)
{
	hpctk_xfile *f = arg;
	const hpctk_xdb *x = f->x;
	hv_report *r = f->r;
	if (f->vs) hpctk_vsum_value(f->vs, ctx, metric, prof, bits);
	if (f->hz) hpctk_xfile_hatchet_value(f, ctx, metric, prof, bits, off);
	if (!x->prof) return;
	bool in = prof < x->prof->pi.n;
	if (!hv_eval(r, HV_R_HPCTKDB_CCT_PROF_IN_RANGE, in)) {
		char path[HV_PATH_MAX];
		snprintf(path, sizeof path, "cct.db/ctx[%u]/valueBlock/value/profIndex", ctx);
		hv_emit(r, HV_R_HPCTKDB_CCT_PROF_IN_RANGE, x->cct->b->name, off, 4, path,
			"profIndex %u (metric %u) is not below profile.db's nProfiles %u", prof, metric,
			x->prof->pi.n);
	}
	if (!f->dig || ctx - f->dig_base >= f->ndig) return;
	/* Left to their own rules, and out of the comparison: profIndex 0 and
	 * out-of-range profiles. */
	if (!in || prof == 0) hv_bit_set(f->taint, ctx - f->dig_base);
	else digest_add(&f->dig[ctx - f->dig_base], prof, metric, bits);
}

hpctk_cct_visitor hpctk_xfile_cct_visitor(hpctk_xfile *f)
{
	return (hpctk_cct_visitor){f, cct_index, cct_value, f->fast};
}

/* --- trace.db visitor ---------------------------------------------------------------- */

static void trace_line(void *arg, uint32_t line, uint32_t prof, uint64_t off)
{
	hpctk_xfile *f = arg;
	const hpctk_xdb *x = f->x;
	if (!x->prof) return;
	if (!hv_eval(f->r, HV_R_HPCTKDB_TRACE_PROF_IN_RANGE, prof < x->prof->pi.n)) {
		char path[HV_PATH_MAX];
		snprintf(path, sizeof path, "trace.db/trace[%u]/profIndex", line);
		hv_emit(f->r, HV_R_HPCTKDB_TRACE_PROF_IN_RANGE, x->trace->b->name, off, 4, path,
			"profIndex %u is not below profile.db's nProfiles %u", prof, x->prof->pi.n);
	}
}

static void trace_elem(void *arg, uint32_t line, uint32_t ctx, uint64_t off)
{
	hpctk_xfile *f = arg;
	const hpctk_xdb *x = f->x;
	if (!x->meta || !x->meta->ctx_ok || ctx == 0) return;
	if (!hv_eval(f->r, HV_R_HPCTKDB_TRACE_CTX_KNOWN, meta_has_ctx(x, ctx))) {
		char path[HV_PATH_MAX];
		snprintf(path, sizeof path, "trace.db/trace[%u]/elem/ctxId", line);
		hv_emit(f->r, HV_R_HPCTKDB_TRACE_CTX_KNOWN, x->trace->b->name, off, 4, path,
			"ctxId %u is neither 0 nor listed in meta.db's context tree (trace elements never name elided "
			"contexts)",
			ctx);
	}
}

hpctk_trace_visitor hpctk_xfile_trace_visitor(hpctk_xfile *f)
{
	/* trace_elem as data: needs the context bitmap when it checks ids */
	const hpctk_xdb *x = f->x;
	bool ctx = x->meta && x->meta->ctx_ok;
	f->tfast = (hpctk_trace_fast){ctx ? HV_R_HPCTKDB_TRACE_CTX_KNOWN : -1, x->ctx_map, x->ctx_map_max};
	return (hpctk_trace_visitor){f, trace_line, trace_elem, !ctx || x->ctx_map ? &f->tfast : NULL};
}

/* --- after the walks ------------------------------------------------------------------ */

static void report_elided(const hpctk_xdb *x, hv_report *r, const hpctk_xfile *f)
{
	if (!f->elided) return;
	bool prof = f->which == HPCTK_XPROF;
	char path[HV_PATH_MAX];
	if (prof)
		snprintf(path, sizeof path, "profile.db/profile[%u]/valueBlock/pCtxIndices/ctxId", f->elided_owner);
	else
		snprintf(path, sizeof path, "cct.db/ctx[%u]", f->elided_owner);
	hv_emit(r, HV_R_HPCTKDB_CTX_ELIDED, prof ? x->prof->b->name : x->cct->b->name, f->elided_off, 4, path,
		"%llu %s name ctxIds that meta.db does not list (first: ctxId %u, shown here); release writers elide "
		"such contexts from meta.db, readers skip them",
		(unsigned long long)f->elided, prof ? "context index entries" : "contexts with values", f->elided_first);
}

/* The transpose differs at ctx (both walks complete, both digests there,
 * the context not left out of the comparison). */
typedef struct transpose_at {
	const hpctk_xfile *f;
	uint32_t n;
	bool known;
} transpose_at;

static bool transpose_differs(const void *arg, uint32_t c)
{
	const transpose_at *t = arg;
	const hpctk_digest *dp = t->f[HPCTK_XPROF].dig, *dc = t->f[HPCTK_XCCT].dig;
	if (!t->known || c >= t->n || hv_bit_get(t->f[HPCTK_XCCT].taint, c)) return false;
	return dp[c].n != dc[c].n || dp[c].h != dc[c].h;
}

/* Value semantics decided after the walks: the model's notes, then the
 * summary statistics' differences, except where cct.db is not profile.db's
 * transpose (that rule reports those contexts). */
static void report_values(const hpctk_xdb *x, hv_report *r, const hpctk_xfile f[HPCTK_XFILES], bool prof_complete,
			  bool cct_complete)
{
	if (!x->prof || !x->meta || !x->meta->values) return;
	hpctk_vmodel_notes(x->meta->values, r, x->prof->b->name);
	const hpctk_vsum *vs = f[HPCTK_XCCT].vs;
	if (!vs || vs->foreign) return;
	if (vs->oom) hv_report_internal(r, "%s: out of memory while checking summary statistics", x->cct->b->name);
	transpose_at t = {f, x->cct->ci.n,
			  prof_complete && cct_complete && f[HPCTK_XPROF].dig && f[HPCTK_XCCT].dig && f[HPCTK_XCCT].taint};
	hpctk_vsum_report(x->meta->values, r, x->prof->b->name, x->sumview->nthreads, vs->miss, vs->nmiss,
			  transpose_differs, &t);
}

void hpctk_xdb_finish(const hpctk_xdb *x, hv_report *r, const hpctk_xfile f[HPCTK_XFILES], bool prof_complete,
		      bool cct_complete)
{
	if (x->meta && x->meta->ctx_ok && x->cct && x->meta->ctx_ids.n > 0) {
		uint32_t maxid = x->meta->ctx_ids.max;
		if (!hv_eval(r, HV_R_HPCTKDB_CCT_CTX_COVERED, maxid < x->cct->ci.n))
			hv_emit(r, HV_R_HPCTKDB_CCT_CTX_COVERED, x->cct->b->name, x->cct->h.p[0] + 8, 4, "cct.db/CtxInfos/nCtxs",
				"meta.db lists ctxId %u but cct.db's nCtxs is %u; (*pCtxs)[ctxId] must exist for every "
				"context",
				maxid, x->cct->ci.n);
	}
	/* trace.db's bounds are not compared with the samples' own span:
	 * hpcprof writes them from its measurement source's time range, so
	 * looser bounds are how the writer always works; a sample outside them
	 * is tracedb.elem.within-bounds. */
	report_elided(x, r, &f[HPCTK_XPROF]);
	report_elided(x, r, &f[HPCTK_XCCT]);
	const hpctk_digest *dp = f[HPCTK_XPROF].dig, *dc = f[HPCTK_XCCT].dig;
	report_values(x, r, f, prof_complete, cct_complete);
	hpctk_xdb_report_hatchet(x, r, &f[HPCTK_XCCT]);
	if (!dp || !dc || !prof_complete || !cct_complete) return;
	uint64_t differ = 0;
	uint32_t first = 0;
	for (uint32_t c = 0; c < x->cct->ci.n; c++) {
		if (hv_bit_get(f[HPCTK_XCCT].taint, c) || (dp[c].n == dc[c].n && dp[c].h == dc[c].h)) continue;
		if (differ++ == 0) first = c;
	}
	hv_eval(r, HV_R_HPCTKDB_CCT_TRANSPOSE, differ == 0);
	if (differ) hpctk_xdb_report_transpose(x, r, first, differ);
}
