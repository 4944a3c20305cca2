/* The summary of a data file's walk (crossdb.h) as bytes, for units checked
 * in another process: what hpctk_xdb_finish reads after the walks (the
 * elided-context note, the transpose digests and taint) and whether the
 * walk visited every value. Digests are sent sparsely: a context without
 * values costs nothing. */
#include "crossdb.h"

#include <string.h>

#include "../core/bitmap.h"

void hpctk_xfile_save(const hpctk_xfile *f, bool complete, hv_wbuf *w)
{
	hv_put_u64(w, complete);
	hv_put_u64(w, f->alloc_failed);
	hv_put_u64(w, f->elided);
	hv_put_u64(w, f->elided_off);
	hv_put_u64(w, f->elided_first);
	hv_put_u64(w, f->elided_owner);
	uint32_t n = f->dig && f->x->cct ? f->x->cct->ci.n : 0;
	uint64_t nz = 0;
	for (uint32_t c = 0; c < n; c++) nz += f->dig[c].n || f->dig[c].h;
	hv_put_u64(w, nz);
	for (uint32_t c = 0; c < n; c++) {
		if (!f->dig[c].n && !f->dig[c].h) continue;
		hv_put_u64(w, c);
		hv_put_u64(w, f->dig[c].n);
		hv_put_u64(w, f->dig[c].h);
	}
	uint64_t nt = 0;
	for (uint32_t c = 0; f->taint && c < n; c++) nt += hv_bit_get(f->taint, c);
	hv_put_u64(w, nt);
	for (uint32_t c = 0; f->taint && c < n; c++)
		if (hv_bit_get(f->taint, c)) hv_put_u64(w, c);
}

bool hpctk_xfile_load(hpctk_xfile *f, bool *complete, hv_rbuf *r)
{
	*complete = hv_get_bool(r);
	f->alloc_failed |= hv_get_bool(r);
	f->elided = hv_get_u64(r);
	f->elided_off = hv_get_u64(r);
	f->elided_first = (uint32_t)hv_get_u64(r);
	f->elided_owner = (uint32_t)hv_get_u64(r);
	uint32_t n = f->dig && f->x->cct ? f->x->cct->ci.n : 0;
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
	return !r->failed;
}
