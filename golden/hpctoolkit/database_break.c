/* --break cases for the cross-file rules of whole databases: four files
 * written from one model, consistent except for the one disagreement. */
#include <string.h>

#include "database_break.h"

static void no_meta(hk_ctx *c) { c->want_meta = false; }
static void no_prof(hk_ctx *c) { c->want_prof = false; }
static void no_cct(hk_ctx *c) { c->want_cct = false; }
static void no_tax(hk_ctx *c) { c->want_tax = false; }
static void trace_other_edition(hk_ctx *c)
{
	c->d.k.tdb_other_edition = true;
	if (!c->d.has_traces) c->fail = "no trace.db (no thread has samples)";
}

/* A ctxId meta.db does not list: a gap between its ids if there is one
 * (below cct.db's nCtxs either way), else one past the largest. */
static uint32_t unknown_ctx(const hdb *d)
{
	for (size_t i = 0; i + 1 < d->n_meta_ctx; i++)
		if (d->meta_ctx[i + 1] > d->meta_ctx[i] + 1) return d->meta_ctx[i] + 1;
	return d->n_meta_ctx ? d->meta_ctx[d->n_meta_ctx - 1] + 1 : 1;
}

/* First element of the first non-empty trace line gets an unknown ctxId. */
static void trace_ctx(hk_ctx *c)
{
	if (!c->want_trace) {
		c->fail = "no trace.db (no thread has samples)";
		return;
	}
	for (uint32_t i = 0; i < c->tl.ntraces; i++)
		if (c->tl.t[i].end > c->tl.t[i].start) {
			hv_put_le32(hk_t(c, c->tl.t[i].start + 8), unknown_ctx(&c->d));
			return;
		}
}

/* The largest id of a list renamed to an id the list does not have (one
 * past every prop and stat id), in profile.db and cct.db alike. */
static uint16_t unused_metric_id(const hdb *d)
{
	uint16_t hi = 0;
	for (size_t i = 0; i < d->n_prop; i++) hi = d->prop[i] > hi ? d->prop[i] : hi;
	for (size_t i = 0; i < d->n_stat; i++) hi = d->stat[i] > hi ? d->stat[i] : hi;
	return (uint16_t)(hi + 1);
}
static void rename_prop(hk_ctx *c)
{
	uint16_t id = unused_metric_id(&c->d);
	if (id == 0) c->fail = "every metric id is in use";
	else c->d.prop[c->d.n_prop - 1] = id;
}
static void rename_stat(hk_ctx *c)
{
	uint16_t id = unused_metric_id(&c->d);
	if (id == 0) c->fail = "every metric id is in use";
	else c->d.stat[c->d.n_stat - 1] = id;
}

static void kind_unknown(hk_ctx *c)
{
	uint8_t *e = hk_p(c, c->pl.p[1].tuple + 8);
	*e = c->d.nkinds;
}
/* cct.db's Context Info array one shorter: the largest ctxId (which has
 * data) is no longer covered. */
static void cct_short(hk_ctx *c) { hv_put_le32(hk_c(c, c->cl.ci_sec + 8), c->cl.nctxs - 1); }
static void cct_extra_prof(hk_ctx *c) { c->d.k.cdb_extra_ctx = 0; }
static void trace_prof(hk_ctx *c)
{
	if (!c->want_trace) c->fail = "no trace.db (no thread has samples)";
	else hv_put_le32(hk_t(c, c->tl.t[0].th), c->d.nprof);
}
/* One cct.db value doubled. */
static void transpose(hk_ctx *c)
{
	uint8_t *v = hk_c(c, c->cl.c[0].vals + 4);
	hv_put_lef64(v, 2.0 * hv_lef64(v));
}

/* Value semantics: thread 1's value of the first metric's scope of `type`
 * at the global context, or a summary of it, scaled by `factor`. */
static void scale_value(hk_ctx *c, uint8_t type, bool summary, double factor)
{
	const hpctk_model *m = &c->d.m;
	for (uint32_t k = 0; k < m->n_metrics; k++) {
		const hpctk_metric *md = &m->metrics[k];
		bool point = false;
		for (unsigned i = 0; i < md->n_insts; i++) point |= m->scopes[md->insts[i].scope].type == HPCTK_SCOPE_POINT;
		if (!point) continue;
		if (summary) {
			for (unsigned i = 0; i < md->n_summaries; i++)
				if (m->scopes[md->summaries[i].scope].type == type) {
					c->d.k.vb_factor = factor;
					c->d.k.vb_id = md->summaries[i].stat_metric_id;
					c->d.k.vb_summary = true;
					return;
				}
			continue;
		}
		for (unsigned i = 0; i < md->n_insts; i++)
			if (m->scopes[md->insts[i].scope].type == type) {
				c->d.k.vb_factor = factor;
				c->d.k.vb_id = md->insts[i].prop_metric_id;
				return;
			}
	}
	c->fail = "no metric with a point scope and that scope";
}
static void bad_exec(hk_ctx *c) { scale_value(c, HPCTK_SCOPE_EXECUTION, false, 1.5); }
static void bad_trans(hk_ctx *c) { scale_value(c, HPCTK_SCOPE_TRANSITIVE, false, 1.5); }
static void bad_summary(hk_ctx *c) { scale_value(c, HPCTK_SCOPE_EXECUTION, true, 1.5); }
/* Just inside the tolerance (1e-9 of found + terms, about 2e-9 here). */
static void near_exec(hk_ctx *c) { scale_value(c, HPCTK_SCOPE_EXECUTION, false, 1.0 + 1.5e-9); }
static void near_summary(hk_ctx *c) { scale_value(c, HPCTK_SCOPE_EXECUTION, true, 1.0 + 1.5e-9); }
#define DB "hpctoolkit-db"
const hk_break hk_breaks_crossdb[] = {
	{"hpctkdb.metadb.missing", DB, HK_BOTH, false, no_meta, NULL},
	{"hpctkdb.profiledb.missing", DB, HK_BOTH, false, no_prof, NULL},
	{"hpctkdb.cctdb.missing", DB, HK_BOTH, false, no_cct, NULL},
	{"hpctkdb.edition.agree", DB, HK_BOTH, false, trace_other_edition, NULL},
	{"hpctkdb.edition.reader-hazard-draft", DB, HK_DRAFT, false, NULL, NULL}, /* every draft database */
	{"hpctkdb.ctx.elided", DB, HK_RELEASE, true, NULL, NULL},
	{"hpctkdb.ctx.unknown", DB, HK_DRAFT, true, NULL, NULL},
	{"hpctkdb.trace.ctx-known", DB, HK_BOTH, false, NULL, trace_ctx},
	{"hpctkdb.metric.prop-known", DB, HK_BOTH, false, rename_prop, NULL},
	{"hpctkdb.metric.stat-known", DB, HK_BOTH, false, rename_stat, NULL},
	{"hpctkdb.idt.kind-known", DB, HK_BOTH, false, NULL, kind_unknown},
	{"hpctkdb.cct.ctx-covered", DB, HK_BOTH, false, NULL, cct_short},
	{"hpctkdb.cct.prof-in-range", DB, HK_BOTH, false, cct_extra_prof, NULL},
	{"hpctkdb.trace.prof-in-range", DB, HK_BOTH, false, NULL, trace_prof},
	{"hpctkdb.cct.transpose", DB, HK_BOTH, false, NULL, transpose},
	{"hpctkdb.values.execution", DB, HK_RELEASE, false, bad_exec, NULL},
	{"hpctkdb.values.transitive", DB, HK_RELEASE, false, bad_trans, NULL},
	{"hpctkdb.values.summary", DB, HK_RELEASE, false, bad_summary, NULL},
	{"hpctkdb.values.unverifiable", DB, HK_RELEASE, false, NULL, NULL}, /* hpcprof's custom scope kept */
	/* the writer's point and lex_aware values, unlike hpcprof's, differ from the function scope's */
	{"hpctkdb.metrics.reader-hazard-hatchet-scope", DB, HK_RELEASE, false, NULL, NULL},
	/* metrics/default.yaml: the taxonomy writer (taxonomy.c) breaks the rule it is given */
	{"hpctkdb.taxonomy.missing", DB, HK_BOTH, false, no_tax, NULL},
	{"hpctkdb.taxonomy.yaml", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.alias", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.bounds", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.depth", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.limit", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.top", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.version", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.input", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.metric", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.variant", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.format", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.formula", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.child-variant", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.input-metadb", DB, HK_RELEASE, false, NULL, NULL},
	{"hpctkdb.taxonomy.unpresented", DB, HK_RELEASE, false, NULL, NULL},
	{"hpctkdb.taxonomy.hatchet", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.viewer-alias-cap", DB, HK_BOTH, false, NULL, NULL},
	/* one edition: the size does not depend on it, and each case is 3 MiB */
	{"hpctkdb.taxonomy.viewer-size", DB, HK_RELEASE, false, NULL, NULL},
	{"hpctkdb.taxonomy.viewer-input", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.viewer-formula", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.viewer-input-reuse", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.viewer-variants", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.viewer-order", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.unread", DB, HK_BOTH, false, NULL, NULL},
	/* the taxonomy's other one-change variants, as the readers were measured on
	 * them: the same rule broken another way (n_/y_ cases), or just inside it */
	{"hpctkdb.taxonomy.viewer-input~no-formula", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.viewer-formula~string", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.viewer-formula~three-args", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.viewer-alias-cap~at-cap", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.viewer-size~at-cap", DB, HK_RELEASE, false, NULL, NULL},
	{"hpctkdb.taxonomy.variant~render-string", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.hatchet~render-number", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.hatchet~percentage", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.hatchet~not-sum", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.hatchet~renamed", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.hatchet~nested", DB, HK_BOTH, false, NULL, NULL},
	{"hpctkdb.taxonomy.hatchet~expression", DB, HK_BOTH, false, NULL, NULL},
	/* not rules: values changed by less than the tolerance (i_ cases) */
	{"hpctkdb.values.execution~inside-tolerance", DB, HK_RELEASE, false, near_exec, NULL},
	{"hpctkdb.values.summary~inside-tolerance", DB, HK_RELEASE, false, near_summary, NULL},
	{NULL, NULL, 0, false, NULL, NULL},
};
