/* The summary of a data file's walk (crossdb.h) as bytes, for units checked
 * in another process: what hpctk_xdb_finish reads after the walks (the
 * elided-context note, the transpose digests and taint) and whether the
 * walk visited every value. Digests are sent sparsely: a context without
 * values costs nothing. */
#include "crossdb.h"

#include <string.h>

#include "core/bitmap.h"
#include "hpctoolkit/values/values.h"

static uint64_t dbits(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

static double bitsd(uint64_t u)
{
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

void hpctk_xfile_save(const hpctk_xfile *f, bool complete, hv_wbuf *w)
{
	hv_put_u64(w, complete);
	hv_put_u64(w, f->alloc_failed);
	hv_put_u64(w, f->elided);
	hv_put_u64(w, f->elided_off);
	hv_put_u64(w, f->elided_first);
	hv_put_u64(w, f->elided_owner);
	uint32_t n = f->dig ? f->ndig : 0;
	uint64_t nz = 0;
	for (uint32_t c = 0; c < n; c++) nz += f->dig[c].n || f->dig[c].h;
	hv_put_u64(w, nz);
	for (uint32_t c = 0; c < n; c++) {
		if (!f->dig[c].n && !f->dig[c].h) continue;
		hv_put_u64(w, c); /* from dig_base: the loading unit has the same range */
		hv_put_u64(w, f->dig[c].n);
		hv_put_u64(w, f->dig[c].h);
	}
	uint64_t nt = 0;
	for (uint32_t c = 0; f->taint && c < n; c++) nt += hv_bit_get(f->taint, c);
	hv_put_u64(w, nt);
	for (uint32_t c = 0; f->taint && c < n; c++)
		if (hv_bit_get(f->taint, c)) hv_put_u64(w, c);
	/* the summary statistics' differences, kept until the transpose is known */
	size_t nm = f->vs ? f->vs->nmiss : 0;
	hv_put_u64(w, f->vs && f->vs->oom);
	hv_put_u64(w, f->vs && f->vs->foreign);
	hv_put_u64(w, nm);
	for (size_t i = 0; i < nm; i++) {
		const hpctk_vsum_miss *m = &f->vs->miss[i];
		hv_put_u64(w, m->ctx);
		hv_put_u64(w, m->stat);
		hv_put_u64(w, m->has_found);
		hv_put_u64(w, m->count);
		hv_put_u64(w, dbits(m->found));
		hv_put_u64(w, dbits(m->a));
		hv_put_u64(w, dbits(m->b));
		hv_put_u64(w, m->off);
	}
	/* hatchet's exclusive column: the count and the first cell */
	const hpctk_hzfirst *h = &f->hz_first;
	hv_put_u64(w, f->hz_count);
	hv_put_u64(w, h->ctx);
	hv_put_u64(w, h->prof);
	hv_put_u64(w, h->pid);
	hv_put_u64(w, h->exc);
	hv_put_u64(w, h->has_exc);
	hv_put_u64(w, dbits(h->v));
	hv_put_u64(w, dbits(h->x));
	hv_put_u64(w, h->off);
}

bool hpctk_xfile_load(hpctk_xfile *f, bool *complete, hv_rbuf *r)
{
	*complete = hv_get_bool(r);
	f->alloc_failed |= hv_get_bool(r);
	f->elided = hv_get_u64(r);
	f->elided_off = hv_get_u64(r);
	f->elided_first = (uint32_t)hv_get_u64(r);
	f->elided_owner = (uint32_t)hv_get_u64(r);
	uint32_t n = f->dig ? f->ndig : 0;
	uint64_t nz = hv_get_u64(r);
	for (uint64_t k = 0; !r->failed && k < nz; k++) {
		uint64_t c = hv_get_u64(r), dn = hv_get_u64(r), dh = hv_get_u64(r);
		if (c >= n) r->failed = true;
		else f->dig[c] = (hpctk_digest){dn, dh};
	}
	uint64_t nt = hv_get_u64(r);
	for (uint64_t k = 0; !r->failed && k < nt; k++) {
		uint64_t c = hv_get_u64(r);
		if (c >= n || !f->taint) r->failed = true;
		else hv_bit_set(f->taint, (uint32_t)c);
	}
	bool oom = hv_get_bool(r), foreign = hv_get_bool(r);
	uint64_t nm = hv_get_u64(r);
	if (nm && !f->vs) r->failed = true;
	if (f->vs) {
		f->vs->oom |= oom;
		f->vs->foreign |= foreign;
	}
	for (uint64_t i = 0; !r->failed && i < nm; i++) {
		hpctk_vsum_miss m;
		m.ctx = (uint32_t)hv_get_u64(r);
		m.stat = (uint16_t)hv_get_u64(r);
		m.has_found = hv_get_bool(r);
		m.count = (uint32_t)hv_get_u64(r);
		m.found = bitsd(hv_get_u64(r));
		m.a = bitsd(hv_get_u64(r));
		m.b = bitsd(hv_get_u64(r));
		m.off = hv_get_u64(r);
		if (!r->failed) hpctk_vsum_keep(f->vs, &m);
	}
	hpctk_hzfirst *h = &f->hz_first;
	f->hz_count = hv_get_u64(r);
	h->ctx = (uint32_t)hv_get_u64(r);
	h->prof = (uint32_t)hv_get_u64(r);
	h->pid = (uint16_t)hv_get_u64(r);
	h->exc = (uint16_t)hv_get_u64(r);
	h->has_exc = hv_get_bool(r);
	h->v = bitsd(hv_get_u64(r));
	h->x = bitsd(hv_get_u64(r));
	h->off = hv_get_u64(r);
	return !r->failed;
}

void hpctk_xfile_merge(hpctk_xfile *dst, const hpctk_xfile *src)
{
	dst->alloc_failed |= src->alloc_failed;
	if (src->elided && !dst->elided) {
		dst->elided_first = src->elided_first;
		dst->elided_off = src->elided_off;
		dst->elided_owner = src->elided_owner;
	}
	dst->elided += src->elided;
	if (src->hz_count && !dst->hz_count) dst->hz_first = src->hz_first;
	dst->hz_count += src->hz_count;
	if (src->dig && dst->dig) {
		for (uint32_t c = 0; c < src->ndig; c++) {
			uint32_t at = src->dig_base + c - dst->dig_base;
			if (at >= dst->ndig) continue;
			/* sums of hashes: profile.db's units add, cct.db's cover disjoint ranges */
			dst->dig[at].n += src->dig[c].n;
			dst->dig[at].h += src->dig[c].h;
			if (src->taint && dst->taint && hv_bit_get(src->taint, c)) hv_bit_set(dst->taint, at);
		}
	} else if (src->dig || src->alloc_failed) {
		dst->alloc_failed = true;
	}
	if (src->vs && dst->vs) {
		dst->vs->oom |= src->vs->oom;
		dst->vs->foreign |= src->vs->foreign;
		for (size_t i = 0; i < src->vs->nmiss; i++) hpctk_vsum_keep(dst->vs, &src->vs->miss[i]);
	}
}
