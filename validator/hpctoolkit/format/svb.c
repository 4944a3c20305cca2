#include "svb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bitmap.h"
#include "core/hv_int.h"
#include "core/simd.h"

static uint64_t key_at(const uint8_t *p, unsigned size) { return size == 2 ? hv_le16(p) : hv_le32(p); }

hpctk_svb_block hpctk_svb_decode(const hpctk_svb_desc *d, const uint8_t *p, uint32_t owner, uint64_t at)
{
	hpctk_svb_block blk;
	blk.owner = owner;
	blk.at = at;
	blk.nvalues = hv_le64(p);
	blk.pvalues = hv_le64(p + 0x08);
	blk.nidx = key_at(p + 0x10, d->idx_count_size);
	blk.pidx = hv_le64(p + 0x18);
	return blk;
}

bool hpctk_svb_env_init(hpctk_svb_env *e, const hpctk_svb_desc *d, hv_blob *b, hv_report *r, uint64_t body_end,
			uint32_t first_owner, uint32_t n_owners)
{
	memset(e, 0, sizeof *e);
	e->first_owner = first_owner;
	e->n_owners = n_owners;
	e->skip = hv_calloc(((size_t)n_owners + 7) / 8 + 1, 1);
	e->d = d;
	e->b = b;
	e->r = r;
	e->body_end = body_end;
	e->complete = true;
	e->val_align = e->idx_align = 1;
	e->wide = HPCTK_SVB_WIDE && hv_simd_avx512();
	bool a = hv_window_init(&e->wv, b, hpctk_window_cap);
	bool c = hv_window_init(&e->wi, b, hpctk_window_cap);
	e->windows_ok = a && c && e->skip;
	return e->windows_ok;
}

void hpctk_svb_env_forbid(hpctk_svb_env *e, uint64_t p, uint64_t sz)
{
	if (e->nforbid < 3) {
		e->forbid_p[e->nforbid] = p;
		e->forbid_sz[e->nforbid] = sz;
		e->nforbid++;
	}
}

void hpctk_svb_env_free(hpctk_svb_env *e)
{
	hv_window_free(&e->wv);
	hv_window_free(&e->wi);
	hpctk_ranges_free(&e->planes);
	free(e->skip);
	e->skip = NULL;
}

bool hpctk_svb_env_fork(hpctk_svb_env *dst, const hpctk_svb_env *src, hv_report *r)
{
	*dst = *src;
	dst->r = r;
	dst->complete = true;
	dst->planes = (hpctk_ranges){0};
	bool a = hv_window_init(&dst->wv, src->b, hpctk_window_cap);
	bool c = hv_window_init(&dst->wi, src->b, hpctk_window_cap);
	if (!a) memset(&dst->wv, 0, sizeof dst->wv);
	if (!c) memset(&dst->wi, 0, sizeof dst->wi);
	dst->windows_ok = a && c && src->windows_ok;
	return dst->windows_ok;
}

void hpctk_svb_env_unfork(hpctk_svb_env *e)
{
	if (e->wv.buf) hv_window_free(&e->wv);
	if (e->wi.buf) hv_window_free(&e->wi);
	e->skip = NULL; /* the source's */
}

bool hpctk_svb_range_begin(hpctk_svb_range *rg, const hpctk_svb_env *prepared, bool prepared_ok, hv_blob *b,
			   hv_report *r, const hpctk_svb_visitor *vis)
{
	bool forked = hpctk_svb_env_fork(&rg->e, prepared, r);
	rg->w_ok = forked && hv_window_init(&rg->w, b, hpctk_window_cap);
	rg->e.vis = vis;
	rg->ok = rg->w_ok && prepared_ok;
	return rg->ok;
}

bool hpctk_svb_range_end(hpctk_svb_range *rg)
{
	bool complete = rg->ok && rg->e.complete;
	if (rg->w_ok) hv_window_free(&rg->w);
	hpctk_svb_env_unfork(&rg->e);
	return complete;
}

/* The layout of a block: where its arrays are and whether they can be read. */
/* The structural path of a block, formatted only when a diagnostic needs it:
 * cct.db has one block per context, and formatting costs more than checking. */
static const char *block_path(const hpctk_svb_env *e, uint32_t owner, char *bp, size_t n)
{
	snprintf(bp, n, "%s/%s[%u]/valueBlock", e->d->file, e->d->owner, owner);
	return bp;
}

static bool check_layout(hpctk_svb_env *e, const hpctk_svb_block *blk)
{
	const hpctk_svb_desc *d = e->d;
	hv_report *r = e->r;
	char path[HV_PATH_MAX], bp[96];
#define BP() block_path(e, blk->owner, bp, sizeof bp)
#define VPATH() (snprintf(path, sizeof path, "%s/pValues", BP()), path)
#define IPATH() (snprintf(path, sizeof path, "%s/%s", BP(), d->idx_ptr), path)
	uint64_t vlen = hv_mul_sat(blk->nvalues, d->val_size);
	uint64_t ilen = hv_mul_sat(blk->nidx, d->idx_size);
	bool vin = hv_range_in(blk->pvalues, vlen, e->body_end);
	bool iin = hv_range_in(blk->pidx, ilen, e->body_end);

	if (!hv_eval(r, d->r_values_contained, vin))
		hv_emit(r, d->r_values_contained, e->b->name, blk->at + 0x08, 8, VPATH(),
			"values [0x%llx, +%llu x %u bytes) run past the end of the file body at 0x%llx (nValues = %llu)",
			(unsigned long long)blk->pvalues, (unsigned long long)blk->nvalues, d->val_size,
			(unsigned long long)e->body_end, (unsigned long long)blk->nvalues);
	if (!hv_eval(r, d->r_values_aligned, hv_aligned(blk->pvalues, e->val_align)))
		hv_emit(r, d->r_values_aligned, e->b->name, blk->at + 0x08, 8, VPATH(),
			"pValues = 0x%llx is not %u-byte aligned", (unsigned long long)blk->pvalues, e->val_align);
	if (!hv_eval(r, d->r_indices_contained, iin))
		hv_emit(r, d->r_indices_contained, e->b->name, blk->at + 0x18, 8, IPATH(),
			"%s [0x%llx, +%llu x %u bytes) run past the end of the file body at 0x%llx", d->idx_ptr,
			(unsigned long long)blk->pidx, (unsigned long long)blk->nidx, d->idx_size,
			(unsigned long long)e->body_end);
	if (!hv_eval(r, d->r_indices_aligned, hv_aligned(blk->pidx, e->idx_align)))
		hv_emit(r, d->r_indices_aligned, e->b->name, blk->at + 0x18, 8, IPATH(), "%s = 0x%llx is not %u-byte aligned",
			d->idx_ptr, (unsigned long long)blk->pidx, e->idx_align);
	if (!vin || !iin) return false;

	/* Both arrays are inside the file, so none of the sums below overflow. */
	uint64_t vend = blk->pvalues + vlen, iend = blk->pidx + ilen;
	bool ordered = vend <= blk->pidx;
	if (!hv_eval(r, d->r_order, ordered))
		hv_emit(r, d->r_order, e->b->name, blk->at + 0x08, 0x18, BP(),
			"pValues 0x%llx + %u x nValues %llu = 0x%llx passes %s = 0x%llx: the values must end before "
			"the indices start",
			(unsigned long long)blk->pvalues, d->val_size, (unsigned long long)blk->nvalues,
			(unsigned long long)vend, d->idx_ptr, (unsigned long long)blk->pidx);
	else if (!hv_eval(r, d->r_contiguous, blk->pidx - vend < 8))
		hv_emit(r, d->r_contiguous, e->b->name, blk->at + 0x18, 8, BP(),
			"%llu bytes between the end of the values (0x%llx) and %s (0x%llx); only alignment padding "
			"(at most 7 bytes) may separate them",
			(unsigned long long)(blk->pidx - vend), (unsigned long long)vend, d->idx_ptr,
			(unsigned long long)blk->pidx);

	uint64_t lo = blk->pvalues < blk->pidx ? blk->pvalues : blk->pidx;
	uint64_t hi = vend > iend ? vend : iend;
	if (vlen == 0) lo = blk->pidx, hi = iend;
	if (ilen == 0) lo = blk->pvalues, hi = vend;
	uint64_t plane = hi - lo;
	for (unsigned k = 0; k < e->nforbid; k++) {
		bool ov = hv_ranges_overlap(lo, plane, e->forbid_p[k], e->forbid_sz[k]);
		if (!hv_eval(r, d->r_outside, !ov)) {
			hv_emit(r, d->r_outside, e->b->name, blk->at + 0x08, 0x18, BP(),
				"the block's data [0x%llx, 0x%llx) overlaps %s [0x%llx, +0x%llx); value blocks must lie "
				"outside the header and the sections",
				(unsigned long long)lo, (unsigned long long)hi, k == 0 ? "the file header" : "a section",
				(unsigned long long)e->forbid_p[k], (unsigned long long)e->forbid_sz[k]);
			break;
		}
	}
	if (plane > 0) hpctk_ranges_add(&e->planes, lo, plane, blk->owner, blk->at); /* empty planes never overlap */
	return true;
#undef BP
#undef VPATH
#undef IPATH
}

/* The two layouts in use: profile.db {u16 metricId, f64} (the block's owner
 * is the profile, the run's key the context) and cct.db {u32 profIndex, f64}
 * (owner: the context, run key: the metric; profIndex 0 is never stored). */
#define PROF_VS 10u
#define PROF_KS 2u
#define CCT_VS 12u
#define CCT_KS 4u

/* The running checks of fast_chunk, one value at a time. */
typedef struct fast_acc {
	uint64_t h, fmax, rej;
	int64_t pv, ord;
} fast_acc;

static inline __attribute__((always_inline)) void fast_one(fast_acc *a, const uint8_t *v, const unsigned ks,
							   const bool digest, const uint8_t *reject, uint64_t xbase)
{
	uint32_t key = ks == PROF_KS ? hv_le16(v) : hv_le32(v);
	uint64_t bits = hv_le64(v + ks);
	/* keys strictly increasing: every pv - key negative, so the sign
	 * bit survives the and of them all */
	a->ord &= a->pv - (int64_t)key;
	/* NaN, infinite (exponent all ones) or +-0.0 as one maximum:
	 * bits << 1 drops the sign, minus 1 wraps zero to the top. */
	uint64_t fv = (bits << 1) - 1;
	a->fmax = fv > a->fmax ? fv : a->fmax;
	if (ks == PROF_KS) a->rej |= reject[key];
	if (digest) a->h += hpctk_value_hash_k(ks == PROF_KS ? xbase ^ key : xbase ^ ((uint64_t)key << 16), bits);
	a->pv = key;
}

/* One window chunk of a run with no call per value: true when every value
 * passes every per-value check (the svb rules and the cross-file key rule),
 * with the chunk's digest sum in *hsum and its last key in *prev. False
 * means some value fails one: the caller walks the chunk again value by
 * value, which reports in the usual order (nothing was counted yet).
 * `ks` picks the layout. The loop has no data-dependent branch: each check
 * keeps a running minimum / maximum / or, compared once per chunk. */
static inline __attribute__((always_inline)) bool fast_chunk(const uint8_t *base, uint64_t cnt, const unsigned ks,
							     const bool digest, const uint8_t *reject, uint64_t limit,
							     uint64_t ybase, int64_t *prev, uint64_t *hsum)
{
	const unsigned vs = ks == PROF_KS ? PROF_VS : CCT_VS;
	fast_acc a = {.h = 0, .fmax = 0, .rej = 0, .pv = *prev, .ord = -1};
	uint64_t xbase = ybase ^ HPCTK_HASH_KEY;
	/* two values a turn: the loop's own instructions are a fair part of
	 * a value's (about twenty) */
	const uint8_t *v = base, *end2 = base + (cnt & ~(uint64_t)1) * vs;
	for (; v != end2; v += 2 * vs) {
		fast_one(&a, v, ks, digest, reject, xbase);
		fast_one(&a, v + vs, ks, digest, reject, xbase);
	}
	if (cnt & 1) fast_one(&a, v, ks, digest, reject, xbase);
	*prev = a.pv;
	*hsum = a.h;
	/* cct.db: a run starts with *prev = 0, so increasing keys are all
	 * above 0 (profIndex 0 is the summary) and below limit when the last is */
	bool keys_ok = ks == PROF_KS ? a.rej == 0 : (uint64_t)a.pv < limit;
	return a.ord < 0 && a.fmax < 0xffdfffffffffffffull && keys_ok;
}

bool hpctk_svb_fast_chunk_narrow(const uint8_t *base, uint64_t cnt, bool cct, bool digest, const uint8_t *reject,
				 uint64_t limit, uint64_t ybase, int64_t *prev, uint64_t *hsum)
{
	if (cct) return digest ? fast_chunk(base, cnt, CCT_KS, true, reject, limit, ybase, prev, hsum)
			       : fast_chunk(base, cnt, CCT_KS, false, reject, limit, ybase, prev, hsum);
	return digest ? fast_chunk(base, cnt, PROF_KS, true, reject, limit, ybase, prev, hsum)
		      : fast_chunk(base, cnt, PROF_KS, false, reject, limit, ybase, prev, hsum);
}

bool hpctk_svb_keybits(const uint8_t *reject, uint64_t bits[16])
{
	memset(bits, 0, 16 * sizeof *bits);
	for (uint32_t k = 1024; k < 65536; k++)
		if (!reject[k]) return false;
	for (uint32_t k = 0; k < 1024; k++)
		if (!reject[k]) bits[k / 64] |= 1ull << k % 64;
	return true;
}

/* How many records from v on (at most n) are all zero bytes. */
static inline uint64_t zero_run(const uint8_t *v, uint64_t n, const unsigned ks)
{
	const unsigned vs = ks == PROF_KS ? PROF_VS : CCT_VS;
	uint64_t m = 0;
	for (; m < n; m++, v += vs)
		if (hv_le64(v) | (ks == PROF_KS ? hv_le16(v + 8) : hv_le32(v + 8))) break;
	return m;
}

/* Chunks shorter than this take the narrow check even where the wide one
 * is at hand: its fixed cost (constants, the final sums) is that of a few
 * values. Either gives the same answer. */
#define WIDE_MIN 8

/* What the runs of one block share, and the evaluations they count, added
 * to the report once per block. */
typedef struct block_run {
	const hpctk_svb_visitor *vis; /* gets value by value what the fast path does not take; NULL: none */
	const hpctk_svb_fast *f;      /* NULL: no fast path */
	const uint8_t *reject;
	uint64_t limit, per;
	hpctk_digest *dig;            /* the digests, NULL: none */
	uint32_t dig_base, ndig;
	/* values walked one by one (all, finite), and by the fast path; runs */
	uint64_t n_slow, n_slow_finite, n_fast, n_runs;
	bool wide;                    /* chunks of at least WIDE_MIN values through the AVX-512 check */
	const uint64_t *keybits;      /* the reject table as bits for it (NULL: none) */
} block_run;

/* Every 16-bit key allowed: the reject table used when no key rule applies. */
static const uint8_t no_reject[65536 + HPCTK_REJECT_PAD];

static void block_run_init(block_run *br, hpctk_svb_env *e)
{
	memset(br, 0, sizeof *br);
	br->vis = e->vis && e->vis->value ? e->vis : NULL;
	/* The fast path: always without a visitor, else when it gave its facts. */
	static const hpctk_svb_fast none = {.r_key = -1};
	br->f = !br->vis ? &none : br->vis->fast;
	br->reject = no_reject;
	br->limit = UINT64_MAX;
	if (br->f) {
		br->dig = br->f->dig;
		br->dig_base = br->f->dig_base;
		br->ndig = br->f->ndig;
	}
	if (br->f && br->f->r_key >= 0) {
		if (br->f->key_reject) br->reject = br->f->key_reject;
		else br->limit = br->f->key_limit;
	}
	/* values per fetch: a window's worth, or the whole run in memory */
	br->wide = e->wide;
	if (br->wide && e->d->val_key_size == PROF_KS) {
		if (e->kb_for != br->reject) {
			e->kb_ok = hpctk_svb_keybits(br->reject, e->keybits);
			e->kb_for = br->reject;
		}
		br->keybits = e->kb_ok ? e->keybits : NULL;
	}
	br->per = e->b->mem ? UINT64_MAX : e->wv.cap / e->d->val_size;
	if (br->per == 0) br->per = 1;
}

static void block_run_count(const block_run *br, hv_report *r, const hpctk_svb_desc *d)
{
	uint64_t n_total = br->n_slow + br->n_fast;
	if (d->r_val_key_nonzero >= 0) r->evaluated[d->r_val_key_nonzero] += n_total;
	r->evaluated[d->r_val_increasing] += n_total - br->n_runs; /* all but each run's first value */
	r->evaluated[d->r_value_finite] += n_total;
	r->evaluated[d->r_value_nonzero] += br->n_slow_finite + br->n_fast;
	/* what the visitor would have counted for the fast values */
	if (br->f && br->f->r_key >= 0) r->evaluated[br->f->r_key] += br->n_fast;
}

/* Check the values of one run [s, end) belonging to index entry `k`.
 * This is the loop that runs once per value: values are taken a window-full
 * at a time and go through fast_chunk; the rule evaluations are counted in
 * bulk (the same counts as one hv_eval per check), and a chunk is walked
 * value by value, with its diagnostics and visitor calls in file order,
 * only when it holds a failing value (or the visitor wants every value). */
static inline __attribute__((always_inline)) void run_values(hpctk_svb_env *e, const hpctk_svb_block *blk,
								    block_run *br, uint64_t k, uint32_t idx_key, uint64_t s,
								    uint64_t end, const unsigned ks)
{
	const unsigned vs = ks == PROF_KS ? PROF_VS : CCT_VS;
	const hpctk_svb_desc *d = e->d;
	hv_report *r = e->r;
	char path[HV_PATH_MAX], bp[96];
#define VPATH()                                                                                              \
	(snprintf(path, sizeof path, "%s/value[%llu]", block_path(e, blk->owner, bp, sizeof bp), (unsigned long long)j), \
	 path)
	const hpctk_svb_fast *f = br->f;
	hpctk_digest *dig = NULL;
	uint32_t ctx = ks == PROF_KS ? idx_key : blk->owner;
	if (br->dig && ctx - br->dig_base < br->ndig) dig = &br->dig[ctx - br->dig_base];
	uint64_t ybase = ks == PROF_KS ? (uint64_t)blk->owner << 16 : idx_key;
	uint64_t n_fast = 0, h_fast = 0;
	uint32_t prev = 0;
	uint64_t j = s, per = br->per;
	while (j < end) {
		uint64_t cnt = end - j < per ? end - j : per;
		uint64_t off0 = blk->pvalues + j * vs;
		const uint8_t *base = hv_window_get(&e->wv, off0, (size_t)(cnt * vs));
		if (!base) {
			e->complete = false;
			break;
		}
		if (f) {
			int64_t pv = j > s ? (int64_t)prev : ks == PROF_KS ? -1 : 0;
			uint64_t h;
			bool clean;
#if HPCTK_SVB_WIDE
			if (br->wide && cnt >= WIDE_MIN)
				clean = hpctk_svb_fast_chunk_avx512(base, cnt, ks == CCT_KS, dig != NULL, br->reject,
								    br->keybits, br->limit, ybase, &pv, &h);
			else
#endif
				clean = dig ? fast_chunk(base, cnt, ks, true, br->reject, br->limit, ybase, &pv, &h)
					    : fast_chunk(base, cnt, ks, false, br->reject, br->limit, ybase, &pv, &h);
			if (clean) {
				if (f->run) f->run(f->run_arg, blk->owner, f->run_summary, idx_key, base, cnt, off0);
				prev = (uint32_t)pv;
				n_fast += cnt;
				h_fast += h;
				j += cnt;
				continue;
			}
		}
		for (uint64_t c = 0; c < cnt; c++, j++) {
			const uint8_t *v = base + c * vs;
			uint64_t off = off0 + c * vs;
			/* Past the rules' caps only: a failure that is not stored only
			 * because the report is full is listed in order (a ghost), and
			 * counting the rules one after the other would list them in
			 * another order than record by record, so the place where a
			 * unit starts would change the report. The run of zeros is
			 * measured only then: measured at every value of a zeroed
			 * region that the caps do not cut (--max-per-rule=0), it made
			 * the walk quadratic in the region's length. */
			const bool bulk = j > s && hv_past_cap(r, d->r_val_increasing) &&
					  hv_past_cap(r, d->r_value_nonzero) &&
					  (ks == PROF_KS || hv_past_cap(r, d->r_val_key_nonzero));
			uint64_t z = bulk ? zero_run(v, cnt - c, ks) : 0;
			if (z > 1) {
				/* a zeroed region: every record has key 0 after a key >= 0 (out of
				 * order) and the value 0.0, none handed to the value checks */
				if (ks == CCT_KS) hv_count_quiet_n(r, d->r_val_key_nonzero, e->b->name, off, vs, z);
				hv_count_quiet_n(r, d->r_val_increasing, e->b->name, off, vs, z);
				hv_count_quiet_n(r, d->r_value_nonzero, e->b->name, off + ks, vs, z);
				br->n_slow_finite += z;
				br->n_slow += z;
				prev = 0;
				c += z - 1;
				j += z - 1;
				continue;
			}
			uint32_t key = ks == PROF_KS ? hv_le16(v) : hv_le32(v);
			uint64_t bits = hv_le64(v + ks);
			double x = hv_lef64(v + ks);
			/* a value out of key order, or a stored 0.0 (which the sparse
			 * format means by its absence), is not handed to the value
			 * checks: it is reported here, and a zeroed region would
			 * otherwise cost the whole value model per garbage value */
			bool key_zero = ks == CCT_KS && key == 0, out_of_order = j > s && key <= prev;
			bool misplaced = key_zero || out_of_order || x == 0.0;
			if (key_zero) {
				hv_emit(r, d->r_val_key_nonzero, e->b->name, off, ks, VPATH(),
					"%s 0 (the summary profile) in the run of %s %u; cct.db never holds summary values",
					d->val_key, d->idx_key, idx_key);
			}
			if (out_of_order)
				hv_emit(r, d->r_val_increasing, e->b->name, off, ks, VPATH(),
					"%s %u follows %u in the run of %s %u (index entry %llu); it must be strictly "
					"increasing",
					d->val_key, key, prev, d->idx_key, idx_key, (unsigned long long)k);
			prev = key;
			if (!isfinite(x)) {
				hv_emit(r, d->r_value_finite, e->b->name, off + ks, 8, VPATH(), "value for %s %u, %s %u is %s",
					d->idx_key, idx_key, d->val_key, key, isnan(x) ? "NaN" : "infinite");
			} else {
				br->n_slow_finite++;
				if (x == 0.0)
					hv_emit(r, d->r_value_nonzero, e->b->name, off + ks, 8, VPATH(),
						"value for %s %u, %s %u is 0.0; the sparse format stores non-zero values only",
						d->idx_key, idx_key, d->val_key, key);
			}
			br->n_slow++;
			if (br->vis && !misplaced) br->vis->value(br->vis->arg, blk->owner, idx_key, key, bits, off);
		}
	}
	br->n_fast += n_fast;
	if (j > s) br->n_runs++; /* a run with a value visited: its first one has no predecessor */
	if (dig) {
		dig->n += n_fast;
		dig->h += h_fast;
	}
}
#undef VPATH

static bool skipped(const hpctk_svb_env *e, uint32_t owner)
{
	uint32_t i = owner - e->first_owner;
	return !e->skip || i >= e->n_owners || hv_bit_get(e->skip, i);
}

static void skip(hpctk_svb_env *e, uint32_t owner)
{
	uint32_t i = owner - e->first_owner;
	if (e->skip && i < e->n_owners) hv_bit_set(e->skip, i);
}

void hpctk_svb_layout(hpctk_svb_env *e, const hpctk_svb_block *blk)
{
	if (!e->windows_ok || !check_layout(e, blk)) skip(e, blk->owner);
}

/* The values of one block (see hpctk_svb_values), one copy per layout, with
 * the index entry's field widths as constants. */
static inline __attribute__((always_inline)) void block_values(hpctk_svb_env *e, const hpctk_svb_block *blk,
								      const unsigned ks)
{
	const unsigned iks = ks == PROF_KS ? 4 : 2, is = iks + 8; /* {Idx}: key, startIndex */
	const hpctk_svb_desc *d = e->d;
	hv_report *r = e->r;
	char bp[96], path[HV_PATH_MAX];
	if (skipped(e, blk->owner)) {
		if (blk->nvalues || blk->nidx) e->complete = false;
		return;
	}
#define BP() block_path(e, blk->owner, bp, sizeof bp)

	/* Walk the index entries; entry k's run is [start_k, start_{k+1}) or
	 * [start_k, nValues). A run is attributed only while every start so far
	 * is sound; after the first bad start the rest of the block is checked
	 * for its indices alone, so one bad startIndex is reported once. */
#define IPATH() (snprintf(path, sizeof path, "%s/%s[%llu]", BP(), d->idx_ptr, (unsigned long long)k), path)
	block_run br;
	block_run_init(&br, e);
	void (*index)(void *, uint32_t, uint32_t, uint64_t) = e->vis ? e->vis->index : NULL;
	const hpctk_svb_fast *f = e->vis ? e->vis->fast : NULL;
	bool idx_fast = index && f && f->idx_fast;
	uint64_t n_called = 0;
	bool attributing = true;
	uint64_t last_start = 0;  /* last in-range start, for the monotony check */
	bool have_last = false;
	uint32_t prev_key = 0, run_key = 0;
	uint64_t run_start = 0, run_k = 0;
	bool run_open = false;
	uint64_t n_ok = 0; /* entries whose start passed both start rules (evaluated in bulk) */
	/* A block whose values and indices fit in one window (cct.db has one
	 * small block per context) is read through the value window alone:
	 * with two windows over the same bytes, each would be read twice. The
	 * layout check put both arrays inside the file. */
	hv_window *wi = &e->wi;
	if (!e->b->mem) {
		uint64_t vend = blk->pvalues + blk->nvalues * (ks == PROF_KS ? PROF_VS : CCT_VS), iend = blk->pidx + blk->nidx * is;
		uint64_t lo = blk->nvalues == 0 ? blk->pidx : blk->nidx == 0 ? blk->pvalues
							    : blk->pvalues < blk->pidx ? blk->pvalues : blk->pidx;
		uint64_t hi = vend > iend ? vend : iend;
		if (hi > lo && hi - lo <= e->wv.cap && hv_window_get(&e->wv, lo, (size_t)(hi - lo))) wi = &e->wv;
	}
	uint64_t k = 0;
	bool unreadable = false;
	/* The entries are taken a window-full at a time (entries [ib, ib_end)
	 * at ip), not one window lookup each: the values' window is another
	 * one, or holds the whole block. The reads are the same: a refill
	 * starts at the first entry not in the window either way. */
	const uint8_t *ip = NULL;
	uint64_t ib = 0, ib_end = 0;
	const uint64_t per_batch = e->b->mem ? UINT64_MAX : wi->cap / is ? wi->cap / is : 1;
	for (; k < blk->nidx; k++) {
		uint64_t off = blk->pidx + k * is;
		if (k >= ib_end) {
			uint64_t nb = blk->nidx - k < per_batch ? blk->nidx - k : per_batch;
			ip = hv_window_get(wi, off, (size_t)(nb * is));
			if (!ip && nb > 1) ip = hv_window_get(wi, off, is), nb = 1;
			if (!ip) {
				e->complete = false;
				unreadable = true;
				break;
			}
			ib = k;
			ib_end = k + nb;
		}
		const uint8_t *p = ip + (k - ib) * is;
		uint32_t key = iks == 2 ? hv_le16(p) : hv_le32(p);
		uint64_t start = hv_le64(p + iks);
		if (k > 0 && key <= prev_key)
			hv_emit(r, d->r_idx_increasing, e->b->name, off, iks, IPATH(),
				"%s %u follows %u; index entries must be sorted by strictly increasing %s", d->idx_key, key,
				prev_key, d->idx_key);
		prev_key = key;
		if (index && (!idx_fast || (k == 0 && f->idx_first) || key >= f->idx_limit ||
			      (f->idx_allow && (key >= f->idx_allow_n || !hv_bit_get(f->idx_allow, key))))) {
			index(e->vis->arg, blk->owner, key, off);
			n_called++;
		}

		if (k == 0 && !hv_eval(r, d->r_start_first_zero, start == 0)) {
			hv_emit(r, d->r_start_first_zero, e->b->name, off + iks, 8, IPATH(),
				"the first startIndex is %llu, so values [0, %llu) belong to no %s",
				(unsigned long long)start, (unsigned long long)(start < blk->nvalues ? start : blk->nvalues),
				d->idx_key);
			e->complete = false; /* the orphaned values are not visited */
		}
		bool ok = true;
		if (start > blk->nvalues) {
			r->evaluated[d->r_start_in_range]++;
			hv_emit(r, d->r_start_in_range, e->b->name, off + iks, 8, IPATH(),
				"startIndex %llu is beyond nValues %llu", (unsigned long long)start,
				(unsigned long long)blk->nvalues);
			ok = false;
		} else if (have_last && start < last_start) {
			r->evaluated[d->r_start_in_range]++;
			r->evaluated[d->r_start_nondecreasing]++;
			hv_emit(r, d->r_start_nondecreasing, e->b->name, off + iks, 8, IPATH(),
				"startIndex %llu is below the previous startIndex %llu", (unsigned long long)start,
				(unsigned long long)last_start);
			ok = false;
		}
		if (!ok) {
			if (attributing) e->complete = false;
			attributing = false;
			continue;
		}
		n_ok++;
		if (attributing && run_open) run_values(e, blk, &br, run_k, run_key, run_start, start, ks);
		last_start = start;
		have_last = true;
		run_open = true;
		run_start = start;
		run_key = key;
		run_k = k;
	}
	/* bulk counts: the key order from the second entry on, the start rules
	 * of the entries that passed them (the nondecreasing rule from the
	 * second in-range start on) */
	if (k > 1) r->evaluated[d->r_idx_increasing] += k - 1;
	for (int i = 0; idx_fast && i < 2; i++) /* what the index calls not made would have counted */
		if (f->r_idx[i] >= 0) r->evaluated[f->r_idx[i]] += k - n_called;
	r->evaluated[d->r_start_in_range] += n_ok;
	if (n_ok) r->evaluated[d->r_start_nondecreasing] += n_ok - 1;
	if (!unreadable && attributing && run_open) run_values(e, blk, &br, run_k, run_key, run_start, blk->nvalues, ks);
	block_run_count(&br, r, d);
	if (unreadable) return;
	/* No index entry at all: every value belongs to no run, the same defect
	 * as a first startIndex above 0. */
	if (blk->nidx == 0 && !hv_eval(r, d->r_start_first_zero, blk->nvalues == 0)) {
		hv_emit(r, d->r_start_first_zero, e->b->name, blk->at, 0x20, BP(),
			"%s is 0 but nValues is %llu: the values belong to no %s", d->idx_count,
			(unsigned long long)blk->nvalues, d->idx_key);
		e->complete = false;
	}
}
#undef IPATH
#undef BP

void hpctk_svb_values(hpctk_svb_env *e, const hpctk_svb_block *blk)
{
	/* e->complete for this block alone, then folded into the file's */
	bool before = e->complete;
	e->complete = true;
	if (e->d->val_key_size == PROF_KS) block_values(e, blk, PROF_KS);
	else block_values(e, blk, CCT_KS);
	bool whole = e->complete;
	e->complete = before && whole;
	const hpctk_svb_fast *f = e->vis ? e->vis->fast : NULL;
	if (f && f->block_end) f->block_end(f->run_arg, blk->owner, whole);
}

static void report_overlap(void *arg, const hpctk_range *a, const hpctk_range *b)
{
	hpctk_svb_env *e = arg;
	char path[HV_PATH_MAX];
	/* Not walked: N blocks sharing one plane must not cost N walks of it. */
	skip(e, b->owner);
	snprintf(path, sizeof path, "%s/%s[%u]/valueBlock", e->d->file, e->d->owner, b->owner);
	hv_eval(e->r, e->d->r_overlap, false);
	hv_emit(e->r, e->d->r_overlap, e->b->name, b->where, 0x20, path,
		"the data of %s %u [0x%llx, +0x%llx) overlaps that of %s %u [0x%llx, +0x%llx)", e->d->owner, b->owner,
		(unsigned long long)b->start, (unsigned long long)b->len, e->d->owner, a->owner,
		(unsigned long long)a->start, (unsigned long long)a->len);
}

void hpctk_svb_overlaps(hpctk_svb_env *e)
{
	hv_eval(e->r, e->d->r_overlap, true);
	hpctk_ranges_sweep(&e->planes, report_overlap, e);
}
