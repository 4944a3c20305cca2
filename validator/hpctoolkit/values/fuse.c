/* The summary checker's one pass over a clean cct.db run (values.h,
 * hpctk_vfuse_fn): what the fused statistics of a metric need from it,
 * each computed exactly as summary.c's fold_clean would for that
 * statistic alone (same operations, same order: the reports do not move
 * by one bit): sum x with sum |x| (its magnitude), sum x^2 (its own
 * magnitude: the terms are not negative), min x, max x. One pass keeps
 * the four accumulator chains in flight together instead of walking the
 * run once per statistic. Kept apart from the checker's bookkeeping: these
 * loops are the part that runs once per value. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "core/hv_int.h"
#include "values.h"

static inline __attribute__((always_inline)) void fuse_body(const uint8_t *vals, uint64_t cnt, const unsigned need, hpctk_vfused *g)
{
	double x = hv_lef64(vals + 4);
	double s1 = x, a1 = fabs(x), s2 = x * x, mn = x, mx = x;
	for (uint64_t i = 1; i < cnt; i++) {
		x = hv_lef64(vals + 12 * i + 4);
		if (need & HPCTK_VF_SUM1) {
			s1 += x;
			a1 += fabs(x);
		}
		if (need & HPCTK_VF_SUM2) s2 += x * x;
		if (need & HPCTK_VF_MIN) mn = x < mn ? x : mn;
		if (need & HPCTK_VF_MAX) mx = x > mx ? x : mx;
	}
	*g = (hpctk_vfused){s1, a1, s2, mn, mx};
}

/* One loop per combination, the tests folded away at compile time. */
#define FUSE_FN(N) \
	static void fuse_##N(const uint8_t *v, uint64_t c, hpctk_vfused *g) { fuse_body(v, c, N, g); }
FUSE_FN(1) FUSE_FN(2) FUSE_FN(3) FUSE_FN(4) FUSE_FN(5) FUSE_FN(6) FUSE_FN(7) FUSE_FN(8)
FUSE_FN(9) FUSE_FN(10) FUSE_FN(11) FUSE_FN(12) FUSE_FN(13) FUSE_FN(14) FUSE_FN(15)
#undef FUSE_FN
void (*const hpctk_vfuse_fn[16])(const uint8_t *, uint64_t, hpctk_vfused *) = {
	NULL, fuse_1, fuse_2, fuse_3, fuse_4, fuse_5, fuse_6, fuse_7, fuse_8, fuse_9, fuse_10, fuse_11, fuse_12,
	fuse_13, fuse_14, fuse_15};

/* The same with several accumulators per aggregate, so that no chain
 * waits on its own adds: with SSE2 (or WebAssembly's SIMD), two lanes of
 * two vectors (four values a step), else two scalars. min and max come out exactly as
 * above: a clean run's values are finite and non-zero, so equal values
 * have equal bits and the order does not matter. The sums do not: they
 * are only used to prove that the sum in file order agrees with the value
 * found (certify), never reported. */
#ifdef __SSE2__
static inline __attribute__((always_inline)) void fuse2_body(const uint8_t *vals, uint64_t cnt, const unsigned need, hpctk_vfused *g)
{
	const __m128d nosign = _mm_castsi128_pd(_mm_set1_epi64x(INT64_MAX));
	const __m128d zero = _mm_setzero_pd();
	double x = hv_lef64(vals + 4);
	__m128d s1 = _mm_set_sd(x), t1 = zero, a1 = _mm_and_pd(s1, nosign), b1 = zero;
	__m128d s2 = _mm_mul_pd(s1, s1), t2 = zero, mn = _mm_set1_pd(x), mx = mn;
	uint64_t i = 1;
	for (; i + 3 < cnt; i += 4) {
		const uint8_t *p = vals + 12 * i + 4;
		__m128d v = _mm_set_pd(hv_lef64(p + 12), hv_lef64(p)), w = _mm_set_pd(hv_lef64(p + 36), hv_lef64(p + 24));
		if (need & HPCTK_VF_SUM1) {
			s1 = _mm_add_pd(s1, v);
			t1 = _mm_add_pd(t1, w);
			a1 = _mm_add_pd(a1, _mm_and_pd(v, nosign));
			b1 = _mm_add_pd(b1, _mm_and_pd(w, nosign));
		}
		if (need & HPCTK_VF_SUM2) {
			s2 = _mm_add_pd(s2, _mm_mul_pd(v, v));
			t2 = _mm_add_pd(t2, _mm_mul_pd(w, w));
		}
		if (need & HPCTK_VF_MIN) mn = _mm_min_pd(mn, _mm_min_pd(v, w));
		if (need & HPCTK_VF_MAX) mx = _mm_max_pd(mx, _mm_max_pd(v, w));
	}
	for (; i < cnt; i++) {
		__m128d v = _mm_set_sd(hv_lef64(vals + 12 * i + 4));
		if (need & HPCTK_VF_SUM1) {
			s1 = _mm_add_sd(s1, v);
			a1 = _mm_add_sd(a1, _mm_and_pd(v, nosign));
		}
		if (need & HPCTK_VF_SUM2) s2 = _mm_add_sd(s2, _mm_mul_sd(v, v));
		if (need & HPCTK_VF_MIN) mn = _mm_min_sd(mn, v);
		if (need & HPCTK_VF_MAX) mx = _mm_max_sd(mx, v);
	}
	s1 = _mm_add_pd(s1, t1);
	a1 = _mm_add_pd(a1, b1);
	s2 = _mm_add_pd(s2, t2);
	g->s1 = _mm_cvtsd_f64(s1) + _mm_cvtsd_f64(_mm_unpackhi_pd(s1, s1));
	g->a1 = _mm_cvtsd_f64(a1) + _mm_cvtsd_f64(_mm_unpackhi_pd(a1, a1));
	g->s2 = _mm_cvtsd_f64(s2) + _mm_cvtsd_f64(_mm_unpackhi_pd(s2, s2));
	double m0 = _mm_cvtsd_f64(mn), m1 = _mm_cvtsd_f64(_mm_unpackhi_pd(mn, mn));
	double x0 = _mm_cvtsd_f64(mx), x1 = _mm_cvtsd_f64(_mm_unpackhi_pd(mx, mx));
	g->mn = m1 < m0 ? m1 : m0;
	g->mx = x1 > x0 ? x1 : x0;
}
#elif defined(__wasm_simd128__)
/* The SSE2 loop's operations, lane for lane, in WebAssembly's 128-bit SIMD
 * (the web page's build): the same sums in the same lanes, so the same
 * results; pmin(b, a) and pmax(b, a) are SSE2's min(a, b) and max(a, b)
 * exactly (a < b ? a : b and a > b ? a : b). */
static inline double lane0(v128_t a) { return wasm_f64x2_extract_lane(a, 0); }
static inline double lane1(v128_t a) { return wasm_f64x2_extract_lane(a, 1); }
static inline __attribute__((always_inline)) void fuse2_body(const uint8_t *vals, uint64_t cnt, const unsigned need, hpctk_vfused *g)
{
	const v128_t zero = wasm_f64x2_splat(0.0);
	double x = hv_lef64(vals + 4);
	v128_t s1 = wasm_f64x2_make(x, 0.0), t1 = zero, a1 = wasm_f64x2_abs(s1), b1 = zero;
	v128_t s2 = wasm_f64x2_mul(s1, s1), t2 = zero, mn = wasm_f64x2_splat(x), mx = mn;
	uint64_t i = 1;
	for (; i + 3 < cnt; i += 4) {
		const uint8_t *p = vals + 12 * i + 4;
		v128_t v = wasm_f64x2_make(hv_lef64(p), hv_lef64(p + 12)), w = wasm_f64x2_make(hv_lef64(p + 24), hv_lef64(p + 36));
		if (need & HPCTK_VF_SUM1) {
			s1 = wasm_f64x2_add(s1, v);
			t1 = wasm_f64x2_add(t1, w);
			a1 = wasm_f64x2_add(a1, wasm_f64x2_abs(v));
			b1 = wasm_f64x2_add(b1, wasm_f64x2_abs(w));
		}
		if (need & HPCTK_VF_SUM2) {
			s2 = wasm_f64x2_add(s2, wasm_f64x2_mul(v, v));
			t2 = wasm_f64x2_add(t2, wasm_f64x2_mul(w, w));
		}
		if (need & HPCTK_VF_MIN) mn = wasm_f64x2_pmin(wasm_f64x2_pmin(w, v), mn);
		if (need & HPCTK_VF_MAX) mx = wasm_f64x2_pmax(wasm_f64x2_pmax(w, v), mx);
	}
	for (; i < cnt; i++) {
		/* lane 0 alone, as SSE2's scalar forms */
		double y = hv_lef64(vals + 12 * i + 4);
		if (need & HPCTK_VF_SUM1) {
			s1 = wasm_f64x2_replace_lane(s1, 0, lane0(s1) + y);
			a1 = wasm_f64x2_replace_lane(a1, 0, lane0(a1) + fabs(y));
		}
		if (need & HPCTK_VF_SUM2) s2 = wasm_f64x2_replace_lane(s2, 0, lane0(s2) + y * y);
		if (need & HPCTK_VF_MIN) mn = wasm_f64x2_replace_lane(mn, 0, lane0(mn) < y ? lane0(mn) : y);
		if (need & HPCTK_VF_MAX) mx = wasm_f64x2_replace_lane(mx, 0, lane0(mx) > y ? lane0(mx) : y);
	}
	s1 = wasm_f64x2_add(s1, t1);
	a1 = wasm_f64x2_add(a1, b1);
	s2 = wasm_f64x2_add(s2, t2);
	g->s1 = lane0(s1) + lane1(s1);
	g->a1 = lane0(a1) + lane1(a1);
	g->s2 = lane0(s2) + lane1(s2);
	double m0 = lane0(mn), m1 = lane1(mn), x0 = lane0(mx), x1 = lane1(mx);
	g->mn = m1 < m0 ? m1 : m0;
	g->mx = x1 > x0 ? x1 : x0;
}
#else
static inline __attribute__((always_inline)) void fuse2_body(const uint8_t *vals, uint64_t cnt, const unsigned need, hpctk_vfused *g)
{
	double x = hv_lef64(vals + 4);
	double s1 = x, a1 = fabs(x), s2 = x * x, mn = x, mx = x;
	double t1 = 0.0, b1 = 0.0, t2 = 0.0, nn = x, nx = x;
	uint64_t i = 1;
	for (; i + 1 < cnt; i += 2) {
		double y = hv_lef64(vals + 12 * i + 4), z = hv_lef64(vals + 12 * i + 16);
		if (need & HPCTK_VF_SUM1) {
			s1 += y;
			t1 += z;
			a1 += fabs(y);
			b1 += fabs(z);
		}
		if (need & HPCTK_VF_SUM2) {
			s2 += y * y;
			t2 += z * z;
		}
		if (need & HPCTK_VF_MIN) {
			mn = y < mn ? y : mn;
			nn = z < nn ? z : nn;
		}
		if (need & HPCTK_VF_MAX) {
			mx = y > mx ? y : mx;
			nx = z > nx ? z : nx;
		}
	}
	if (i < cnt) {
		x = hv_lef64(vals + 12 * i + 4);
		s1 += x;
		a1 += fabs(x);
		s2 += x * x;
		mn = x < mn ? x : mn;
		mx = x > mx ? x : mx;
	}
	*g = (hpctk_vfused){s1 + t1, a1 + b1, s2 + t2, nn < mn ? nn : mn, nx > mx ? nx : mx};
}
#endif

#define FUSE_FN(N) \
	static void fuse2_##N(const uint8_t *v, uint64_t c, hpctk_vfused *g) { fuse2_body(v, c, N, g); }
FUSE_FN(1) FUSE_FN(2) FUSE_FN(3) FUSE_FN(4) FUSE_FN(5) FUSE_FN(6) FUSE_FN(7) FUSE_FN(8)
FUSE_FN(9) FUSE_FN(10) FUSE_FN(11) FUSE_FN(12) FUSE_FN(13) FUSE_FN(14) FUSE_FN(15)
#undef FUSE_FN
void (*const hpctk_vfuse2_fn[16])(const uint8_t *, uint64_t, hpctk_vfused *) = {
	NULL, fuse2_1, fuse2_2, fuse2_3, fuse2_4, fuse2_5, fuse2_6, fuse2_7, fuse2_8, fuse2_9, fuse2_10, fuse2_11,
	fuse2_12, fuse2_13, fuse2_14, fuse2_15};
