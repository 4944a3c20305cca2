/* The propagation checker's per-node evaluation kernels (values.h,
 * hpctk_vlanes): the profile has no negative term, so every slot's
 * equation is one line of vector arithmetic with no branch. They are kept
 * apart from check.c because the wide one is compiled for AVX-512
 * and called only where the processor has it (core/simd.h); both do the
 * same operations per lane, so the totals, the counts and the verdict do
 * not depend on the machine (tests/hpctk_simd.test.sh compares them). */
#include <stdbool.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "v2.h"
#include "values.h"

/* Two slots a step, on every machine (v2.h). */
bool hpctk_vlanes_2(const hpctk_vlanes *l, const double *ex, const double *x2, const double *found, uint64_t nev[2])
{
	const uint32_t gp = l->gp;
	double *tot = l->tot, *totmag = l->totmag;
	const double *elmag = l->elmag, *neg = l->neg, *pos = l->pos;
	const int64_t *isexec = l->isexec;
	const v2d zero = v2_splat(0.0), abs_tol = v2_splat(HPCTK_VALUES_ABS_TOL), rel_tol = v2_splat(HPCTK_VALUES_REL_TOL);
	v2d ok = v2_ones(), nall = v2_splat(0.0), nexec = v2_splat(0.0); /* the counts: integer lanes, all bits zero */
	for (uint32_t k = 0; k < gp; k += 2) {
		v2d x = v2_add(v2_load(ex + k), v2_load(x2 + k)), f = v2_load(found + k);
		v2d xa = v2_add(x, v2_abs(f)); /* mag + |found|; mag = x: no negative term */
		v2d tol = v2_add(abs_tol, v2_mul(rel_tol, v2_add(xa, v2_load(elmag + k))));
		v2d diff = v2_sub(f, x);
		v2_store(tot + k, v2_add(v2_load(tot + k), diff));
		v2_store(totmag + k, v2_add(v2_load(totmag + k), xa));
		v2d lo = v2_sub(v2_load(neg + k), tol), hi = v2_add(v2_load(pos + k), tol);
		ok = v2_and(ok, v2_and(v2_ge(diff, lo), v2_le(diff, hi)));
		v2d touched = v2_or(v2_ne(x, zero), v2_ne(f, zero));
		nall = v2_isub(nall, touched);
		nexec = v2_isub(nexec, v2_and(touched, v2_loadm(isexec + k)));
	}
	int64_t na = v2_isum(nall), ne = v2_isum(nexec);
	nev[1] += (uint64_t)ne;
	nev[0] += (uint64_t)(na - ne);
	return v2_all(ok);
}

#if defined(__SSE2__)
/* The same, eight lanes at a time (the last group masked): only called
 * when the processor has AVX-512 (core/simd.h). No fused
 * multiply-add: the product is rounded as in hpctk_vlanes_2. */
__attribute__((target("avx512f"))) bool hpctk_vlanes_avx512(const hpctk_vlanes *l, const double *ex, const double *x2,
								 const double *found, uint64_t nev[2])
{
	const uint32_t gp = l->gp;
	double *tot = l->tot, *totmag = l->totmag;
	const double *elmag = l->elmag, *neg = l->neg, *pos = l->pos;
	const __m512d zero = _mm512_setzero_pd();
	const __m512d abs_tol = _mm512_set1_pd(HPCTK_VALUES_ABS_TOL), rel_tol = _mm512_set1_pd(HPCTK_VALUES_REL_TOL);
	unsigned bad = 0;
	uint64_t nall = 0, nexec = 0;
	for (uint32_t k = 0; k < gp; k += 8) {
		const __mmask8 m = gp - k >= 8 ? 0xff : (__mmask8)((1u << (gp - k)) - 1);
		__m512d x = _mm512_add_pd(_mm512_maskz_loadu_pd(m, ex + k), _mm512_maskz_loadu_pd(m, x2 + k));
		__m512d f = _mm512_maskz_loadu_pd(m, found + k);
		__m512d xa = _mm512_add_pd(x, _mm512_abs_pd(f));
		__m512d tol = _mm512_add_pd(abs_tol, _mm512_mul_pd(rel_tol, _mm512_add_pd(xa, _mm512_load_pd(elmag + k))));
		__m512d diff = _mm512_sub_pd(f, x);
		_mm512_store_pd(tot + k, _mm512_add_pd(_mm512_load_pd(tot + k), diff));
		_mm512_store_pd(totmag + k, _mm512_add_pd(_mm512_load_pd(totmag + k), xa));
		__m512d lo = _mm512_sub_pd(_mm512_load_pd(neg + k), tol);
		__m512d hi = _mm512_add_pd(_mm512_load_pd(pos + k), tol);
		unsigned in = (unsigned)(_mm512_cmp_pd_mask(diff, lo, _CMP_GE_OQ) & _mm512_cmp_pd_mask(diff, hi, _CMP_LE_OQ));
		bad |= m & ~in;
		unsigned touched = m & (unsigned)(_mm512_cmp_pd_mask(x, zero, _CMP_NEQ_UQ) | _mm512_cmp_pd_mask(f, zero, _CMP_NEQ_UQ));
		nall += (uint64_t)__builtin_popcount(touched);
		nexec += (uint64_t)__builtin_popcount(touched & l->execmask[k / 8]);
	}
#ifdef HV_FUZZ_PLANT_WIDE_BUG
	/* A planted defect, never in a real build: the wide kernel counts one
	 * value too many. tests/fuzz_diff.test.sh builds it into the diff_simd
	 * target and expects the target to abort where AVX-512 is present. */
	nall += gp > 0;
#endif
	nev[1] += nexec;
	nev[0] += nall - nexec;
	return bad == 0;
}
#endif
