/* profile.db writer, laid out the way hpcprof's sparse-db sink does it:
 * header, Profile Info section (header + {PI} array), Identifier Tuple
 * section packed in profile order, then one value block per profile
 * ({Val} array, padding, {Idx} array) tiling the rest of the file with the
 * thread blocks in "completion order" and the summary block last, and the
 * footer 4-aligned after the last block. */
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "database_files.h"

#define PDB_HDR 0x30u

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

bool gen_buf_presize(gen_buf *b, size_t total)
{
	memset(b, 0, sizeof *b);
	b->data = calloc(total ? total : 1, 1);
	if (!b->data) {
		b->oom = true;
		return false;
	}
	b->cap = total ? total : 1;
	b->len = total;
	return true;
}

void gen_fill_gap(gen_buf *b, const hdb *d, uint64_t off, uint64_t n)
{
	if (d->minor == 0) return;
	for (uint64_t i = 0; i < n; i++) b->data[off + i] = gen_junk(d->seed, off + i);
}

void gen_put_file_header(gen_buf *b, const hdb *d, const char *code, const uint64_t *sz_p, unsigned npairs,
			 uint64_t extra_sz, uint64_t extra_at)
{
	uint8_t *f = b->data;
	memcpy(f, "HPCTOOLKIT", 10);
	memcpy(f + 10, code, 4);
	f[14] = 4;
	f[15] = (uint8_t)d->minor;
	for (unsigned i = 0; i < 2 * npairs; i++) hv_put_le64(f + 0x10 + 8 * i, sz_p[i]);
	if (extra_sz) {
		hv_put_le64(f + 0x10 + 16 * npairs, extra_sz);
		hv_put_le64(f + 0x18 + 16 * npairs, extra_at);
		gen_fill_gap(b, d, extra_at, extra_sz);
	}
}

void gen_put_array_header(uint8_t *s, uint64_t arr, uint32_t n, unsigned stride)
{
	hv_put_le64(s, arr);
	hv_put_le32(s + 8, n);
	s[0xc] = (uint8_t)stride;
}

void pdb_layout_free(pdb_layout *l)
{
	free(l->order);
	free(l->p);
	memset(l, 0, sizeof *l);
}

static bool has_tuple(const hdb *d, unsigned prof) { return prof > 0 || d->edition == HV_EDITION_DRAFT; }

/* Count the values and non-empty contexts of one profile. */
static void count_profile(const hdb *d, unsigned prof, uint64_t *nvals, uint64_t *nctxs)
{
	size_t nm = prof == 0 ? d->n_stat : d->n_prop;
	uint64_t nv = 0, nc = 0;
	double v;
	for (size_t ci = 0; ci < d->n_val_ctx; ci++) {
		if (!hdb_visits(d, prof, ci)) continue;
		uint64_t here = 0;
		for (size_t m = 0; m < nm; m++) here += hdb_value(d, prof, ci, m, &v);
		nv += here;
		nc += here > 0;
	}
	*nvals = nv;
	*nctxs = nc;
}

static void write_block(const hdb *d, gen_buf *b, unsigned prof, const pdb_prof_layout *pl)
{
	const uint16_t *mids = prof == 0 ? d->stat : d->prop;
	size_t nm = prof == 0 ? d->n_stat : d->n_prop;
	uint8_t *val = b->data + pl->vals, *idx = b->data + pl->idx;
	uint64_t k = 0;
	double v;
	for (size_t ci = 0; ci < d->n_val_ctx; ci++) {
		if (!hdb_visits(d, prof, ci)) continue;
		uint64_t start = k;
		for (size_t m = 0; m < nm; m++) {
			if (!hdb_value(d, prof, ci, m, &v)) continue;
			hv_put_le16(val, mids[m]);
			hv_put_lef64(val + 2, v);
			val += 10;
			k++;
		}
		if (k == start) continue;
		hv_put_le32(idx, d->val_ctx[ci]);
		hv_put_le64(idx + 4, start);
		idx += 12;
	}
}

int gen_profiledb_write(const hdb *d, gen_buf *b, pdb_layout *l)
{
	memset(l, 0, sizeof *l);
	unsigned n = d->nprof;
	l->nprof = n;
	l->order = calloc(n, sizeof *l->order);
	l->p = calloc(n, sizeof *l->p);
	if (!l->order || !l->p) return -1;
	bool release = d->edition == HV_EDITION_RELEASE;
	/* A newer minor's {PI} may be longer, in either edition: a draft one
	 * as wide as the release END or wider, junk in the gap where release
	 * has flags (the validator must not take it for the release edition). */
	l->szprof = (release ? 0x30u : 0x28u) + (d->minor ? 8u * (1 + d->minor % 2) : 0u);
	uint64_t pi_hdr = d->k.pdb_pi_hdr ? d->k.pdb_pi_hdr : d->minor ? 0x18u : 0x10u;
	l->pi_sz = pi_hdr + (uint64_t)n * l->szprof;
	l->tup_sz = 0;
	for (unsigned i = 0; i < n; i++)
		if (has_tuple(d, i)) l->tup_sz += 8 + 16u * (d->prof[i].nids);
	/* Sections in header order, except that some seeds put the tuples
	 * first: the spec says not to rely on section order. */
	bool tuples_first = d->k.pdb_order >= 0 ? d->k.pdb_order == 1 : d->seed % 3 == 2;
	/* A newer minor may list a third section this reader does not know:
	 * its {sz,p} pair extends the header, its bytes follow the others. */
	bool extra_sec = d->minor > 0 && d->seed % 2 == 0;
	uint64_t hdr = PDB_HDR + (extra_sec ? 16u : 0u), extra_at = 0, extra_sz = 24;
	if (tuples_first) {
		l->tup_sec = hdr + d->k.pdb_tup_shift;
		l->pi_sec = align_up(l->tup_sec + l->tup_sz, 8);
		l->blocks = align_up(l->pi_sec + l->pi_sz, 4);
	} else {
		l->pi_sec = hdr;
		l->tup_sec = align_up(l->pi_sec + l->pi_sz, 8) + d->k.pdb_tup_shift;
		l->blocks = align_up(l->tup_sec + l->tup_sz, 4);
	}
	if (extra_sec) {
		extra_at = align_up(l->blocks, 8);
		l->blocks = extra_at + extra_sz;
	}
	l->pi_arr = l->pi_sec + pi_hdr;

	/* Block order: threads shuffled (completion order), summary last. */
	gen_rng rng = {d->seed ^ 0xb10cull};
	for (unsigned i = 0; i + 1 < n; i++) l->order[i] = i + 1;
	for (unsigned i = n > 1 ? n - 2 : 0; i > 0; i--) {
		unsigned j = (unsigned)gen_below(&rng, i + 1), t = l->order[i];
		l->order[i] = l->order[j];
		l->order[j] = t;
	}
	l->order[n - 1] = 0;
	uint64_t cur = l->blocks;
	for (unsigned k = 0; k < n; k++) {
		unsigned i = l->order[k];
		pdb_prof_layout *pl = &l->p[i];
		count_profile(d, i, &pl->nvals, &pl->nctxs);
		pl->pi = l->pi_arr + (uint64_t)i * l->szprof;
		if (pl->nvals == 0) {
			pl->vals = pl->idx = cur; /* empty: pValues == pCtxIndices */
			continue;
		}
		/* {Val} needs only 2-byte alignment; some blocks start 2 past a
		 * 4-byte boundary (legal, and it exercises the padding rule). */
		pl->vals = cur + (gen_below(&rng, 4) == 0 ? 2 : 0);
		if ((int)i == d->k.pdb_blk) {
			pl->vals = cur + d->k.pdb_vals_shift;
			if (d->k.pdb_idx_first) {
				pl->idx = cur;
				pl->vals = cur + 12 * pl->nctxs;
				cur = align_up(pl->vals + 10 * pl->nvals, 4);
				continue;
			}
		}
		pl->idx = align_up(pl->vals + 10 * pl->nvals, 4);
		if ((int)i == d->k.pdb_blk) pl->idx += d->k.pdb_idx_pad;
		cur = pl->idx + 12 * pl->nctxs;
		cur = align_up(cur, 4);
	}
	l->blocks_end = cur;
	uint64_t total = align_up(cur, 4) + 8;
	if (!gen_buf_presize(b, total)) return -1;
	uint8_t *f = b->data;

	const uint64_t pairs[] = {l->pi_sz, l->pi_sec, l->tup_sz, l->tup_sec};
	gen_put_file_header(b, d, "prof", pairs, 2, extra_sec ? extra_sz : 0, extra_at);
	gen_put_array_header(f + l->pi_sec, l->pi_arr, n, l->szprof);
	gen_fill_gap(b, d, l->pi_sec + 0xd, pi_hdr - 0xd);

	uint64_t tcur = l->tup_sec;
	for (unsigned i = 0; i < n; i++) {
		pdb_prof_layout *pl = &l->p[i];
		const hdb_prof *hp = &d->prof[i];
		if (has_tuple(d, i)) {
			pl->tuple = tcur;
			pl->nids = hp->nids;
			hv_put_le16(f + tcur, (uint16_t)hp->nids);
			gen_fill_gap(b, d, tcur + 2, 6);
			for (unsigned k = 0; k < hp->nids; k++) {
				uint8_t *e = f + tcur + 8 + 16u * k;
				e[0] = hp->ids[k].kind;
				gen_fill_gap(b, d, tcur + 8 + 16u * k + 1, 1);
				hv_put_le16(e + 2, hp->ids[k].flags);
				hv_put_le32(e + 4, hp->ids[k].logical);
				hv_put_le64(e + 8, hp->ids[k].physical);
			}
			tcur += 8 + 16u * hp->nids;
		}
		uint8_t *pi = f + pl->pi;
		hv_put_le64(pi + 0x00, pl->nvals);
		hv_put_le64(pi + 0x08, pl->vals);
		hv_put_le32(pi + 0x10, (uint32_t)pl->nctxs);
		gen_fill_gap(b, d, pl->pi + 0x14, 4);
		hv_put_le64(pi + 0x18, pl->idx);
		hv_put_le64(pi + 0x20, pl->tuple);
		if (release) {
			hv_put_le32(pi + 0x28, i == 0 ? 1u : 0u);
			gen_fill_gap(b, d, pl->pi + 0x2c, 4);
		}
		uint64_t known = release ? 0x30u : 0x28u;
		gen_fill_gap(b, d, pl->pi + known, l->szprof - known);
	}
	for (unsigned i = 0; i < n; i++)
		if (l->p[i].nvals) write_block(d, b, i, &l->p[i]);
	memcpy(f + total - 8, "_prof.db", 8);
	return 0;
}
