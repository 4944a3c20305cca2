/* The value loop's chunk check (hpctoolkit/format/svb.h) in its two widths
 * against a plain one-value-at-a-time statement of the same checks, on
 * crafted chunks of both layouts: every length from 0 to 40 (whole groups
 * of eight and every remainder), keys out of order at every position,
 * values NaN, infinite and +-0.0, keys the table rejects (as a 1024-bit
 * map and through the table itself), cct.db keys at the limit. Each chunk
 * ends on the last readable byte before an inaccessible page, so a read
 * past the chunk would be a crash, not a silent pass. The wide check runs
 * where the processor has AVX-512 (core/simd.h); the narrow one always. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/simd.h"
#include "hpctoolkit/format/svb.h"
#include "tap.h"

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint64_t rnd(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return rng;
}

/* What the checks mean, one value at a time. */
static bool reference(const uint8_t *base, uint64_t cnt, bool cct, bool digest, const uint8_t *reject, uint64_t limit,
		      uint64_t ybase, int64_t *prev, uint64_t *hsum)
{
	bool ok = true;
	int64_t pv = *prev;
	uint64_t h = 0;
	for (uint64_t i = 0; i < cnt; i++) {
		const uint8_t *v = base + i * (cct ? 12 : 10);
		uint32_t key = 0;
		uint64_t bits = 0;
		memcpy(&key, v, cct ? 4 : 2);
		memcpy(&bits, v + (cct ? 4 : 2), 8);
		double x;
		memcpy(&x, &bits, 8);
		if ((int64_t)key <= pv) ok = false;
		if (!isfinite(x) || x == 0.0) ok = false;
		if (!cct && reject[key]) ok = false;
		if (digest) h += hpctk_value_hash(cct ? ybase ^ (uint64_t)key << 16 : ybase ^ key, bits);
		pv = key;
	}
	if (cct && cnt && (uint64_t)pv >= limit) ok = false;
	*prev = pv;
	*hsum = h;
	return ok;
}

typedef bool chunk_fn(const uint8_t *, uint64_t, bool, bool, const uint8_t *, const uint64_t *, uint64_t, uint64_t,
		      int64_t *, uint64_t *);

static bool narrow(const uint8_t *b, uint64_t n, bool cct, bool dg, const uint8_t *rej, const uint64_t *kb, uint64_t lim,
		   uint64_t yb, int64_t *pv, uint64_t *h)
{
	(void)kb;
	return hpctk_svb_fast_chunk_narrow(b, n, cct, dg, rej, lim, yb, pv, h);
}

#if HPCTK_SVB_WIDE
static bool wide(const uint8_t *b, uint64_t n, bool cct, bool dg, const uint8_t *rej, const uint64_t *kb, uint64_t lim,
		 uint64_t yb, int64_t *pv, uint64_t *h)
{
	return hpctk_svb_fast_chunk_avx512(b, n, cct, dg, rej, kb, lim, yb, pv, h);
}
#endif

static double value(void)
{
	double x = (double)(rnd() % 1000000 + 1) / 7.0;
	return rnd() % 4 ? x : -x;
}

/* A chunk of n records ending at `end`, keys increasing from above *start. */
static uint8_t *fill(uint8_t *end, uint64_t n, bool cct, uint32_t first, uint32_t step_max)
{
	unsigned vs = cct ? 12 : 10;
	uint8_t *base = end - n * vs;
	uint32_t key = first;
	for (uint64_t i = 0; i < n; i++) {
		double x = value();
		memcpy(base + i * vs, &key, cct ? 4 : 2);
		memcpy(base + i * vs + (cct ? 4 : 2), &x, 8);
		key += 1 + (uint32_t)(rnd() % step_max);
	}
	return base;
}

static void set_value(uint8_t *base, uint64_t i, bool cct, double x)
{
	memcpy(base + i * (cct ? 12 : 10) + (cct ? 4 : 2), &x, 8);
}

static void set_key(uint8_t *base, uint64_t i, bool cct, uint32_t key)
{
	memcpy(base + i * (cct ? 12 : 10), &key, cct ? 4 : 2);
}

static uint32_t get_key(const uint8_t *base, uint64_t i, bool cct)
{
	uint32_t key = 0;
	memcpy(&key, base + i * (cct ? 12 : 10), cct ? 4 : 2);
	return key;
}

static unsigned mismatches;

static void compare(const char *what, chunk_fn *fn, const uint8_t *base, uint64_t n, bool cct, const uint8_t *reject,
		    const uint64_t *kb, uint64_t limit, int64_t prev0, bool *verdict_seen)
{
	for (int dg = 0; dg < 2; dg++) {
		uint64_t yb = cct ? rnd() % 65536 : (rnd() % 1000) << 16;
		int64_t pr = prev0, pf = prev0;
		uint64_t hr = 0, hf = 0;
		bool r = reference(base, n, cct, dg, reject, limit, yb, &pr, &hr);
		bool f = fn(base, n, cct, dg, reject, kb, limit, yb, &pf, &hf);
		verdict_seen[r] = true;
		if (r != f || pr != pf || hr != hf) {
			if (mismatches++ < 10)
				printf("# %s: %s n=%llu digest=%d: verdict %d/%d last key %lld/%lld sum %llx/%llx\n", what,
				       cct ? "cct" : "prof", (unsigned long long)n, dg, r, f, (long long)pr, (long long)pf,
				       (unsigned long long)hr, (unsigned long long)hf);
		}
	}
}

/* Every case for one width and layout. */
static void run(const char *what, chunk_fn *fn, uint8_t *end, bool cct, const uint8_t *reject, const uint64_t *kb,
		uint32_t key_span)
{
	unsigned before = mismatches;
	bool seen[2] = {false, false};
	for (uint64_t n = 0; n <= 40; n++) {
		for (int round = 0; round < 24; round++) {
			int64_t prev = cct ? 0 : -1;
			uint32_t step = key_span / (uint32_t)(n + 1) ? key_span / (uint32_t)(n + 1) : 1;
			uint8_t *base = fill(end, n, cct, cct ? 1 : (uint32_t)(rnd() % 4), step);
			uint64_t limit = n ? get_key(base, n - 1, cct) + 1 - (rnd() % 3 == 0) : 1 + rnd() % 5;
			if (round == 1 && n) prev = get_key(base, 0, cct); /* the key before equals the first */
			if (round == 2 && n) prev = get_key(base, 0, cct) - 1;
			uint64_t at = n ? rnd() % n : 0;
			if (round == 3 && n > 1 && at) set_key(base, at, cct, get_key(base, at - 1, cct)); /* repeated */
			if (round == 4 && n > 1 && at) set_key(base, at, cct, get_key(base, at - 1, cct) - 1 + (at == 1 && !cct));
			if (round == 5 && n) set_value(base, at, cct, NAN);
			if (round == 6 && n) set_value(base, at, cct, -INFINITY);
			if (round == 7 && n) set_value(base, at, cct, 0.0);
			if (round == 8 && n) set_value(base, at, cct, -0.0);
			if (round == 9 && n) set_value(base, at, cct, 5e-324); /* the smallest subnormal: allowed */
			if (round == 10 && n) set_value(base, at, cct, -1.7976931348623157e308);
			if (round == 11 && n && cct) set_key(base, 0, cct, 0); /* the summary profile */
			if (round == 12 && n) set_key(base, n - 1, cct, 65535); /* the top key (rejected or not) */
			/* just past the 1024-bit map, where a map index would wrap
			 * to an allowed key (0 and 64 are allowed in `small`) */
			if (round == 13 && n) set_key(base, n - 1, cct, 1024);
			if (round == 14 && n) set_key(base, n - 1, cct, 1088);
			compare(what, fn, base, n, cct, reject, kb, limit, prev, seen);
		}
	}
	CHECK(mismatches == before, "%s (%s): %u chunks differ from the reference", what, cct ? "cct.db" : "profile.db",
	      mismatches - before);
	CHECK(seen[0] && seen[1], "%s (%s): both verdicts exercised", what, cct ? "cct.db" : "profile.db");
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *map = mmap(NULL, (size_t)page * 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || mprotect(map + 2 * page, (size_t)page, PROT_NONE) != 0) return 2;
	uint8_t *end = map + 2 * page; /* the last readable byte is end[-1] */

	/* two tables: metric ids below 1024 with holes (the 1024-bit map),
	 * and one that allows ids above 1024 too (the table itself) */
	static uint8_t small[65536 + HPCTK_REJECT_PAD], large[65536 + HPCTK_REJECT_PAD];
	memset(small, 1, 65536);
	memset(large, 1, 65536);
	for (uint32_t k = 0; k < 900; k++) small[k] = k % 13 == 5;
	for (uint32_t k = 0; k < 65536; k += 1 + k % 3) large[k] = 0;
	uint64_t kb_small[16], kb_large[16];
	CHECK(hpctk_svb_keybits(small, kb_small), "ids below 1024 have a bit map");
	CHECK(!hpctk_svb_keybits(large, kb_large), "ids from 1024 on have none");
	CHECK((kb_small[0] >> 5 & 1) == 0 && (kb_small[0] >> 6 & 1) == 1 && kb_small[15] == 0,
	      "bit k is set where the table allows k");

	run("narrow, map table", narrow, end, false, small, NULL, 1000);
	run("narrow, big table", narrow, end, false, large, NULL, 65535);
	run("narrow", narrow, end, true, NULL, NULL, 5000);
#if HPCTK_SVB_WIDE
	if (hv_simd_avx512()) {
		run("wide, bit map", wide, end, false, small, kb_small, 1000);
		run("wide, gather", wide, end, false, small, NULL, 1000);
		run("wide, big table", wide, end, false, large, NULL, 65535);
		run("wide", wide, end, true, NULL, NULL, 5000);
	} else {
		printf("# no AVX-512 here: the wide check is not run\n");
	}
#endif
	munmap(map, (size_t)page * 3);
	TAP_DONE();
}
