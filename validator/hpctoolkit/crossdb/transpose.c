/* Locating the first difference between cct.db and the transpose of
 * profile.db, once the per-context digests found a differing context.
 * Runs only on a mismatch: two more quiet passes over profile.db, the first
 * narrowing to a metric (one digest per metric id), the second collecting
 * that (context, metric)'s values, at most one per profile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "crossdb.h"

#define MAX_COLLECT (1u << 22) /* entries per side in the last pass */

typedef struct pv {
	uint32_t prof;
	uint64_t bits;
} pv;

typedef struct loc {
	const hpctk_xdb *x;
	uint32_t ctx;
	int metric;                /* -1 in pass 2 */
	hpctk_digest *page[256];   /* pass 2: a digest per metric id, in pages of 256 made when touched */
	bool oom;
	pv *side[2];               /* pass 3: profile.db, cct.db */
	size_t n[2], cap[2];
	bool overflow;
} loc;

/* The digest of metric id m (pass 2); NULL when out of memory. The pages
 * keep a mismatch's cost to the metric ids its values have, not 65536. */
static hpctk_digest *metric_digest(loc *l, uint16_t m)
{
	hpctk_digest **pg = &l->page[m >> 8];
	if (!*pg && !(*pg = hv_calloc(256, sizeof **pg))) {
		l->oom = true;
		return NULL;
	}
	return &(*pg)[m & 255];
}

static void dig(hpctk_digest *d, uint32_t prof, uint64_t bits, int sign)
{
	if (!d) return;
	d->n += (uint64_t)sign;
	d->h += (uint64_t)sign * hpctk_value_hash(prof, bits);
}

static void collect(loc *l, int s, uint32_t prof, uint64_t bits)
{
	if (!HV_GROW_UPTO(l->side[s], l->cap[s], l->n[s] + 1, 256, MAX_COLLECT)) {
		l->overflow = true;
		return;
	}
	l->side[s][l->n[s]++] = (pv){prof, bits};
}

static void p_value(void *arg, uint32_t prof, bool summary, uint32_t ctx, uint16_t metric, uint64_t bits, uint64_t off)
{
	loc *l = arg;
	(void)off;
	if (summary || ctx != l->ctx) return;
	if (l->metric < 0) dig(metric_digest(l, metric), prof, bits, 1);
	else if (metric == l->metric) collect(l, 0, prof, bits);
}

static void c_value(void *arg, uint32_t ctx, uint16_t metric, uint32_t prof, uint64_t bits, uint64_t off)
{
	loc *l = arg;
	(void)off;
	if (ctx != l->ctx || prof == 0 || prof >= l->x->prof->pi.n) return;
	if (l->metric < 0) dig(metric_digest(l, metric), prof, bits, -1);
	else if (metric == l->metric) collect(l, 1, prof, bits);
}

static void run_pass(const hpctk_xdb *x, loc *l)
{
	hv_report scratch;
	hv_report_init(&scratch, "", 0);
	hpctk_prof_visitor pvis = {l, NULL, p_value, NULL, NULL, NULL};
	hpctk_cct_visitor cvis = {l, NULL, c_value, NULL};
	hpctk_profiledb_walk(x->prof, &scratch, &pvis);
	hpctk_cctdb_walk_one(x->cct, &scratch, l->ctx, &cvis);
	hv_report_free(&scratch);
}

static int by_prof(const void *a, const void *b)
{
	const pv *x = a, *y = b;
	if (x->prof != y->prof) return x->prof < y->prof ? -1 : 1;
	return x->bits < y->bits ? -1 : x->bits > y->bits;
}

static void fmt_value(char *out, size_t n, const pv *v)
{
	if (!v) {
		snprintf(out, n, "no value");
		return;
	}
	uint8_t raw[8];
	hv_put_le64(raw, v->bits);
	snprintf(out, n, "%.17g", hv_lef64(raw));
}

void hpctk_xdb_report_transpose(const hpctk_xdb *x, hv_report *r, uint32_t ctx, uint64_t nctx_differ)
{
	char path[HV_PATH_MAX], detail[200] = "";
	loc l = {.x = x, .ctx = ctx, .metric = -1};
	run_pass(x, &l);
	for (int m = 0; !l.oom && l.metric < 0 && m < 65536; m++) {
		const hpctk_digest *pg = l.page[m >> 8];
		if (!pg) {
			m |= 255; /* the page's ids had no value */
			continue;
		}
		if (pg[m & 255].n || pg[m & 255].h) l.metric = m;
	}
	for (int i = 0; i < 256; i++) free(l.page[i]);
	l.metric = l.oom ? -1 : l.metric;
	if (l.metric >= 0) {
		run_pass(x, &l);
		if (!l.overflow) {
			for (int s = 0; s < 2; s++)
				if (l.n[s] > 1) qsort(l.side[s], l.n[s], sizeof(pv), by_prof);
			size_t i = 0;
			while (i < l.n[0] && i < l.n[1] && l.side[0][i].prof == l.side[1][i].prof &&
			       l.side[0][i].bits == l.side[1][i].bits)
				i++;
			const pv *a = i < l.n[0] ? &l.side[0][i] : NULL, *b = i < l.n[1] ? &l.side[1][i] : NULL;
			if (a && b && a->prof != b->prof) { /* one side lacks the smaller profile */
				if (a->prof < b->prof) b = NULL;
				else a = NULL;
			}
			char va[40], vb[40];
			fmt_value(va, sizeof va, a);
			fmt_value(vb, sizeof vb, b);
			if (a || b)
				snprintf(detail, sizeof detail, ", metric %d, profile %u: profile.db has %s, cct.db has %s",
					 l.metric, a ? a->prof : b->prof, va, vb);
		} else {
			snprintf(detail, sizeof detail, ", metric %d", l.metric);
		}
		free(l.side[0]);
		free(l.side[1]);
	}
	snprintf(path, sizeof path, "cct.db/ctx[%u]/valueBlock", ctx);
	hv_emit(r, HV_R_HPCTKDB_CCT_TRANSPOSE, x->cct->b->name, x->cct->ci.p + (uint64_t)ctx * x->cct->ci.sz, 0x20, path,
		"cct.db is not the transpose of profile.db's non-summary values: first difference at ctx %u%s "
		"(%llu context(s) differ)",
		ctx, detail, (unsigned long long)nctx_differ);
}
