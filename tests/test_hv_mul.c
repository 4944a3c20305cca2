/* Overflow-checked lengths: where the compiler's overflow builtin would be
 * a 128-bit multiply (wasm32: compiler-rt's __multi3), hv_mul_overflows
 * takes 32-bit halves instead (hv_mul_overflows_halves, core/hv_int.h). Its product and
 * its verdict are compared here with the builtin's on edge factors (each
 * side of 2^32 and 2^64) and on a few million pseudo-random pairs of every
 * width. */
#include <stdint.h>

#include "core/hv_int.h"
#include "tap.h"

/* splitmix64: a fixed sequence, so a failure repeats. */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned long bad;
static uint64_t fa, fb;

static void one(uint64_t a, uint64_t b)
{
	uint64_t r1, r2;
	bool o1 = __builtin_mul_overflow(a, b, &r1), o2 = hv_mul_overflows_halves(a, b, &r2);
	if ((o1 != o2 || r1 != r2) && !bad++) fa = a, fb = b;
}

int main(void)
{
	static const uint64_t edge[] = {
		0, 1, 2, 3, 10, 12, 0xffffull, 0x10000ull, 0xffffffffull, 0x100000000ull, 0x100000001ull,
		0x1ffffffffull, 0x80000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffff00000000ull,
		0xfffffffffffffffeull, 0xffffffffffffffffull, 0x5555555555555555ull, 0xaaaaaaaaaaaaaaabull,
		0x1999999999999999ull, 0x199999999999999aull, 0x0000ffffffffffffull, 0x0001000000000000ull,
	};
	const unsigned ne = sizeof edge / sizeof edge[0];
	for (unsigned i = 0; i < ne; i++)
		for (unsigned j = 0; j < ne; j++)
			for (int d = -1; d <= 1; d++) one(edge[i] + (uint64_t)(int64_t)d, edge[j]);
	CHECK(bad == 0, "edge products: %lu differ from the builtin, first %#llx * %#llx", bad,
	      (unsigned long long)fa, (unsigned long long)fb);
	/* factors of every width: the products straddle 2^64 */
	uint64_t s = 1;
	unsigned long over = 0;
	for (int i = 0; i < 4000000; i++) {
		uint64_t a = next(&s) >> (next(&s) % 64), b = next(&s) >> (next(&s) % 64), r;
		over += __builtin_mul_overflow(a, b, &r);
		one(a, b);
	}
	CHECK(bad == 0, "random products: %lu differ from the builtin, first %#llx * %#llx", bad,
	      (unsigned long long)fa, (unsigned long long)fb);
	CHECK(over > 100000 && over < 3900000, "the random pairs overflow sometimes, not always (%lu)", over);
	TAP_DONE();
}
