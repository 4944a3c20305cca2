/* The value loop's chunk check (svb.c, fast_chunk) eight values
 * at a time with AVX-512, for processors that have it (core/simd.h). It is
 * the loop that runs once per value of both profile.db and cct.db, and
 * one value's checks are independent of the others' except for the key
 * order, which compares each key with its left neighbour (one lane shift).
 *
 * The same answer as the narrow loop, bit for bit: the same verdict, the
 * same last key and the same digest sum (the per-value hash is the same
 * 64x64->128-bit product, its high half made of four 32x32->64-bit ones;
 * a wrapping sum does not depend on the order of its terms).
 * tests/test_hpctk_svb_wide.c compares the two on crafted chunks and
 * tests/hpctk_simd.test.sh on whole databases.
 *
 * A group of eight records (80 or 96 bytes) is read with two masked loads,
 * so nothing past the chunk is touched, and taken apart with one word
 * permute per field (records are 10 or 12 bytes: every field starts on a
 * 2-byte boundary of the group). */
#include "svb.h"

#if HPCTK_SVB_WIDE
#include <immintrin.h>

#define WIDE __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl")))

/* Where each 16-bit word of a lane comes from in the group's 64 words
 * (r0: 0-31, r1: 32-63): lane i's key (the low word or two) and value. */
static const uint16_t prof_key_idx[32] = {0, 0, 0, 0, 5, 0, 0, 0, 10, 0, 0, 0, 15, 0, 0, 0,
					  20, 0, 0, 0, 25, 0, 0, 0, 30, 0, 0, 0, 35, 0, 0, 0};
static const uint16_t prof_bits_idx[32] = {1,  2,  3,  4,  6,  7,  8,  9,  11, 12, 13, 14, 16, 17, 18, 19,
					   21, 22, 23, 24, 26, 27, 28, 29, 31, 32, 33, 34, 36, 37, 38, 39};
static const uint16_t cct_key_idx[32] = {0,  1,  0, 0, 6,  7,  0, 0, 12, 13, 0, 0, 18, 19, 0, 0,
					 24, 25, 0, 0, 30, 31, 0, 0, 36, 37, 0, 0, 42, 43, 0, 0};
static const uint16_t cct_bits_idx[32] = {2,  3,  4,  5,  8,  9,  10, 11, 14, 15, 16, 17, 20, 21, 22, 23,
					  26, 27, 28, 29, 32, 33, 34, 35, 38, 39, 40, 41, 44, 45, 46, 47};

/* The high 64 bits of a * b per lane (unsigned), from the four 32x32-bit
 * products: each partial sum below stays under 2^64. */
static inline WIDE __m512i mulhi_u64(__m512i a, __m512i b)
{
	const __m512i lo32 = _mm512_set1_epi64(0xffffffff);
	__m512i ah = _mm512_srli_epi64(a, 32), bh = _mm512_srli_epi64(b, 32);
	__m512i ll = _mm512_mul_epu32(a, b), lh = _mm512_mul_epu32(a, bh);
	__m512i hl = _mm512_mul_epu32(ah, b), hh = _mm512_mul_epu32(ah, bh);
	__m512i t = _mm512_add_epi64(lh, _mm512_srli_epi64(ll, 32));  /* < 2^64 - 2^32 */
	__m512i u = _mm512_add_epi64(hl, _mm512_and_si512(t, lo32));  /* likewise */
	return _mm512_add_epi64(_mm512_add_epi64(hh, _mm512_srli_epi64(t, 32)), _mm512_srli_epi64(u, 32));
}

/* The running checks of one chunk (as fast_acc in svb.c). */
typedef struct wide_acc {
	__m512i pk;    /* the previous group's keys: lane 7 is the key before this group */
	__m512i h;     /* digest sums per lane */
	__m256i rej;   /* or of the reject-table words read (the low byte is the entry) */
	unsigned bad;  /* lanes out of order, or with a value that is not finite and non-zero */
} wide_acc;

static inline __attribute__((always_inline)) WIDE __m512i group(wide_acc *a, const uint8_t *p, __mmask8 lm,
								__mmask64 m0, __mmask64 m1, const bool cct,
								const bool digest, const uint8_t *reject, const __m512i *kb,
								__m512i xb)
{
	const __m512i ki = _mm512_loadu_si512(cct ? cct_key_idx : prof_key_idx);
	const __m512i bi = _mm512_loadu_si512(cct ? cct_bits_idx : prof_bits_idx);
	const __mmask32 keep = cct ? 0x33333333u : 0x11111111u; /* the key's words of each lane */
	__m512i r0 = _mm512_maskz_loadu_epi8(m0, p), r1 = _mm512_maskz_loadu_epi8(m1, p + 64);
	__m512i keys = _mm512_maskz_permutex2var_epi16(keep, r0, ki, r1);
	__m512i bits = _mm512_permutex2var_epi16(r0, bi, r1);
	/* The lanes that pass, one check after another through the mask
	 * (one move out of the mask registers a group). Strictly increasing:
	 * each key above its left neighbour (signed, as the narrow loop: the
	 * key before a profile.db run is -1). */
	__m512i left = _mm512_alignr_epi64(keys, a->pk, 7);
	__mmask8 good = _mm512_mask_cmpgt_epi64_mask(lm, keys, left);
	/* finite and non-zero: (bits << 1) - 1 below the limit (NaN, the
	 * infinities and +-0.0 are at or above it) */
	__m512i fv = _mm512_sub_epi64(_mm512_slli_epi64(bits, 1), _mm512_set1_epi64(1));
	good = _mm512_mask_cmplt_epu64_mask(good, fv, _mm512_set1_epi64((long long)0xffdfffffffffffffull));
	if (!cct && kb) {
		/* the key's bit in the 1024-bit map, brought to bit 0 by a rotate
		 * (its count is taken mod 64); keys from 1024 on are rejected */
		__m512i word = _mm512_permutex2var_epi64(kb[0], _mm512_srli_epi64(keys, 6), kb[1]);
		good = _mm512_mask_test_epi64_mask(good, _mm512_rorv_epi64(word, keys), _mm512_set1_epi64(1));
		good = _mm512_mask_cmplt_epu64_mask(good, keys, _mm512_set1_epi64(1024));
	} else if (!cct) {
		a->rej = _mm256_or_si256(a->rej, _mm512_mask_i64gather_epi32(_mm256_setzero_si256(), lm, keys, reject, 1));
	}
	a->bad |= (unsigned)(lm ^ good);
	if (digest) {
		__m512i xk = _mm512_xor_si512(xb, cct ? _mm512_slli_epi64(keys, 16) : keys);
		__m512i v = _mm512_xor_si512(bits, _mm512_set1_epi64(0x5851f42d4c957f2dll));
		__m512i hv = _mm512_xor_si512(_mm512_mullo_epi64(v, xk), mulhi_u64(v, xk));
		a->h = _mm512_mask_add_epi64(a->h, lm, a->h, hv);
	}
	a->pk = keys;
	return keys;
}

static inline __attribute__((always_inline)) WIDE bool chunk(const uint8_t *base, uint64_t cnt, const bool cct,
							     const bool digest, const uint8_t *reject, const uint64_t *keybits,
							     uint64_t limit, uint64_t ybase, int64_t *prev, uint64_t *hsum)
{
	const unsigned vs = cct ? 12 : 10;
	const __mmask64 full1 = cct ? 0xffffffffull : 0xffffull; /* bytes 64.. of a whole group */
	const __m512i xb = _mm512_set1_epi64((long long)(ybase ^ HPCTK_HASH_KEY));
	__m512i kbv[2];
	const __m512i *kb = NULL;
	if (!cct && keybits) {
		kbv[0] = _mm512_loadu_si512(keybits);
		kbv[1] = _mm512_loadu_si512(keybits + 8);
		kb = kbv;
	}
	wide_acc a = {.pk = _mm512_set1_epi64(*prev), .h = _mm512_setzero_si512(), .rej = _mm256_setzero_si256(), .bad = 0};
	const uint8_t *p = base;
	uint64_t i = 0;
	__m512i keys = a.pk;
	for (; cnt - i >= 8; i += 8, p += 8 * vs) keys = group(&a, p, 0xff, ~0ull, full1, cct, digest, reject, kb, xb);
	unsigned last_lane = 7;
	if (i < cnt) {
		unsigned n = (unsigned)(cnt - i), nb = n * vs; /* 1-7 records: 10-84 bytes */
		__mmask64 m0 = nb >= 64 ? ~0ull : (1ull << nb) - 1, m1 = nb > 64 ? (1ull << (nb - 64)) - 1 : 0;
		keys = group(&a, p, (__mmask8)((1u << n) - 1), m0, m1, cct, digest, reject, kb, xb);
		last_lane = n - 1;
	}
	(void)keys;
	(void)last_lane;
	/* the last key, from memory: a load, not a lane extraction */
	int64_t last = *prev;
	if (cnt) {
		const uint8_t *lp = base + (cnt - 1) * vs;
		last = cct ? (int64_t)((uint32_t)lp[0] | (uint32_t)lp[1] << 8 | (uint32_t)lp[2] << 16 | (uint32_t)lp[3] << 24)
			   : (int64_t)((uint32_t)lp[0] | (uint32_t)lp[1] << 8);
	}
	*prev = last;
	/* the lanes' sum in unsigned arithmetic: the hash sums wrap by design,
	 * and GCC's _mm512_reduce_add_epi64 adds them as signed */
	uint64_t lanes[8], hs = 0;
	_mm512_storeu_si512((void *)lanes, a.h);
	for (int l = 0; l < 8; l++) hs += lanes[l];
	*hsum = hs;
	bool keys_ok = cct ? (uint64_t)last < limit : _mm256_test_epi32_mask(a.rej, _mm256_set1_epi32(0xff)) == 0;
	return a.bad == 0 && keys_ok;
}

WIDE bool hpctk_svb_fast_chunk_avx512(const uint8_t *base, uint64_t cnt, bool cct, bool digest, const uint8_t *reject,
				       const uint64_t *keybits, uint64_t limit, uint64_t ybase, int64_t *prev,
				       uint64_t *hsum)
{
	if (cct) return digest ? chunk(base, cnt, true, true, reject, NULL, limit, ybase, prev, hsum)
			       : chunk(base, cnt, true, false, reject, NULL, limit, ybase, prev, hsum);
	return digest ? chunk(base, cnt, false, true, reject, keybits, limit, ybase, prev, hsum)
		      : chunk(base, cnt, false, false, reject, keybits, limit, ybase, prev, hsum);
}
#endif
