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
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "values.h"

#if defined(__SSE2__)
/* Two slots at a time (every x86-64 has SSE2). */
bool hpctk_vlanes_sse2(const hpctk_vlanes *l, const double *ex, const double *x2, const double *found, uint64_t nev[2])
{
	const uint32_t gp = l->gp;
	double *tot = l->tot, *totmag = l->totmag;
	const double *elmag = l->elmag, *neg = l->neg, *pos = l->pos;
	const int64_t *isexec = l->isexec;
	const __m128d absmask = _mm_castsi128_pd(_mm_set1_epi64x(INT64_MAX)), zero = _mm_setzero_pd();
	const __m128d abs_tol = _mm_set1_pd(HPCTK_VALUES_ABS_TOL), rel_tol = _mm_set1_pd(HPCTK_VALUES_REL_TOL);
	__m128d ok = _mm_castsi128_pd(_mm_set1_epi64x(-1));
	__m128i nall = _mm_setzero_si128(), nexec = _mm_setzero_si128();
	for (uint32_t k = 0; k < gp; k += 2) {
		__m128d x = _mm_add_pd(_mm_loadu_pd(ex + k), _mm_loadu_pd(x2 + k)), f = _mm_loadu_pd(found + k);
		__m128d xa = _mm_add_pd(x, _mm_and_pd(f, absmask)); /* mag + |found|; mag = x: no negative term */
		__m128d tol = _mm_add_pd(abs_tol, _mm_mul_pd(rel_tol, _mm_add_pd(xa, _mm_loadu_pd(elmag + k))));
		__m128d diff = _mm_sub_pd(f, x);
		_mm_storeu_pd(tot + k, _mm_add_pd(_mm_loadu_pd(tot + k), diff));
		_mm_storeu_pd(totmag + k, _mm_add_pd(_mm_loadu_pd(totmag + k), xa));
		__m128d lo = _mm_sub_pd(_mm_loadu_pd(neg + k), tol), hi = _mm_add_pd(_mm_loadu_pd(pos + k), tol);
		ok = _mm_and_pd(ok, _mm_and_pd(_mm_cmpge_pd(diff, lo), _mm_cmple_pd(diff, hi)));
		__m128i touched = _mm_castpd_si128(_mm_or_pd(_mm_cmpneq_pd(x, zero), _mm_cmpneq_pd(f, zero)));
		nall = _mm_sub_epi64(nall, touched);
		nexec = _mm_sub_epi64(nexec, _mm_and_si128(touched, _mm_loadu_si128((const __m128i *)(const void *)(isexec + k))));
	}
	int64_t na[2], ne[2];
	_mm_storeu_si128((__m128i *)(void *)na, nall);
	_mm_storeu_si128((__m128i *)(void *)ne, nexec);
	nev[1] += (uint64_t)(ne[0] + ne[1]);
	nev[0] += (uint64_t)(na[0] + na[1] - ne[0] - ne[1]);
	return _mm_movemask_pd(ok) == 3;
}

/* The same, eight lanes at a time (the last group masked): only called
 * when the processor has AVX-512 (core/simd.h). No fused
 * multiply-add: the product is rounded as in hpctk_vlanes_sse2. */
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

#if defined(__wasm_simd128__)
/* The SSE2 kernel's operations, lane for lane, in WebAssembly's 128-bit
 * SIMD (the web page's build, -msimd128): the same IEEE adds, products and
 * ordered compares, so the same totals, counts and verdict. */
bool hpctk_vlanes_simd128(const hpctk_vlanes *l, const double *ex, const double *x2, const double *found, uint64_t nev[2])
{
	const uint32_t gp = l->gp;
	double *tot = l->tot, *totmag = l->totmag;
	const double *elmag = l->elmag, *neg = l->neg, *pos = l->pos;
	const int64_t *isexec = l->isexec;
	const v128_t zero = wasm_f64x2_splat(0.0);
	const v128_t abs_tol = wasm_f64x2_splat(HPCTK_VALUES_ABS_TOL), rel_tol = wasm_f64x2_splat(HPCTK_VALUES_REL_TOL);
	v128_t ok = wasm_i64x2_splat(-1), nall = wasm_i64x2_splat(0), nexec = wasm_i64x2_splat(0);
	for (uint32_t k = 0; k < gp; k += 2) {
		v128_t x = wasm_f64x2_add(wasm_v128_load(ex + k), wasm_v128_load(x2 + k)), f = wasm_v128_load(found + k);
		v128_t xa = wasm_f64x2_add(x, wasm_f64x2_abs(f)); /* mag + |found|; mag = x: no negative term */
		v128_t tol = wasm_f64x2_add(abs_tol, wasm_f64x2_mul(rel_tol, wasm_f64x2_add(xa, wasm_v128_load(elmag + k))));
		v128_t diff = wasm_f64x2_sub(f, x);
		wasm_v128_store(tot + k, wasm_f64x2_add(wasm_v128_load(tot + k), diff));
		wasm_v128_store(totmag + k, wasm_f64x2_add(wasm_v128_load(totmag + k), xa));
		v128_t lo = wasm_f64x2_sub(wasm_v128_load(neg + k), tol), hi = wasm_f64x2_add(wasm_v128_load(pos + k), tol);
		ok = wasm_v128_and(ok, wasm_v128_and(wasm_f64x2_ge(diff, lo), wasm_f64x2_le(diff, hi)));
		v128_t touched = wasm_v128_or(wasm_f64x2_ne(x, zero), wasm_f64x2_ne(f, zero));
		nall = wasm_i64x2_sub(nall, touched);
		nexec = wasm_i64x2_sub(nexec, wasm_v128_and(touched, wasm_v128_load(isexec + k)));
	}
	int64_t na0 = wasm_i64x2_extract_lane(nall, 0), na1 = wasm_i64x2_extract_lane(nall, 1);
	int64_t ne0 = wasm_i64x2_extract_lane(nexec, 0), ne1 = wasm_i64x2_extract_lane(nexec, 1);
	nev[1] += (uint64_t)(ne0 + ne1);
	nev[0] += (uint64_t)(na0 + na1 - ne0 - ne1);
	return wasm_i64x2_all_true(ok);
}
#endif
