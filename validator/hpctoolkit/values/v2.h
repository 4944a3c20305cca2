/* Two doubles a step, for the value checks' loops over slots (lanes.c,
 * check.c): the kernels are written once with these operations, and each
 * machine defines them: SSE2 on x86-64, 128-bit SIMD in the web page's
 * WebAssembly (-msimd128), two plain lanes elsewhere. Each operation is
 * the IEEE one per lane on all three, so the results never depend on the
 * machine. A compare gives a lane of all ones or zero: ordered for <= and
 * >= (a NaN fails them), unordered for != (a NaN differs from zero).
 * (GNU C's vector extension would serve all three from one definition,
 * but GCC 12 turns its 64-bit lane masks into scalar code: 1.66x the
 * instructions of the propagation kernel.) Loads and stores are
 * unaligned: the arrays are only double-aligned. */
#ifndef HPCTK_VALUES_V2_H
#define HPCTK_VALUES_V2_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <immintrin.h>
typedef __m128d v2d; /* two doubles, or two 64-bit lane masks */
static inline v2d v2_load(const double *p) { return _mm_loadu_pd(p); }
static inline v2d v2_loadm(const int64_t *p) { return _mm_castsi128_pd(_mm_loadu_si128((const __m128i *)(const void *)p)); }
static inline void v2_store(double *p, v2d a) { _mm_storeu_pd(p, a); }
static inline v2d v2_splat(double x) { return _mm_set1_pd(x); }
static inline v2d v2_ones(void) { return _mm_castsi128_pd(_mm_set1_epi64x(-1)); }
static inline v2d v2_add(v2d a, v2d b) { return _mm_add_pd(a, b); }
static inline v2d v2_sub(v2d a, v2d b) { return _mm_sub_pd(a, b); }
static inline v2d v2_mul(v2d a, v2d b) { return _mm_mul_pd(a, b); }
static inline v2d v2_abs(v2d a) { return _mm_and_pd(a, _mm_castsi128_pd(_mm_set1_epi64x(INT64_MAX))); }
static inline v2d v2_and(v2d a, v2d b) { return _mm_and_pd(a, b); }
static inline v2d v2_or(v2d a, v2d b) { return _mm_or_pd(a, b); }
static inline v2d v2_ge(v2d a, v2d b) { return _mm_cmpge_pd(a, b); }
static inline v2d v2_le(v2d a, v2d b) { return _mm_cmple_pd(a, b); }
static inline v2d v2_ne(v2d a, v2d b) { return _mm_cmpneq_pd(a, b); }
/* the lanes as 64-bit integers: a mask lane is -1, so subtracting masks counts them */
static inline v2d v2_isub(v2d a, v2d b) { return _mm_castsi128_pd(_mm_sub_epi64(_mm_castpd_si128(a), _mm_castpd_si128(b))); }
static inline int64_t v2_isum(v2d a)
{
	int64_t v[2];
	_mm_storeu_si128((__m128i *)(void *)v, _mm_castpd_si128(a));
	return v[0] + v[1];
}
static inline bool v2_all(v2d m) { return _mm_movemask_pd(m) == 3; }
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
typedef v128_t v2d;
static inline v2d v2_load(const double *p) { return wasm_v128_load(p); }
static inline v2d v2_loadm(const int64_t *p) { return wasm_v128_load(p); }
static inline void v2_store(double *p, v2d a) { wasm_v128_store(p, a); }
static inline v2d v2_splat(double x) { return wasm_f64x2_splat(x); }
static inline v2d v2_ones(void) { return wasm_i64x2_splat(-1); }
static inline v2d v2_add(v2d a, v2d b) { return wasm_f64x2_add(a, b); }
static inline v2d v2_sub(v2d a, v2d b) { return wasm_f64x2_sub(a, b); }
static inline v2d v2_mul(v2d a, v2d b) { return wasm_f64x2_mul(a, b); }
static inline v2d v2_abs(v2d a) { return wasm_f64x2_abs(a); }
static inline v2d v2_and(v2d a, v2d b) { return wasm_v128_and(a, b); }
static inline v2d v2_or(v2d a, v2d b) { return wasm_v128_or(a, b); }
static inline v2d v2_ge(v2d a, v2d b) { return wasm_f64x2_ge(a, b); }
static inline v2d v2_le(v2d a, v2d b) { return wasm_f64x2_le(a, b); }
static inline v2d v2_ne(v2d a, v2d b) { return wasm_f64x2_ne(a, b); }
static inline v2d v2_isub(v2d a, v2d b) { return wasm_i64x2_sub(a, b); }
static inline int64_t v2_isum(v2d a) { return wasm_i64x2_extract_lane(a, 0) + wasm_i64x2_extract_lane(a, 1); }
static inline bool v2_all(v2d m) { return wasm_i64x2_all_true(m); }
#else
#include <math.h>
#include <string.h>
/* two plain lanes; a mask lane holds -1 or 0 in the integer member */
typedef struct {
	union {
		double d[2];
		int64_t i[2];
	};
} v2d;
static inline v2d v2_load(const double *p) { return (v2d){.d = {p[0], p[1]}}; }
static inline v2d v2_loadm(const int64_t *p) { return (v2d){.i = {p[0], p[1]}}; }
static inline void v2_store(double *p, v2d a) { p[0] = a.d[0], p[1] = a.d[1]; }
static inline v2d v2_splat(double x) { return (v2d){.d = {x, x}}; }
static inline v2d v2_ones(void) { return (v2d){.i = {-1, -1}}; }
static inline v2d v2_add(v2d a, v2d b) { return (v2d){.d = {a.d[0] + b.d[0], a.d[1] + b.d[1]}}; }
static inline v2d v2_sub(v2d a, v2d b) { return (v2d){.d = {a.d[0] - b.d[0], a.d[1] - b.d[1]}}; }
static inline v2d v2_mul(v2d a, v2d b) { return (v2d){.d = {a.d[0] * b.d[0], a.d[1] * b.d[1]}}; }
static inline v2d v2_abs(v2d a) { return (v2d){.d = {fabs(a.d[0]), fabs(a.d[1])}}; }
static inline v2d v2_and(v2d a, v2d b) { return (v2d){.i = {a.i[0] & b.i[0], a.i[1] & b.i[1]}}; }
static inline v2d v2_or(v2d a, v2d b) { return (v2d){.i = {a.i[0] | b.i[0], a.i[1] | b.i[1]}}; }
static inline v2d v2_ge(v2d a, v2d b) { return (v2d){.i = {-(int64_t)(a.d[0] >= b.d[0]), -(int64_t)(a.d[1] >= b.d[1])}}; }
static inline v2d v2_le(v2d a, v2d b) { return (v2d){.i = {-(int64_t)(a.d[0] <= b.d[0]), -(int64_t)(a.d[1] <= b.d[1])}}; }
static inline v2d v2_ne(v2d a, v2d b) { return (v2d){.i = {-(int64_t)(a.d[0] != b.d[0]), -(int64_t)(a.d[1] != b.d[1])}}; }
static inline v2d v2_isub(v2d a, v2d b) { return (v2d){.i = {a.i[0] - b.i[0], a.i[1] - b.i[1]}}; }
static inline int64_t v2_isum(v2d a) { return a.i[0] + a.i[1]; }
static inline bool v2_all(v2d m) { return (m.i[0] & m.i[1]) == -1; }
#endif

#endif
