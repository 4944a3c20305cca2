/* Cross-file checks of an HPCToolkit database (see crossdb.h). */
#include "crossdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/hv_int.h"

static bool bit(const uint8_t *m, uint32_t i) { return (m[i >> 3] >> (i & 7)) & 1; }
static void set_bit(uint8_t *m, uint32_t i) { m[i >> 3] |= (uint8_t)(1u << (i & 7)); }

void hpctk_xdb_init(hpctk_xdb *x, hv_report *r, enum hv_edition ed, const hpctk_metadb_summary *meta,
		    hpctk_profiledb *prof, hpctk_cctdb *cct, hpctk_tracedb *trace)
{
	memset(x, 0, sizeof *x);
	x->r = r;
	x->edition = ed;
	x->meta = meta && meta->valid ? meta : NULL;
	x->prof = prof && prof->pi_ok ? prof : NULL;
	x->cct = cct && cct->ci_ok ? cct : NULL;
	x->trace = trace;
	x->prof_blob = prof ? prof->b : NULL;
	if (x->meta && x->meta->metrics_ok) {
		for (size_t i = 0; i < x->meta->n_prop_metric_ids; i++) set_bit(x->prop, x->meta->prop_metric_ids[i]);
		for (size_t i = 0; i < x->meta->n_stat_metric_ids; i++) set_bit(x->stat, x->meta->stat_metric_ids[i]);
	}
	if (x->meta && x->meta->ctx_ok && x->meta->n_ctx_ids > 0) {
		uint32_t maxid = x->meta->ctx_ids[x->meta->n_ctx_ids - 1];
		if (maxid / 8 <= 64 * (uint64_t)x->meta->n_ctx_ids + 4096) {
			x->ctx_map = calloc((size_t)maxid / 8 + 1, 1);
			x->ctx_map_max = maxid;
			for (size_t i = 0; x->ctx_map && i < x->meta->n_ctx_ids; i++) set_bit(x->ctx_map, x->meta->ctx_ids[i]);
		}
	}
	/* The transpose needs both files; one digest per context of cct.db. */
	if (x->prof && x->cct && x->cct->nctxs > 0) {
		x->dig = calloc(x->cct->nctxs, sizeof *x->dig);
		x->taint = calloc((x->cct->nctxs + 7u) / 8u, 1);
		if (!x->dig || !x->taint) {
			free(x->dig);
			free(x->taint);
			x->dig = NULL;
			x->taint = NULL;
		}
	}
}

void hpctk_xdb_free(hpctk_xdb *x)
{
	free(x->ctx_map);
	x->ctx_map = NULL;
	free(x->dig);
	free(x->taint);
	x->dig = NULL;
	x->taint = NULL;
}

/* --- hashing for the transpose --------------------------------------------- */

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void digest_add(hpctk_digest *d, uint32_t prof, uint16_t metric, uint64_t bits, bool add)
{
	/* Two mixes per value: this runs for every value of both files. */
	uint64_t k = bits ^ ((((uint64_t)prof << 16) | metric) * 0x9e3779b97f4a7c15ull);
	uint64_t h1 = mix(k ^ 0x5851f42d4c957f2dull), h2 = mix(k + 0x14057b7ef767814full);
	if (add) {
		d->n++;
		d->h1 += h1;
		d->h2 += h2;
	} else {
		d->n--;
		d->h1 -= h1;
		d->h2 -= h2;
	}
}

/* --- context ids ------------------------------------------------------------ */

static bool meta_has_ctx_search(const hpctk_metadb_summary *m, uint32_t ctx)
{
	size_t lo = 0, hi = m->n_ctx_ids;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->ctx_ids[mid] == ctx) return true;
		if (m->ctx_ids[mid] < ctx) lo = mid + 1;
		else hi = mid;
	}
	return false;
}

/* Membership is asked once per {Idx} and once per trace element: a bitmap
 * when the ids are dense enough (its size bounded by the ids meta.db
 * really lists), else a binary search. */
static bool meta_has_ctx(const hpctk_xdb *x, uint32_t ctx)
{
	if (x->ctx_map) return ctx <= x->ctx_map_max && ((x->ctx_map[ctx >> 3] >> (ctx & 7)) & 1);
	return meta_has_ctx_search(x->meta, ctx);
}

/* A ctxId named by profile.db (which = 0) or cct.db (which = 1). */
static void check_ctx(hpctk_xdb *x, int which, uint32_t ctx, uint64_t off, uint32_t owner)
{
	hv_report *r = x->r;
	char path[HV_PATH_MAX]; /* formatted only for a failure: this runs once per {Idx} */
#define CPATH()                                                                                                     \
	(which == 0 ? snprintf(path, sizeof path, "profile.db/profile[%u]/valueBlock/pCtxIndices/ctxId", owner)     \
		    : snprintf(path, sizeof path, "cct.db/ctx[%u]", owner),                                          \
	 path)
	const char *file = which == 0 ? x->prof->b->name : x->cct->b->name;
	if (which == 0 && x->cct) {
		if (!hv_eval(r, HV_R_HPCTKDB_CCT_CTX_COVERED, ctx < x->cct->nctxs)) {
			hv_emit(r, HV_R_HPCTKDB_CCT_CTX_COVERED, file, off, 4, CPATH(),
				"ctxId %u is not below cct.db's nCtxs %u, so cct.db has no {CI} entry for it", ctx,
				x->cct->nctxs);
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
	if (x->elided[which]++ == 0) {
		x->elided_first[which] = ctx;
		x->elided_off[which] = off;
		x->elided_owner[which] = owner;
	}
#undef CPATH
}

/* --- profile.db visitor -------------------------------------------------------- */

static void prof_index(void *arg, uint32_t prof, bool summary, uint32_t ctx, uint64_t off)
{
	hpctk_xdb *x = arg;
	(void)summary;
	check_ctx(x, 0, ctx, off, prof);
}

static void prof_value(void *arg, uint32_t prof, bool summary, uint32_t ctx, uint16_t metric, uint64_t bits,
		       uint64_t off)
{
	hpctk_xdb *x = arg;
	hv_report *r = x->r;
	if (x->meta && x->meta->metrics_ok) {
		int rule = summary ? HV_R_HPCTKDB_METRIC_STAT_KNOWN : HV_R_HPCTKDB_METRIC_PROP_KNOWN;
		if (!hv_eval(r, rule, bit(summary ? x->stat : x->prop, metric))) {
			char path[HV_PATH_MAX];
			snprintf(path, sizeof path, "profile.db/profile[%u]/valueBlock/value/metricId", prof);
			hv_emit(r, rule, x->prof->b->name, off, 2, path,
				"metricId %u (context %u) is not a %s in meta.db; %s", metric, ctx,
				summary ? "statMetricId" : "propMetricId",
				summary ? "summary profiles hold summary statistics" : "thread profiles hold propagated values");
		}
	}
	if (x->dig && !summary && x->cct && ctx < x->cct->nctxs) digest_add(&x->dig[ctx], prof, metric, bits, true);
}

static void prof_kind(void *arg, uint8_t kind, uint64_t off)
{
	hpctk_xdb *x = arg;
	/* nKinds 0: meta.db's Identifier Names could not be read (reported there). */
	if (!x->meta || x->meta->nkinds == 0) return;
	if (!hv_eval(x->r, HV_R_HPCTKDB_IDT_KIND_KNOWN, kind < x->meta->nkinds))
		hv_emit(x->r, HV_R_HPCTKDB_IDT_KIND_KNOWN, x->prof_blob->name, off, 1, "profile.db/IdTuples/tuple/ids/kind",
			"kind %u has no name in meta.db's Identifier Names section (nKinds = %u)", kind, x->meta->nkinds);
}

hpctk_prof_visitor hpctk_xdb_prof_visitor(hpctk_xdb *x) { return (hpctk_prof_visitor){x, prof_index, prof_value, prof_kind}; }

/* --- cct.db visitor --------------------------------------------------------------- */

static void cct_index(void *arg, uint32_t ctx, uint16_t metric, uint64_t off)
{
	hpctk_xdb *x = arg;
	hv_report *r = x->r;
	char path[HV_PATH_MAX];
	if (!x->cct_ctx_seen || x->last_cct_ctx != ctx) {
		x->cct_ctx_seen = true;
		x->last_cct_ctx = ctx;
		check_ctx(x, 1, ctx, x->cct->pctxs + (uint64_t)ctx * x->cct->szctx, ctx);
	}
	if (x->meta && x->meta->metrics_ok && !hv_eval(r, HV_R_HPCTKDB_METRIC_PROP_KNOWN, bit(x->prop, metric))) {
		snprintf(path, sizeof path, "cct.db/ctx[%u]/valueBlock/pMetricIndices/metricId", ctx);
		hv_emit(r, HV_R_HPCTKDB_METRIC_PROP_KNOWN, x->cct->b->name, off, 2, path,
			"metricId %u is not a propMetricId in meta.db; cct.db holds propagated values only", metric);
	}
}

static void cct_value(void *arg, uint32_t ctx, uint16_t metric, uint32_t prof, uint64_t bits, uint64_t off)
{
	hpctk_xdb *x = arg;
	hv_report *r = x->r;
	if (!x->prof) return;
	bool in = prof < x->prof->nprofiles;
	if (!hv_eval(r, HV_R_HPCTKDB_CCT_PROF_IN_RANGE, in)) {
		char path[HV_PATH_MAX];
		snprintf(path, sizeof path, "cct.db/ctx[%u]/valueBlock/value/profIndex", ctx);
		hv_emit(r, HV_R_HPCTKDB_CCT_PROF_IN_RANGE, x->cct->b->name, off, 4, path,
			"profIndex %u (metric %u) is not below profile.db's nProfiles %u", prof, metric,
			x->prof->nprofiles);
	}
	if (!x->dig || ctx >= x->cct->nctxs) return;
	/* Left to their own rules, and out of the comparison: profIndex 0 and
	 * out-of-range profiles. */
	if (!in || prof == 0) set_bit(x->taint, ctx);
	else digest_add(&x->dig[ctx], prof, metric, bits, false);
}

hpctk_cct_visitor hpctk_xdb_cct_visitor(hpctk_xdb *x) { return (hpctk_cct_visitor){x, cct_index, cct_value}; }

/* --- trace.db visitor ---------------------------------------------------------------- */

static void trace_line(void *arg, uint32_t line, uint32_t prof, uint64_t off)
{
	hpctk_xdb *x = arg;
	if (!x->prof) return;
	if (!hv_eval(x->r, HV_R_HPCTKDB_TRACE_PROF_IN_RANGE, prof < x->prof->nprofiles)) {
		char path[HV_PATH_MAX];
		snprintf(path, sizeof path, "trace.db/trace[%u]/profIndex", line);
		hv_emit(x->r, HV_R_HPCTKDB_TRACE_PROF_IN_RANGE, x->trace->b->name, off, 4, path,
			"profIndex %u is not below profile.db's nProfiles %u", prof, x->prof->nprofiles);
	}
}

static void trace_elem(void *arg, uint32_t line, uint32_t ctx, uint64_t off)
{
	hpctk_xdb *x = arg;
	if (!x->meta || !x->meta->ctx_ok || ctx == 0) return;
	if (!hv_eval(x->r, HV_R_HPCTKDB_TRACE_CTX_KNOWN, meta_has_ctx(x, ctx))) {
		char path[HV_PATH_MAX];
		snprintf(path, sizeof path, "trace.db/trace[%u]/elem/ctxId", line);
		hv_emit(x->r, HV_R_HPCTKDB_TRACE_CTX_KNOWN, x->trace->b->name, off, 4, path,
			"ctxId %u is neither 0 nor listed in meta.db's context tree (trace elements never name elided "
			"contexts)",
			ctx);
	}
}

hpctk_trace_visitor hpctk_xdb_trace_visitor(hpctk_xdb *x) { return (hpctk_trace_visitor){x, trace_line, trace_elem}; }

/* --- after the walks ------------------------------------------------------------------ */

static void report_elided(hpctk_xdb *x, int which)
{
	if (!x->elided[which]) return;
	hv_report *r = x->r;
	char path[HV_PATH_MAX];
	if (which == 0)
		snprintf(path, sizeof path, "profile.db/profile[%u]/valueBlock/pCtxIndices/ctxId", x->elided_owner[0]);
	else
		snprintf(path, sizeof path, "cct.db/ctx[%u]", x->elided_owner[1]);
	hv_emit(r, HV_R_HPCTKDB_CTX_ELIDED, which == 0 ? x->prof->b->name : x->cct->b->name, x->elided_off[which], 4,
		path,
		"%llu %s name ctxIds that meta.db does not list (first: ctxId %u, shown here); release writers elide "
		"such contexts from meta.db, readers skip them",
		(unsigned long long)x->elided[which], which == 0 ? "context index entries" : "contexts with values",
		x->elided_first[which]);
}

void hpctk_xdb_finish(hpctk_xdb *x, bool prof_complete, bool cct_complete)
{
	hv_report *r = x->r;
	if (x->meta && x->meta->ctx_ok && x->cct && x->meta->n_ctx_ids > 0) {
		uint32_t maxid = x->meta->ctx_ids[x->meta->n_ctx_ids - 1];
		if (!hv_eval(r, HV_R_HPCTKDB_CCT_CTX_COVERED, maxid < x->cct->nctxs))
			hv_emit(r, HV_R_HPCTKDB_CCT_CTX_COVERED, x->cct->b->name, x->cct->h.p[0] + 8, 4, "cct.db/CtxInfos/nCtxs",
				"meta.db lists ctxId %u but cct.db's nCtxs is %u; (*pCtxs)[ctxId] must exist for every "
				"context",
				maxid, x->cct->nctxs);
	}
	report_elided(x, 0);
	report_elided(x, 1);
	if (!x->dig || !prof_complete || !cct_complete) return;
	uint64_t differ = 0;
	uint32_t first = 0;
	for (uint32_t c = 0; c < x->cct->nctxs; c++) {
		const hpctk_digest *d = &x->dig[c];
		if (bit(x->taint, c) || (d->n == 0 && d->h1 == 0 && d->h2 == 0)) continue;
		if (differ++ == 0) first = c;
	}
	hv_eval(r, HV_R_HPCTKDB_CCT_TRANSPOSE, differ == 0);
	if (differ) hpctk_xdb_report_transpose(x, first, differ);
}
