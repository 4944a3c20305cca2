/* The MPI layer's map frozen (mpi_map_freeze), as an ended rank keeps its
 * channels for the cross-rank stage: every entry is found by get with its
 * value, the walk sees the same keys in the same slot order as before (the
 * cross-rank stage and hpcvet-mpi's slot layout depend on that order), a
 * value changed through get stays changed, and a put or delete afterwards
 * thaws the map into one that behaves as if it had never been frozen. */
#include <stdlib.h>
#include <string.h>

#include "dumpi/mpi/map.h"
#include "tap.h"

typedef struct val {
	uint64_t a, b;
} val;

/* The walk as (slot, key) pairs; returns how many. One check per walk
 * (the first wrong value named), not one per entry. */
static size_t walk(const mpi_map *m, size_t *slots, uint64_t *keys, size_t max)
{
	size_t it = 0, n = 0, bad = 0;
	uint64_t key, first_bad = 0;
	void *v;
	while (n < max && mpi_map_next(m, &it, &key, &v)) {
		slots[n] = it - 1;
		keys[n] = key;
		if (!(((val *)v)->a == key * 3 && ((val *)v)->b == ~key) && !bad++) first_bad = key;
		n++;
	}
	CHECK(bad == 0, "%zu entries walked with their values (%zu wrong, first key %llu)", n, bad,
	      (unsigned long long)first_bad);
	return n;
}

static void fill(mpi_map *m, uint64_t from, uint64_t n)
{
	uint64_t bad = 0, first_bad = 0;
	for (uint64_t k = from; k < from + n; k++) {
		bool fresh;
		val *v = mpi_map_put(m, k * 7919, &fresh);
		if (!(v && fresh) && !bad++) first_bad = k;
		if (v) v->a = k * 7919 * 3, v->b = ~(k * 7919);
	}
	CHECK(bad == 0, "%llu fresh puts (%llu failed, first %llu)", (unsigned long long)n, (unsigned long long)bad,
	      (unsigned long long)first_bad);
}

static void one_size(uint64_t n)
{
	enum { MAX = 4096 };
	static size_t s0[MAX], s1[MAX];
	static uint64_t k0[MAX], k1[MAX];
	mpi_map m, ref;
	mpi_map_init(&m, sizeof(val));
	mpi_map_init(&ref, sizeof(val));
	fill(&m, 0, n);
	fill(&ref, 0, n);
	/* deletions leave the probe runs shifted, as a rank's live map has them */
	for (uint64_t k = 0; k < n; k += 5) mpi_map_del(&m, k * 7919), mpi_map_del(&ref, k * 7919);
	size_t n0 = walk(&m, s0, k0, MAX);
	size_t cap = m.cap, len = m.len;
	CHECK(mpi_map_freeze(&m), "freeze %llu entries", (unsigned long long)n);
	CHECK(m.cap == cap && m.len == len && (n == 0 || m.pos), "frozen: same capacity and length");
	size_t n1 = walk(&m, s1, k1, MAX);
	CHECK(n0 == n1 && memcmp(s0, s1, n0 * sizeof *s0) == 0 && memcmp(k0, k1, n0 * sizeof *k0) == 0,
	      "%llu entries: the same walk frozen", (unsigned long long)n);
	uint64_t bad = 0, first_bad = 0;
	for (uint64_t k = 0; k < n + 10; k++) {
		val *v = mpi_map_get(&m, k * 7919);
		bool present = k < n && k % 5 != 0;
		if (!((v != NULL) == present && (!v || v->a == k * 7919 * 3)) && !bad++) first_bad = k;
	}
	CHECK(bad == 0, "%llu gets on the frozen map (%llu wrong, first %llu)", (unsigned long long)(n + 10),
	      (unsigned long long)bad, (unsigned long long)first_bad);
	CHECK(mpi_map_freeze(&m), "freezing twice is harmless");
	/* a change through get stays */
	if (n > 1) {
		val *v = mpi_map_get(&m, 1 * 7919);
		if (v) v->b = 42;
		val *w = mpi_map_get(&m, 1 * 7919);
		CHECK(w && w->b == 42, "a value changed in a frozen map");
		if (w) w->b = ~(uint64_t)7919;
	}
	/* a put thaws it: then it is the map that was never frozen */
	fill(&m, n + 100, 3);
	fill(&ref, n + 100, 3);
	CHECK(!m.pos && m.cap == ref.cap && m.len == ref.len, "thawed by a put");
	n0 = walk(&m, s0, k0, MAX);
	n1 = walk(&ref, s1, k1, MAX);
	CHECK(n0 == n1 && memcmp(s0, s1, n0 * sizeof *s0) == 0 && memcmp(k0, k1, n0 * sizeof *k0) == 0,
	      "%llu entries: thawed walks as never frozen", (unsigned long long)n);
	CHECK(mpi_map_freeze(&m), "frozen again");
	mpi_map_del(&m, (n + 101) * 7919);
	mpi_map_del(&ref, (n + 101) * 7919);
	CHECK(!m.pos && m.len == ref.len && !mpi_map_get(&m, (n + 101) * 7919), "thawed by a delete");
	mpi_map_free(&m);
	mpi_map_free(&ref);
}

int main(void)
{
	const uint64_t sizes[] = {0, 1, 2, 11, 12, 13, 100, 1000, 3000};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) one_size(sizes[i]);
	/* a map never written: nothing to freeze */
	mpi_map m;
	mpi_map_init(&m, sizeof(val));
	CHECK(mpi_map_freeze(&m) && !m.pos && !mpi_map_get(&m, 5), "an empty map");
	mpi_map_free(&m);
	TAP_DONE();
}
