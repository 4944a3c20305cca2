/* Values, samples and profiles of a generated database (see the header). */
#include "gen_hpctkdb_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_hpctkdb_model.h"

uint64_t hdb_hash(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	/* Four rounds of splitmix64 finalisation chained through the words. */
	uint64_t h = a * 0x9e3779b97f4a7c15ull;
	const uint64_t w[3] = {b, c, d};
	for (int i = 0; i < 4; i++) {
		if (i) h ^= w[i - 1] + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2);
		h ^= h >> 30;
		h *= 0xbf58476d1ce4e5b9ull;
		h ^= h >> 27;
		h *= 0x94d049bb133111ebull;
		h ^= h >> 31;
	}
	return h;
}

bool hdb_visits(const hdb *d, unsigned prof, size_t ci)
{
	const hdb_prof *p = &d->prof[prof];
	if (p->empty) return false;
	if (ci == 0) return true; /* the global context aggregates every visited root */
	return hdb_hash(d->seed, prof, ci, 0x11) % 100 < p->ctx_pct;
}

bool hdb_value(const hdb *d, unsigned prof, size_t ci, size_t m, double *v)
{
	if (!hdb_visits(d, prof, ci)) return false;
	uint64_t h = hdb_hash(d->seed ^ 0x5bd1e995u, prof, ci, m);
	/* The first metric is always present at a visited context, so every
	 * visited context is non-empty (what hpcprof's accumulators produce). */
	if (m != 0 && h % 100 >= d->met_pct) return false;
	*v = 1.0 + (double)(h >> 11) * (1000.0 / 9007199254740992.0);
	return true;
}

void hdb_sample(const hdb *d, unsigned prof, uint64_t k, uint64_t *ts, uint32_t *ctx)
{
	uint64_t h = hdb_hash(d->seed ^ 0x7f4a7c15u, prof, k, 0x33);
	/* Even samples sit on the grid, odd ones between it and the next grid
	 * point (sometimes exactly on the previous one: equal timestamps are
	 * legal, only decreasing ones are not). */
	uint64_t jitter = (k & 1) ? ((h >> 8) % 5 == 0 ? 0 : (h >> 16) % d->tstep) : 0;
	*ts = d->t0 + (k / 2) * d->tstep + jitter + prof % 3;
	/* Only even samples may be idle (ctxId 0), so no two 0s are adjacent. */
	if ((k & 1) == 0 && h % 9 == 0) *ctx = 0;
	else *ctx = d->n_meta_ctx ? d->meta_ctx[(h >> 24) % d->n_meta_ctx] : 0;
}

uint64_t hdb_min_ts(const hdb *d) { return d->t0 - 64600123u; }

uint64_t hdb_max_ts(const hdb *d)
{
	uint64_t maxlen = 0;
	for (unsigned p = 1; p < d->nprof; p++)
		if (d->prof[p].trace_len > maxlen) maxlen = d->prof[p].trace_len;
	return d->t0 + (maxlen / 2 + 1) * d->tstep + 3 + 1000;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Identifier tuples like hpcprof's: NODE (physical, hostid) / RANK /
 * THREAD, and for a few profiles GPUCONTEXT / GPUSTREAM. Kinds outside
 * meta.db's names are never used. */
static void make_tuple(const hdb *d, unsigned prof, hdb_prof *p)
{
	unsigned t = prof - 1;
	unsigned ranks = 2;
	p->nids = 0;
	if (d->nkinds > 1) p->ids[p->nids++] = (hdb_id){1, 1, t / 8, 0x7f0001u + t / 8};
	if (d->nkinds > 2) p->ids[p->nids++] = (hdb_id){2, 0, t % ranks, t % ranks};
	bool gpu = d->nkinds > 6 && t % 5 == 4;
	if (gpu) {
		p->ids[p->nids++] = (hdb_id){5, 0, 0, 0};
		p->ids[p->nids++] = (hdb_id){6, 0, t / 5, t / 5};
	} else if (d->nkinds > 3) {
		p->ids[p->nids++] = (hdb_id){3, 0, t / ranks, t / ranks};
	}
}

int hdb_build(const gen_params *gp, bool elide, hdb *d, char *err, size_t errlen)
{
	memset(d, 0, sizeof *d);
	d->edition = gp->edition == HV_EDITION_DRAFT ? HV_EDITION_DRAFT : HV_EDITION_RELEASE;
	d->minor = gp->minor;
	d->seed = gp->seed;
	hdb_model_info mi;
	if (hdb_model_load(gp, &mi, err, errlen) != 0) return -1;

	d->meta_ctx = mi.ctx_ids;
	d->n_meta_ctx = mi.n_ctx_ids;
	d->prop = mi.prop;
	d->n_prop = mi.n_prop;
	d->stat = mi.stat;
	d->n_stat = mi.n_stat;
	d->nkinds = mi.nkinds;
	qsort(d->meta_ctx, d->n_meta_ctx, sizeof *d->meta_ctx, cmp_u32);

	/* Elided contexts get ids above the model's (the real writer hands out
	 * ids from one counter; the elided ones are the gaps meta.db lacks). */
	uint32_t max_meta = d->n_meta_ctx ? d->meta_ctx[d->n_meta_ctx - 1] : 0;
	size_t n_el = elide ? 1 + d->n_meta_ctx / 4 : 0;
	d->val_ctx = malloc((1 + d->n_meta_ctx + n_el) * sizeof *d->val_ctx);
	if (!d->val_ctx) goto oom;
	d->val_ctx[0] = 0;
	memcpy(d->val_ctx + 1, d->meta_ctx, d->n_meta_ctx * sizeof *d->meta_ctx);
	for (size_t i = 0; i < n_el; i++) d->val_ctx[1 + d->n_meta_ctx + i] = max_meta + 1 + 2 * (uint32_t)i;
	d->n_val_ctx = 1 + d->n_meta_ctx + n_el;
	d->n_elided = n_el;
	qsort(d->val_ctx, d->n_val_ctx, sizeof *d->val_ctx, cmp_u32);
	d->max_ctx = d->val_ctx[d->n_val_ctx - 1];

	gen_rng rng = {gp->seed * 0x2545f4914f6cdd1dull + 77};
	d->nprof = 1 + (gp->profiles ? gp->profiles : 3 + (unsigned)gen_below(&rng, 6));
	d->prof = calloc(d->nprof, sizeof *d->prof);
	if (!d->prof) goto oom;
	d->met_pct = 35 + (unsigned)gen_below(&rng, 50);
	uint64_t len = gp->trace_len ? gp->trace_len : 20 + gen_below(&rng, 40);
	d->t0 = 1700000000000000000ull + gen_below(&rng, 1000000000ull);
	d->tstep = 1000 + gen_below(&rng, 100000);
	for (unsigned i = 0; i < d->nprof; i++) {
		hdb_prof *p = &d->prof[i];
		p->ctx_pct = i == 0 ? 100 : 30 + (unsigned)gen_below(&rng, 70);
		/* Some threads measured nothing: empty blocks, empty trace lines. */
		p->empty = i > 0 && d->nprof > 2 && gen_below(&rng, 5) == 0;
		if (i > 0) {
			make_tuple(d, i, p);
			p->trace_len = p->empty ? 0 : len - gen_below(&rng, len / 4 + 1);
		}
	}
	/* The summary has a value wherever any thread has (plus always at 0). */
	for (unsigned i = 1; i < d->nprof; i++) d->has_traces |= d->prof[i].trace_len > 0;
	/* Writers reserve a line before they know its final length; the
	 * unused rest of a reservation stays as zero-filled slack. */
	for (unsigned i = 1; i < d->nprof; i++)
		d->prof[i].trace_cap = d->prof[i].trace_len + (d->prof[i].trace_len ? gen_below(&rng, 4) : 0);
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
	free(d->prop);
	free(d->stat);
	free(d->prof);
	memset(d, 0, sizeof *d);
}
