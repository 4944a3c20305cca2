/* cct.db writer, laid out like hpcprof's: header (release: 0x30 bytes of
 * which 0x20-0x2f are left-over junk), Context Info section dense by ctxId
 * (nCtxs = largest ctxId + 1, elided ids included), then one value block
 * per context in ctxId order, each 4-aligned, and the footer. The values
 * are the transpose of profile.db's thread profiles (same hdb_value). */
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "database_files.h"

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

void cdb_layout_free(cdb_layout *l)
{
	free(l->c);
	memset(l, 0, sizeof *l);
}

/* Values and non-empty metrics of one context over all thread profiles.
 * `vis` is scratch for the profiles that visit it. */
static void count_ctx(const hdb *d, size_t ci, unsigned *vis, uint64_t *nvals, uint64_t *nmets)
{
	unsigned nv = 0;
	for (unsigned p = 1; p < d->nprof; p++)
		if (hdb_visits(d, p, ci)) vis[nv++] = p;
	uint64_t vals = 0, mets = 0;
	double v;
	for (size_t m = 0; m < d->n_prop; m++) {
		uint64_t here = 0;
		for (unsigned k = 0; k < nv; k++) here += hdb_value(d, vis[k], ci, m, &v);
		vals += here;
		mets += here > 0;
	}
	*nvals = vals;
	*nmets = mets;
}

static void write_ctx(const hdb *d, gen_buf *b, size_t ci, unsigned *vis, const cdb_ctx_layout *cl)
{
	/* A break may give the context one more value, for a profile that does
	 * not exist, at the end of its last metric's run. */
	bool extra = (int64_t)d->val_ctx[ci] == d->k.cdb_extra_ctx;
	unsigned nv = 0;
	for (unsigned p = 1; p < d->nprof; p++)
		if (hdb_visits(d, p, ci)) vis[nv++] = p;
	uint8_t *val = b->data + cl->vals, *idx = b->data + cl->idx;
	uint64_t k = 0;
	double v;
	for (size_t m = 0; m < d->n_prop; m++) {
		uint64_t start = k;
		for (unsigned j = 0; j < nv; j++) {
			if (!hdb_value(d, vis[j], ci, m, &v)) continue;
			hv_put_le32(val, vis[j]);
			hv_put_lef64(val + 4, v);
			val += 12;
			k++;
		}
		bool last_run = true;
		for (size_t m2 = m + 1; extra && m2 < d->n_prop; m2++)
			for (unsigned j = 0; j < nv && last_run; j++) last_run = !hdb_value(d, vis[j], ci, m2, &v);
		if (extra && last_run && k > start) {
			hv_put_le32(val, d->nprof);
			hv_put_lef64(val + 4, 42.0);
			val += 12;
			k++;
			extra = false;
		}
		if (k == start) continue;
		hv_put_le16(idx, d->prop[m]);
		hv_put_le64(idx + 2, start);
		idx += 10;
	}
}

int gen_cctdb_write(const hdb *d, gen_buf *b, cdb_layout *l)
{
	memset(l, 0, sizeof *l);
	if (d->n_prop > 0xffff) return -1; /* nMetrics is a u16 */
	bool release = d->edition == HV_EDITION_RELEASE;
	l->nctxs = d->max_ctx + 1;
	l->c = calloc(l->nctxs, sizeof *l->c);
	unsigned *vis = malloc((d->nprof ? d->nprof : 1) * sizeof *vis);
	if (!l->c || !vis) {
		free(vis);
		return -1;
	}
	l->szctx = 0x20u + (d->minor ? 8u * (1 + d->minor % 2) : 0u);
	uint64_t ci_hdr = d->k.cdb_ci_hdr ? d->k.cdb_ci_hdr : d->minor ? 0x18u : 0x10u;
	l->ci_sec = (release ? 0x30u : 0x20u) + d->k.cdb_ci_shift;
	l->ci_arr = l->ci_sec + ci_hdr;
	l->ci_sz = ci_hdr + (uint64_t)l->nctxs * l->szctx;
	l->blocks = align_up(l->ci_sec + l->ci_sz, 4);
	uint64_t cur = l->blocks;
	size_t ci = 0;
	for (uint32_t id = 0; id < l->nctxs; id++) {
		cdb_ctx_layout *cl = &l->c[id];
		cl->vals = cl->idx = cur;
		if (ci >= d->n_val_ctx || d->val_ctx[ci] != id) continue;
		count_ctx(d, ci, vis, &cl->nvals, &cl->nmets);
		ci++;
		if ((int64_t)id == d->k.cdb_extra_ctx) cl->nvals++;
		if (cl->nvals == 0) continue;
		if ((int64_t)id == d->k.cdb_ctx && d->k.cdb_idx_first) {
			cl->idx = cur;
			cl->vals = align_up(cur + 10 * cl->nmets, 4);
			cur = align_up(cl->vals + 12 * cl->nvals, 4);
			continue;
		}
		if ((int64_t)id == d->k.cdb_ctx) cl->vals += d->k.cdb_vals_shift;
		cl->idx = cl->vals + 12 * cl->nvals;
		if ((int64_t)id == d->k.cdb_ctx) cl->idx = align_up(cl->idx, 2) + d->k.cdb_idx_pad;
		cur = align_up(cl->idx + 10 * cl->nmets, 4);
	}
	l->blocks_end = cur;
	uint64_t total = cur + 8;
	if (!gen_buf_presize(b, total)) {
		free(vis);
		return -1;
	}
	uint8_t *f = b->data;
	const uint64_t pairs[] = {l->ci_sz, l->ci_sec};
	gen_put_file_header(b, d, "ctxt", pairs, 1, 0, 0);
	if (release) /* what hpcprof leaves there: uninitialised stack bytes */
		for (unsigned i = 0x20; i < 0x30; i++) f[i] = i == 0x28 ? 1 : (uint8_t)(d->seed % 2 ? 0 : i * 29u);
	gen_put_array_header(f + l->ci_sec, l->ci_arr, l->nctxs, l->szctx);
	gen_fill_gap(b, d, l->ci_sec + 0xd, ci_hdr - 0xd);
	ci = 0;
	for (uint32_t id = 0; id < l->nctxs; id++) {
		cdb_ctx_layout *cl = &l->c[id];
		uint64_t at = l->ci_arr + (uint64_t)id * l->szctx;
		uint8_t *e = f + at;
		hv_put_le64(e, cl->nvals);
		hv_put_le64(e + 0x08, cl->vals);
		hv_put_le16(e + 0x10, (uint16_t)cl->nmets);
		gen_fill_gap(b, d, at + 0x12, 6);
		hv_put_le64(e + 0x18, cl->idx);
		gen_fill_gap(b, d, at + 0x20, l->szctx - 0x20);
		if (ci < d->n_val_ctx && d->val_ctx[ci] == id) {
			if (cl->nvals) write_ctx(d, b, ci, vis, cl);
			ci++;
		}
	}
	memcpy(f + total - 8, "__ctx.db", 8);
	free(vis);
	return 0;
}
