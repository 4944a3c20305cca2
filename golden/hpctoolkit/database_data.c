/* Values, samples and profiles of a generated database (see the header). */
#include "database_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int cmp_u32(const void *a, const void *b);

/* Values follow the release spec's propagation (hpctoolkit/values/rules.def), as
 * hpcprof's do: a thread's raw ("point") value of a metric at a context,
 * its execution value (raw + all children's execution values) and its
 * "function" value (raw + the function values of the children whose
 * propagation bit is set). Sums over subtrees cannot be pure functions of a
 * coordinate, so they are computed once, bottom-up, for a few classes of
 * (profile, metric) and scaled: thread p and metric k use class
 * (p-1) % 3 * 2 + k % 2 and the factor (1 + p % 5 / 4) * (1 + k % 4 / 2).
 * Elided contexts (not in meta.db) are always active, childless, and add
 * their raw value to the global context's execution and function values
 * (as if hpcprof had elided them right below it). The custom scope has
 * values where the execution scope does, not derived from anything. */
#define HDB_PCLS 3u
#define HDB_MCLS 2u

static unsigned val_class(unsigned prof, uint32_t metric)
{
	return (prof - 1) % HDB_PCLS * HDB_MCLS + metric % HDB_MCLS;
}

static int cmp_u32(const void *a, const void *b);

static bool is_elided(const hdb *d, uint32_t ctx)
{
	return d->n_elided && bsearch(&ctx, d->elided, d->n_elided, sizeof *d->elided, cmp_u32) != NULL;
}

/* Raw weight of class cls at val_ctx[ci]; 0 when inactive. */
static double raw_weight(const hdb *d, unsigned cls, size_t ci)
{
	uint32_t ctx = d->val_ctx[ci];
	uint64_t h = hpctk_mix(hpctk_mix(d->seed ^ 0x7261770aull, ((uint64_t)cls << 32) | ctx), 0x5eed);
	if (ctx != 0 && !is_elided(d, ctx) && h % 100 >= 45) return 0.0;
	return (double)(1 + (h >> 20) % 1000000) / 1000.0;
}

static size_t ci_of(const hdb *d, uint32_t ctx)
{
	const uint32_t *at = bsearch(&ctx, d->val_ctx, d->n_val_ctx, sizeof *d->val_ctx, cmp_u32);
	return at ? (size_t)(at - d->val_ctx) : 0;
}

/* The execution and function weights of every class (d->wx, d->wf). */
static int build_weights(hdb *d)
{
	const hpctk_model *m = &d->m;
	size_t n = d->n_val_ctx, ncls = HDB_PCLS * HDB_MCLS;
	d->wx = malloc(ncls * n * sizeof *d->wx);
	d->wf = malloc(ncls * n * sizeof *d->wf);
	size_t *mci = malloc((m->n_ctx ? m->n_ctx : 1) * sizeof *mci);
	size_t *eci = malloc((m->n_entries ? m->n_entries : 1) * sizeof *eci);
	if (!d->wx || !d->wf || !mci || !eci) {
		free(mci);
		free(eci);
		return -1;
	}
	unsigned bit = 0;
	for (unsigned s = 0; s < m->n_scopes; s++)
		if (m->scopes[s].type == HPCTK_SCOPE_TRANSITIVE) bit = m->scopes[s].prop_index & 15u;
	for (uint32_t k = 0; k < m->n_ctx; k++) mci[k] = ci_of(d, m->ctx[k].ctx_id);
	for (uint32_t e = 0; e < m->n_entries; e++) eci[e] = ci_of(d, m->entries[e].ctx_id);
	for (unsigned cls = 0; cls < ncls; cls++) {
		double *x = d->wx + cls * n, *f = d->wf + cls * n;
		for (size_t ci = 0; ci < n; ci++) x[ci] = f[ci] = raw_weight(d, cls, ci);
		/* breadth-first order: every child after its parent */
		for (uint32_t k = m->n_ctx; k-- > 0;) {
			const hpctk_ctx *c = &m->ctx[k];
			size_t pci = c->parent != HPCTK_NONE ? mci[c->parent] : eci[c->entry];
			x[pci] += x[mci[k]];
			if (c->propagation >> bit & 1u) f[pci] += f[mci[k]];
		}
		for (uint32_t e = 0; e < m->n_entries; e++) x[0] += x[eci[e]]; /* entry points never propagate transitively */
		for (size_t i = 0; i < d->n_elided; i++) {
			size_t ci = ci_of(d, d->elided[i]);
			x[0] += x[ci];
			f[0] += f[ci];
		}
	}
	free(mci);
	free(eci);
	return 0;
}

static bool thread_visits(const hdb *d, unsigned prof, size_t ci)
{
	if (d->prof[prof].empty) return false;
	for (unsigned k = 0; k < HDB_MCLS; k++)
		if (d->wx[val_class(prof, k) * d->n_val_ctx + ci] != 0.0) return true;
	return false;
}

/* Thread value; m indexes the model's propMetricIds (not d->prop: a break
 * may write another id for the same values). */
static bool thread_value(const hdb *d, unsigned prof, size_t ci, size_t m, double *v)
{
	if (d->prof[prof].empty) return false;
	const hpctk_model *md = &d->m;
	uint16_t pid = md->prop_metric_ids[m];
	uint32_t k = md->prop_owner[pid];
	const hpctk_metric *met = &md->metrics[k];
	uint8_t type = md->scopes[met->insts[md->prop_inst[pid]].scope].type;
	size_t at = val_class(prof, k) * d->n_val_ctx + ci;
	double w = type == HPCTK_SCOPE_POINT ? raw_weight(d, val_class(prof, k), ci)
		   : type == HPCTK_SCOPE_TRANSITIVE ? d->wf[at]
						      : d->wx[at];
	if (w == 0.0) return false;
	if (type == HPCTK_SCOPE_CUSTOM) { /* not derived: any non-zero value */
		uint64_t h = hpctk_mix(hpctk_mix(d->seed, ((uint64_t)prof << 32) | d->val_ctx[ci]), pid);
		w = (double)(1 + (h >> 20) % 1000000) / 1000.0;
	}
	*v = (1.0 + (prof % 5) / 4.0) * (1.0 + (k % 4) / 2.0) * w;
	if (prof == 1 && ci == 0 && d->k.vb_factor != 0.0 && !d->k.vb_summary && pid == d->k.vb_id) *v *= d->k.vb_factor;
	return true;
}

static int cmp_u16(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
	return x < y ? -1 : x > y;
}

/* Summary statistic over the threads that really have data (the model's
 * own summary would also count the threads this layer empties): the
 * summary's formula applied to each thread's value of the summarised
 * propMetricId, combined as the summary says. All of them are folded in
 * one pass over the threads, each (context, statistic) in thread order, so
 * every value is the same double as a fold per (context, statistic) and
 * the cost is that of writing the thread values once. */
struct hdb_sums {
	double *acc;      /* [ci * n_stat + m] */
	uint8_t *any;     /* [ci * n_stat + m]: some thread has a value */
	uint8_t *visits;  /* [ci]: some thread visits the context */
	size_t *pm;       /* [m]: index of the summarised propMetricId, or SIZE_MAX */
};

static const hpctk_summary *summary_of(const hpctk_model *md, size_t m)
{
	uint16_t sid = md->stat_metric_ids[m];
	if (sid >= md->stat_lookup_len || md->stat_owner[sid] == HPCTK_NONE) return NULL;
	const hpctk_metric *met = &md->metrics[md->stat_owner[sid]];
	return &met->summaries[md->stat_summary[sid]];
}

static void sums_free(struct hdb_sums *s)
{
	if (!s) return;
	free(s->acc);
	free(s->any);
	free(s->visits);
	free(s->pm);
	free(s);
}

/* The fold, or NULL when out of memory (the writers then see no summary
 * values, and their own allocations fail next). */
static struct hdb_sums *sums_of(const hdb *d)
{
	if (d->sums) return d->sums;
	const hpctk_model *md = &d->m;
	size_t ns = md->n_stat_metric_ids, nc = d->n_val_ctx;
	struct hdb_sums *s = calloc(1, sizeof *s);
	if (!s) return NULL;
	s->acc = calloc(nc * ns + 1, sizeof *s->acc);
	s->any = calloc(nc * ns + 1, 1);
	s->visits = calloc(nc + 1, 1);
	s->pm = malloc((ns + 1) * sizeof *s->pm);
	if (!s->acc || !s->any || !s->visits || !s->pm) {
		sums_free(s);
		return NULL;
	}
	for (size_t m = 0; m < ns; m++) {
		const hpctk_summary *su = summary_of(md, m);
		s->pm[m] = SIZE_MAX;
		if (!su) continue;
		uint16_t pid = md->metrics[md->stat_owner[md->stat_metric_ids[m]]].insts[su->inst].prop_metric_id;
		const uint16_t *at = bsearch(&pid, md->prop_metric_ids, md->n_prop_metric_ids, sizeof pid, cmp_u16);
		if (at) s->pm[m] = (size_t)(at - md->prop_metric_ids);
	}
	for (unsigned t = 1; t < d->nprof; t++)
		for (size_t ci = 0; ci < nc; ci++) {
			/* thread_value has no value where the thread does not visit */
			if (!thread_visits(d, t, ci)) continue;
			s->visits[ci] = 1;
			for (size_t m = 0; m < ns; m++) {
				double x;
				if (s->pm[m] == SIZE_MAX || !thread_value(d, t, ci, s->pm[m], &x)) continue;
				const hpctk_summary *su = summary_of(md, m);
				double *acc = &s->acc[ci * ns + m];
				uint8_t *any = &s->any[ci * ns + m];
				if (strcmp(su->formula, "$$^2") == 0) x *= x;
				if (!*any) *acc = x;
				else if (su->combine == HPCTK_COMBINE_MIN) *acc = x < *acc ? x : *acc;
				else if (su->combine == HPCTK_COMBINE_MAX) *acc = x > *acc ? x : *acc;
				else *acc += x;
				*any = 1;
			}
		}
	((hdb *)d)->sums = s; /* a cache: the data it folds does not change */
	return s;
}

static bool summary_value(const hdb *d, size_t ci, size_t m, double *v)
{
	const struct hdb_sums *s = sums_of(d);
	size_t ns = d->m.n_stat_metric_ids;
	if (!s || !s->any[ci * ns + m]) return false;
	double acc = s->acc[ci * ns + m];
	if (ci == 0 && d->k.vb_factor != 0.0 && d->k.vb_summary && d->m.stat_metric_ids[m] == d->k.vb_id) acc *= d->k.vb_factor;
	*v = acc;
	return true;
}

bool hdb_visits(const hdb *d, unsigned prof, size_t ci)
{
	if (prof != 0) return thread_visits(d, prof, ci);
	const struct hdb_sums *s = sums_of(d);
	return s && s->visits[ci];
}

bool hdb_value(const hdb *d, unsigned prof, size_t ci, size_t m, double *v)
{
	return prof == 0 ? summary_value(d, ci, m, v) : thread_value(d, prof, ci, m, v);
}

/* The smallest and largest sample of the traces written, as hpcprof's
 * samples bound them in the 14 real databases (research: issue-233's lie
 * 64.6 ms wider; a break writes that). */
static void exact_bounds(const hdb *d, uint64_t *lo, uint64_t *hi)
{
	bool any = false;
	*lo = *hi = 0;
	for (unsigned p = 1; p < d->nprof; p++) {
		uint64_t n = d->prof[p].trace_len;
		if (!n) continue;
		uint64_t a = hpctk_trace_ts(&d->m, p, 0), b = hpctk_trace_ts(&d->m, p, (uint32_t)(n - 1));
		*lo = !any || a < *lo ? a : *lo;
		*hi = !any || b > *hi ? b : *hi;
		any = true;
	}
}

uint64_t hdb_min_ts(const hdb *d)
{
	uint64_t lo, hi;
	exact_bounds(d, &lo, &hi);
	return lo - d->k.tdb_min_below;
}

uint64_t hdb_max_ts(const hdb *d)
{
	uint64_t lo, hi;
	exact_bounds(d, &lo, &hi);
	return hi + d->k.tdb_max_above;
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
	if (build_weights(d) != 0) goto oom;

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
	free(d->wx);
	free(d->wf);
	sums_free(d->sums);
	hpctk_model_free(&d->m);
	memset(d, 0, sizeof *d);
}
