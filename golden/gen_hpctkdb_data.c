/* Values, samples and profiles of a generated database (see the header). */
#include "gen_hpctkdb_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int cmp_u32(const void *a, const void *b);

/* Elided contexts always have a value in thread 1 (for its first metric),
 * so their ids really appear in profile.db and cct.db at any shape. */
static bool elided_forced(const hdb *d, unsigned prof, size_t ci)
{
	return prof == 1 && d->n_elided &&
	       bsearch(&d->val_ctx[ci], d->elided, d->n_elided, sizeof *d->elided, cmp_u32) != NULL;
}

static bool thread_visits(const hdb *d, unsigned prof, size_t ci)
{
	if (d->prof[prof].empty) return false;
	return elided_forced(d, prof, ci) || hpctk_ctx_active(&d->m, prof, d->val_ctx[ci]);
}

/* Thread value; m indexes the model's propMetricIds (not d->prop: a break
 * may write another id for the same values). */
static bool thread_value(const hdb *d, unsigned prof, size_t ci, size_t m, double *v)
{
	if (d->prof[prof].empty) return false;
	if (elided_forced(d, prof, ci) && m == 0) {
		*v = 0.5 + (double)d->val_ctx[ci];
		return true;
	}
	return hpctk_value(&d->m, prof, d->val_ctx[ci], d->m.prop_metric_ids[m], v);
}

static int cmp_u16(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
	return x < y ? -1 : x > y;
}

/* Summary statistic over the threads that really have data (the model's
 * own summary would also count the threads this layer empties): the
 * summary's formula applied to each thread's value of the summarised
 * propMetricId, combined as the summary says. */
static bool summary_value(const hdb *d, size_t ci, size_t m, double *v)
{
	const hpctk_model *md = &d->m;
	uint16_t sid = md->stat_metric_ids[m];
	if (sid >= md->stat_lookup_len || md->stat_owner[sid] == HPCTK_NONE) return false;
	const hpctk_metric *met = &md->metrics[md->stat_owner[sid]];
	const hpctk_summary *su = &met->summaries[md->stat_summary[sid]];
	uint16_t pid = met->insts[su->inst].prop_metric_id;
	const uint16_t *at = bsearch(&pid, md->prop_metric_ids, md->n_prop_metric_ids, sizeof pid, cmp_u16);
	if (!at) return false;
	size_t pm = (size_t)(at - md->prop_metric_ids);
	bool any = false;
	double acc = 0;
	for (unsigned t = 1; t < d->nprof; t++) {
		double x;
		if (!thread_value(d, t, ci, pm, &x)) continue;
		if (strcmp(su->formula, "$$^2") == 0) x *= x;
		if (!any) acc = x;
		else if (su->combine == HPCTK_COMBINE_MIN) acc = x < acc ? x : acc;
		else if (su->combine == HPCTK_COMBINE_MAX) acc = x > acc ? x : acc;
		else acc += x;
		any = true;
	}
	if (any) *v = acc;
	return any;
}

bool hdb_visits(const hdb *d, unsigned prof, size_t ci)
{
	if (prof != 0) return thread_visits(d, prof, ci);
	for (unsigned t = 1; t < d->nprof; t++)
		if (thread_visits(d, t, ci)) return true;
	return false;
}

bool hdb_value(const hdb *d, unsigned prof, size_t ci, size_t m, double *v)
{
	return prof == 0 ? summary_value(d, ci, m, v) : thread_value(d, prof, ci, m, v);
}

/* A little looser than the model's bounds, as hpcprof's are (its
 * minTimestamp can lie well before the first sample). */
uint64_t hdb_min_ts(const hdb *d)
{
	uint64_t lo, hi;
	hpctk_trace_bounds(&d->m, &lo, &hi);
	return d->seed % 2 ? lo - 64600123u : lo;
}

uint64_t hdb_max_ts(const hdb *d)
{
	uint64_t lo, hi;
	hpctk_trace_bounds(&d->m, &lo, &hi);
	return hi;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void *dup_array(const void *src, size_t n, size_t sz)
{
	void *p = malloc(n ? n * sz : 1);
	if (p && n) memcpy(p, src, n * sz);
	return p;
}

int hdb_build(const gen_params *gp, bool elide, hdb *d, char *err, size_t errlen)
{
	memset(d, 0, sizeof *d);
	d->edition = gp->edition == HV_EDITION_DRAFT ? HV_EDITION_DRAFT : HV_EDITION_RELEASE;
	d->minor = gp->minor;
	d->seed = gp->seed;
	if (hpctk_model_build(&d->m, gp, err, errlen) != 0) return -1;
	const hpctk_model *m = &d->m;
	d->n_meta_ctx = m->n_ctx_ids;
	d->n_prop = m->n_prop_metric_ids;
	d->n_stat = m->n_stat_metric_ids;
	d->nkinds = m->n_kinds;
	/* Private copies: breaks may add ids the model does not have. */
	d->meta_ctx = dup_array(m->ctx_ids_sorted, d->n_meta_ctx, sizeof *d->meta_ctx);
	d->prop = dup_array(m->prop_metric_ids, d->n_prop, sizeof *d->prop);
	d->stat = dup_array(m->stat_metric_ids, d->n_stat, sizeof *d->stat);
	if (!d->meta_ctx || !d->prop || !d->stat) goto oom;

	/* Elided contexts take ids meta.db lacks. hpcprof hands out ids from one
	 * counter and then drops the elided contexts from meta.db, so their ids
	 * are the holes between meta.db's ids (research/hpctoolkit.md §3.1:
	 * loops-cputime-t lists 118 contexts up to id 252). Every other hole is
	 * taken, so ids that never existed remain too (empty cct.db entries);
	 * ids past meta.db's largest only if the holes run out. */
	size_t n_el = elide ? 1 + d->n_meta_ctx / 4 : 0;
	d->elided = malloc((n_el ? n_el : 1) * sizeof *d->elided);
	d->val_ctx = malloc((1 + d->n_meta_ctx + n_el) * sizeof *d->val_ctx);
	if (!d->val_ctx || !d->elided) goto oom;
	d->val_ctx[0] = 0;
	memcpy(d->val_ctx + 1, d->meta_ctx, d->n_meta_ctx * sizeof *d->meta_ctx);
	uint32_t cand = 1;
	size_t mi = 0;
	bool take = true;
	for (size_t i = 0; i < n_el; cand++) {
		while (mi < d->n_meta_ctx && d->meta_ctx[mi] < cand) mi++;
		if (mi < d->n_meta_ctx && d->meta_ctx[mi] == cand) continue; /* listed in meta.db */
		if (take || mi == d->n_meta_ctx) d->elided[i++] = cand;
		take = !take;
	}
	memcpy(d->val_ctx + 1 + d->n_meta_ctx, d->elided, n_el * sizeof *d->elided);
	d->n_val_ctx = 1 + d->n_meta_ctx + n_el;
	d->n_elided = n_el;
	qsort(d->val_ctx, d->n_val_ctx, sizeof *d->val_ctx, cmp_u32);
	d->max_ctx = d->val_ctx[d->n_val_ctx - 1];

	d->k = (hdb_knobs){.pdb_order = -1, .pdb_blk = -1, .cdb_ctx = -1, .cdb_extra_ctx = -1};
	gen_rng rng = {gp->seed * 0x2545f4914f6cdd1dull + 77};
	d->nprof = m->n_profiles;
	d->prof = calloc(d->nprof ? d->nprof : 1, sizeof *d->prof);
	if (!d->prof) goto oom;
	for (unsigned i = 0; i < d->nprof; i++) {
		hdb_prof *p = &d->prof[i];
		const hpctk_profile *mp = &m->profiles[i];
		p->nids = mp->n_ids < HDB_MAX_IDS ? mp->n_ids : HDB_MAX_IDS;
		for (unsigned k = 0; k < p->nids; k++)
			p->ids[k] = (hdb_id){mp->ids[k].kind, mp->ids[k].flags, mp->ids[k].logical_id, mp->ids[k].physical_id};
		/* Some threads measured nothing: empty blocks, empty trace lines
		 * (issue-233 has 54 such profiles). Never all of them. */
		p->empty = i > 1 && gen_below(&rng, 5) == 0;
		p->trace_len = i == 0 || p->empty ? 0 : mp->trace_len;
		/* Writers reserve a line before they know its final length; the
		 * unused rest of a reservation stays as zero-filled slack. */
		p->trace_cap = p->trace_len + (p->trace_len ? gen_below(&rng, 4) : 0);
		d->has_traces |= p->trace_len > 0;
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	hdb_free(d);
	return -1;
}

void hdb_free(hdb *d)
{
	free(d->meta_ctx);
	free(d->val_ctx);
	free(d->elided);
	free(d->prop);
	free(d->stat);
	free(d->prof);
	hpctk_model_free(&d->m);
	memset(d, 0, sizeof *d);
}
