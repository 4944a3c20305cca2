/* The transpose digest's value hash multiplies 64x64->128 bits. Where the
 * target has no such instruction (wasm32: a library call) the high half is
 * made from four 32-bit products (hpctk_mulhi64_halves); the digests of the
 * web page and of the CLI must agree bit for bit, so the halves are compared
 * here with the 128-bit product on edge values (carries out of every partial
 * sum) and on a few million pseudo-random pairs, and the whole hash with the
 * one the native build uses. */
#include <stdint.h>

#include "hpctoolkit/format/svb.h"
#include "tap.h"

__extension__ typedef unsigned __int128 u128;

static uint64_t mulhi_ref(uint64_t a, uint64_t b)
{
	return (uint64_t)(((u128)a * b) >> 64);
}

static uint64_t hash_ref(uint64_t xkey, uint64_t bits)
{
	uint64_t a = bits ^ 0x5851f42d4c957f2dull;
	return (a * xkey) ^ mulhi_ref(a, xkey);
}

static uint64_t hash_halves(uint64_t xkey, uint64_t bits)
{
	uint64_t a = bits ^ 0x5851f42d4c957f2dull;
	return (a * xkey) ^ hpctk_mulhi64_halves(a, xkey);
}

/* splitmix64: a fixed sequence, so a failure repeats. */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int main(void)
{
	static const uint64_t edge[] = {
		0, 1, 2, 0xffffffffull, 0x100000000ull, 0x100000001ull, 0xfffffffeull, 0x80000000ull,
		0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffff00000000ull, 0x00000000ffffffffull,
		0xfffffffffffffffeull, 0xffffffffffffffffull, 0x8000000080000000ull, 0xffffffff80000000ull,
		HPCTK_HASH_KEY, 0x5851f42d4c957f2dull, 0x0000ffffffffffffull, 0xffff000000000000ull,
	};
	const unsigned ne = sizeof edge / sizeof edge[0];
	unsigned long bad = 0;
	uint64_t fa = 0, fb = 0;
	for (unsigned i = 0; i < ne; i++)
		for (unsigned j = 0; j < ne; j++)
			for (int d = -1; d <= 1; d++) {
				uint64_t a = edge[i] + (uint64_t)(int64_t)d, b = edge[j];
				if (hpctk_mulhi64_halves(a, b) != mulhi_ref(a, b) && !bad++) fa = a, fb = b;
			}
	CHECK(bad == 0, "high half of edge products: %lu differ, first %#llx * %#llx", bad, (unsigned long long)fa,
	      (unsigned long long)fb);

	uint64_t s = 1;
	bad = 0;
	for (unsigned long n = 0; n < 4000000; n++) {
		uint64_t a = next(&s), b = next(&s);
		/* Also words with long runs of ones, where the carries chain. */
		if (n & 1) a |= 0xffffffff00000000ull >> (n % 33);
		if (n & 2) b |= 0x00000000ffffffffull << (n % 33);
		if (hpctk_mulhi64_halves(a, b) != mulhi_ref(a, b) && !bad++) fa = a, fb = b;
	}
	CHECK(bad == 0, "high half of random products: %lu differ, first %#llx * %#llx", bad,
	      (unsigned long long)fa, (unsigned long long)fb);

	/* The hash the build uses (native or halves) against both forms, over
	 * the keys the loops give it: profIndex << 16 | metricId, folded. */
	s = 2;
	bad = 0;
	for (unsigned long n = 0; n < 1000000; n++) {
		uint64_t key = (next(&s) & 0xffffffffffffull) ^ HPCTK_HASH_KEY, bits = next(&s);
		uint64_t want = hash_ref(key, bits);
		if ((hpctk_value_hash_k(key, bits) != want || hash_halves(key, bits) != want) && !bad++)
			fa = key, fb = bits;
	}
	CHECK(bad == 0, "value hash: %lu differ, first key %#llx bits %#llx", bad, (unsigned long long)fa,
	      (unsigned long long)fb);
	CHECK(hpctk_value_hash(3, 0) == hash_ref(3 ^ HPCTK_HASH_KEY, 0), "hpctk_value_hash folds the key constant");
	TAP_DONE();
}
