/* Bounded integer decoding and overflow-checked arithmetic.
 *
 * Every multi-byte field of every format goes through these helpers so that
 * byte order and bounds are handled in exactly one place. None of them reads
 * memory the caller has not proven to exist: callers obtain a pointer from a
 * window (blob.h) that already covers the bytes. */
#ifndef HV_INT_H
#define HV_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline uint16_t hv_le16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t hv_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t hv_le64(const uint8_t *p) { return (uint64_t)hv_le32(p) | ((uint64_t)hv_le32(p + 4) << 32); }
/* Big-endian: one load and a byte swap where the host is little-endian
 * (the compilers do not always fuse the byte-by-byte form, hv_be64's least:
 * the DUMPI record walk reads most fields through these). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint16_t hv_be16(const uint8_t *p)
{
	uint16_t v;
	__builtin_memcpy(&v, p, sizeof v);
	return __builtin_bswap16(v);
}
static inline uint32_t hv_be32(const uint8_t *p)
{
	uint32_t v;
	__builtin_memcpy(&v, p, sizeof v);
	return __builtin_bswap32(v);
}
static inline uint64_t hv_be64(const uint8_t *p)
{
	uint64_t v;
	__builtin_memcpy(&v, p, sizeof v);
	return __builtin_bswap64(v);
}
#else
static inline uint16_t hv_be16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t hv_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}
static inline uint64_t hv_be64(const uint8_t *p) { return ((uint64_t)hv_be32(p) << 32) | (uint64_t)hv_be32(p + 4); }
#endif

static inline double hv_lef64(const uint8_t *p)
{
	uint64_t u = hv_le64(p);
	double d;
	__builtin_memcpy(&d, &u, sizeof d);
	return d;
}

/* Writers, used by the golden generator and the fuzz mutator. */
static inline void hv_put_le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void hv_put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void hv_put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void hv_put_be16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static inline void hv_put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (24 - 8 * i));
}
static inline void hv_put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (56 - 8 * i));
}
static inline void hv_put_lef64(uint8_t *p, double d)
{
	uint64_t u;
	__builtin_memcpy(&u, &d, sizeof u);
	hv_put_le64(p, u);
}

/* Return true on overflow, as the builtins do; *r is always written. */
static inline bool hv_add_overflows(uint64_t a, uint64_t b, uint64_t *r) { return __builtin_add_overflow(a, b, r); }
/* The 64x64-bit multiply's overflow from 32-bit halves, where the builtin
 * is a 128-bit multiply (wasm32: a call to compiler-rt's __multi3; a
 * division check is turned back into that call by the optimiser). Factors
 * below 2^32 cannot overflow, which is nearly every length a file gives.
 * The same product and verdict as the builtin (tests/test_hv_mul.c). */
static inline bool hv_mul_overflows_halves(uint64_t a, uint64_t b, uint64_t *r)
{
	*r = a * b;
	uint64_t ah = a >> 32, bh = b >> 32;
	if ((ah | bh) == 0) return false;
	if (ah && bh) return true;
	/* one factor below 2^32: (hi * lo32) << 32 + lo32 * lo32 */
	uint64_t cross = ah ? ah * (uint32_t)b : bh * (uint32_t)a;
	uint64_t low = (uint64_t)(uint32_t)a * (uint32_t)b;
	return (cross >> 32) != 0 || low + (cross << 32) < low;
}
#if defined(__wasm__)
static inline bool hv_mul_overflows(uint64_t a, uint64_t b, uint64_t *r) { return hv_mul_overflows_halves(a, b, r); }
#else
static inline bool hv_mul_overflows(uint64_t a, uint64_t b, uint64_t *r) { return __builtin_mul_overflow(a, b, r); }
#endif

/* [off, off+len) lies inside [0, size). Never overflows. */
static inline bool hv_range_in(uint64_t off, uint64_t len, uint64_t size) { return off <= size && len <= size - off; }

/* [off, off+len) lies inside [lo, lo+lolen). Never overflows. */
static inline bool hv_range_within(uint64_t off, uint64_t len, uint64_t lo, uint64_t lolen)
{
	return off >= lo && hv_range_in(off - lo, len, lolen);
}

/* Two non-empty ranges share at least one byte. Never overflows. */
static inline bool hv_ranges_overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	if (alen == 0 || blen == 0) return false;
	return a < b ? b - a < alen : a - b < blen;
}

static inline bool hv_aligned(uint64_t v, uint64_t a) { return (v & (a - 1)) == 0; }

/* count * stride with overflow reported as UINT64_MAX (never a valid length). */
static inline uint64_t hv_mul_sat(uint64_t a, uint64_t b)
{
	uint64_t r;
	return hv_mul_overflows(a, b, &r) ? UINT64_MAX : r;
}
static inline uint64_t hv_add_sat(uint64_t a, uint64_t b)
{
	uint64_t r;
	return hv_add_overflows(a, b, &r) ? UINT64_MAX : r;
}

#endif
