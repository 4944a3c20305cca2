#include "units.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "hv_int.h"

void hv_run_units(const hv_options *opt, const hv_units *u)
{
	if (u->n == 0) return;
	if (opt && opt->units && u->report) {
		opt->units->run(opt->units, opt, u);
		return;
	}
	hv_for_each(opt, u->n, u->check, u->ctx);
}

uint64_t hv_unit_bytes(const hv_options *opt, uint64_t total)
{
	uint64_t per = opt && opt->unit_bytes ? opt->unit_bytes : HV_UNIT_BYTES_DEFAULT;
	uint64_t floor = total / HV_UNITS_MAX + 1;
	return per > floor ? per : floor;
}

size_t hv_batch_len(const hv_options *opt, size_t left, size_t max, uint64_t (*size_of)(const void *ctx, size_t k),
		    const void *ctx)
{
	uint64_t jobs = opt->jobs ? opt->jobs : 1, bytes = 0;
	size_t n = 0;
	for (; n < left && n < max; n++) {
		if (!opt->units && n >= 8u * jobs && bytes >= ((uint64_t)8 << 20) * jobs) break;
		bytes = hv_add_sat(bytes, size_of(ctx, n));
	}
	return n;
}

void hv_unit_save(const hv_units *u, size_t i, hv_wbuf *w)
{
	hv_blob *b = u->blob ? u->blob(u->ctx, i) : NULL;
	hv_put_u64(w, b && b->io_failed);
	hv_report_save(u->report(u->ctx, i), w);
	hv_wbuf s = {0};
	if (u->save) u->save(u->ctx, i, &s);
	hv_put_u64(w, s.failed);
	hv_put_u64(w, s.n);
	hv_put_bytes(w, s.p, s.n);
	hv_wbuf_free(&s);
}

bool hv_unit_load(const hv_units *u, size_t i, hv_rbuf *r)
{
	hv_report *rep = u->report(u->ctx, i);
	bool io_failed = hv_get_bool(r);
	hv_blob *b = u->blob ? u->blob(u->ctx, i) : NULL;
	if (io_failed && b) b->io_failed = true;
	bool ok = hv_report_load(rep, r);
	bool save_failed = hv_get_bool(r);
	uint64_t n = hv_get_u64(r);
	if (r->failed || n > r->n - r->at) ok = false;
	if (ok && u->load) {
		hv_rbuf s = hv_rbuf_of(r->p + r->at, (size_t)n);
		ok = u->load(u->ctx, i, &s) && !s.failed && s.at == s.n;
	}
	if (ok) r->at += (size_t)n;
#ifdef HV_FUZZ_PLANT_MERGE_BUG
	/* A planted defect, never in a real build: the merge of a unit that
	 * arrived as bytes loses its last diagnostic. tests/fuzz_diff.test.sh
	 * builds it into the diff_units target and expects the target to abort. */
	if (ok && rep->ndiags) rep->ndiags--;
#endif
	if (save_failed) hv_report_internal(rep, "out of memory sending a unit's summary");
	else if (!ok) hv_report_internal(rep, "a unit's report or summary arrived malformed");
	return ok && !save_failed;
}

static int cmp_sized(const void *a, const void *b)
{
	const hv_sized *x = a, *y = b;
	if (x->size != y->size) return x->size > y->size ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

void hv_sort_largest_first(hv_sized *v, size_t n) { qsort(v, n, sizeof *v, cmp_sized); }

bool hv_units_plan(const hv_units *u, unsigned nproc, unsigned *owner, uint64_t *load)
{
	if (nproc == 0) return false;
	hv_sized *s = hv_malloc((u->n ? u->n : 1) * sizeof *s);
	uint64_t *l = hv_calloc(nproc, sizeof *l);
	if (!s || !l) {
		free(s);
		free(l);
		return false;
	}
	for (size_t i = 0; i < u->n; i++) {
		s[i].i = i;
		/* +1: units of no bytes still cost something, and spread */
		uint64_t z = u->size ? u->size(u->ctx, i) : 0;
		s[i].size = z == UINT64_MAX ? z : z + 1;
	}
	hv_sort_largest_first(s, u->n);
	for (size_t k = 0; k < u->n; k++) {
		unsigned best = 0;
		for (unsigned p = 1; p < nproc; p++)
			if (l[p] < l[best]) best = p;
		owner[s[k].i] = best;
		l[best] = l[best] > UINT64_MAX - s[k].size ? UINT64_MAX : l[best] + s[k].size;
	}
	if (load) memcpy(load, l, nproc * sizeof *l);
	free(s);
	free(l);
	return true;
}

void hv_gathered_free(hv_gathered *g)
{
	free(g->buf);
	free(g->off);
	free(g->len);
	free(g->lost);
	memset(g, 0, sizeof *g);
}
