/* The transpose digest's value hash (hpctoolkit/format/svb.h): a sum of one
 * hash per value, compared between profile.db and cct.db within one run.
 * The native build multiplies 64x64->128 bits; targets without that
 * instruction (wasm32, the web page) use the portable form, two 64-bit
 * products. Both are checked here for what the digest relies on: the
 * native one against the 128-bit product it is written as, and each form
 * for changing with every bit of the value and of the key, and for
 * telling a value moved to another key (a transposition) from the
 * original. */
#include <stdint.h>

#include "hpctoolkit/format/svb.h"
#include "tap.h"

__extension__ typedef unsigned __int128 u128;

static uint64_t hash_ref(uint64_t xkey, uint64_t bits)
{
	uint64_t a = bits ^ 0x5851f42d4c957f2dull;
	return (a * xkey) ^ (uint64_t)(((u128)a * xkey) >> 64);
}

/* splitmix64: a fixed sequence, so a failure repeats. */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

typedef uint64_t (*hash_fn)(uint64_t xkey, uint64_t bits);

/* The keys the loops give the hash: profIndex << 16 | metricId, folded. */
static uint64_t a_key(uint64_t *s) { return (next(s) & 0xffffffffffffull) ^ HPCTK_HASH_KEY; }

static void properties(const char *name, hash_fn h)
{
	uint64_t s = 7, fk = 0, fb = 0;
	unsigned long bad = 0;
	/* every one-bit change of the value, and of the key, changes the hash */
	for (unsigned n = 0; n < 20000; n++) {
		uint64_t k = a_key(&s), b = next(&s), h0 = h(k, b);
		for (int i = 0; i < 64; i++)
			if (h(k, b ^ 1ull << i) == h0 && !bad++) fk = k, fb = b;
		for (int i = 0; i < 48; i++)
			if (h(k ^ 1ull << i, b) == h0 && !bad++) fk = k, fb = b;
	}
	CHECK(bad == 0, "%s: %lu one-bit changes keep the hash, first key %#llx bits %#llx", name, bad,
	      (unsigned long long)fk, (unsigned long long)fb);
	/* two values swapped between two keys change the digest (a sum that
	 * is a function of the key plus one of the value would not) */
	bad = 0;
	for (unsigned n = 0; n < 1000000; n++) {
		uint64_t k1 = a_key(&s), k2 = a_key(&s), v1 = next(&s), v2 = n & 1 ? v1 ^ 1ull << (n % 64) : next(&s);
		if (k1 == k2 || v1 == v2) continue;
		if (h(k1, v1) + h(k2, v2) == h(k1, v2) + h(k2, v1) && !bad++) fk = k1, fb = v1;
	}
	CHECK(bad == 0, "%s: %lu transpositions keep the digest, first key %#llx bits %#llx", name, bad,
	      (unsigned long long)fk, (unsigned long long)fb);
}

int main(void)
{
	/* the build's form: the native multiply is the 128-bit product's */
	uint64_t s = 2, fk = 0, fb = 0;
	unsigned long bad = 0;
	for (unsigned long n = 0; n < 1000000; n++) {
		uint64_t key = a_key(&s), bits = next(&s);
		if (hpctk_value_hash_k(key, bits) != hash_ref(key, bits) && !bad++) fk = key, fb = bits;
	}
	CHECK(bad == 0, "value hash: %lu differ from the 128-bit product, first key %#llx bits %#llx", bad,
	      (unsigned long long)fk, (unsigned long long)fb);
	CHECK(hpctk_value_hash(3, 0) == hash_ref(3 ^ HPCTK_HASH_KEY, 0), "hpctk_value_hash folds the key constant");
	properties("native", hash_ref);
	properties("portable", hpctk_value_hash_portable);
	/* the portable form: the value whose product is 0 still hashes
	 * differently by key (the native one hashes it to 0 under every key) */
	bad = 0;
	for (uint64_t k = 1; k < 65536; k++)
		if (hpctk_value_hash_portable(k ^ HPCTK_HASH_KEY, 0x5851f42d4c957f2dull) ==
		    hpctk_value_hash_portable(HPCTK_HASH_KEY, 0x5851f42d4c957f2dull))
			bad++;
	CHECK(bad == 0, "portable: %lu keys hash the zero product as key 0 does", bad);
	TAP_DONE();
}
