/* Growing arrays (core/alloc.h: hv_grow_array and its forms). The capacity
 * doubles from its first one and saturates at the largest count whose bytes
 * a size_t holds; a need beyond that, a caller's limit or a failed
 * allocation leaves the array and its capacity as they were, and only the
 * allocation failures are recorded faults.
 *
 * Every build: the counts at the boundaries (SIZE_MAX / size and the
 * doubling's last step), growth keeping the elements, a need the capacity
 * already holds, the zeroed form, the overflow and the limit. Builds with
 * the allocation test hook (the sanitizer build): the allocation itself
 * fails. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tap.h"

typedef struct {
	uint64_t a, b;
} pair;

static void counts(void)
{
	const size_t sz = sizeof(pair), fits = SIZE_MAX / sz;
	CHECK(hv_grow_count(0, 1, sz, 16, SIZE_MAX) == 16, "an empty array gets its first capacity");
	CHECK(hv_grow_count(0, 40, sz, 16, SIZE_MAX) == 40, "a need above the first capacity is met");
	CHECK(hv_grow_count(16, 17, sz, 16, SIZE_MAX) == 32, "a full array doubles");
	CHECK(hv_grow_count(16, 100, sz, 16, SIZE_MAX) == 100, "a need above the double is met");
	CHECK(hv_grow_count(3, 4, sz, 16, SIZE_MAX) == 16, "the first capacity is a floor");
	CHECK(hv_grow_count(5, 6, sz, 0, SIZE_MAX) == 10, "no floor: the double");
	CHECK(hv_grow_count(fits / 2, fits / 2 + 1, sz, 16, SIZE_MAX) == fits / 2 * 2,
	      "the last doubling that fits is made");
	CHECK(hv_grow_count(fits / 2 + 1, fits / 2 + 2, sz, 16, SIZE_MAX) == fits,
	      "a doubling past SIZE_MAX / size saturates at it (%zu)", hv_grow_count(fits / 2 + 1, fits / 2 + 2, sz, 16, SIZE_MAX));
	CHECK(hv_grow_count(fits - 1, fits, sz, 16, SIZE_MAX) == fits, "a need of SIZE_MAX / size elements fits");
	CHECK(hv_grow_count(fits - 1, fits + 1, sz, 16, SIZE_MAX) == 0, "one element more does not");
	CHECK(hv_grow_count(0, SIZE_MAX, sz, 16, SIZE_MAX) == 0, "a need of SIZE_MAX elements does not");
	CHECK(hv_grow_count(SIZE_MAX / 2 + 1, SIZE_MAX, 1, 16, SIZE_MAX) == SIZE_MAX, "bytes: saturated at SIZE_MAX");
	CHECK(hv_grow_count(SIZE_MAX / 48 + 1, SIZE_MAX / 48 + 2, 24, 16, SIZE_MAX) == SIZE_MAX / 24,
	      "size 24: saturated at SIZE_MAX / 24, its bytes below SIZE_MAX");
	CHECK(hv_grow_count(8, 9, sz, 16, 10) == 10, "the limit caps the doubling");
	CHECK(hv_grow_count(0, 1, sz, 16, 10) == 10, "and the first capacity");
	CHECK(hv_grow_count(10, 11, sz, 16, 10) == 0, "a need above the limit is refused");
}

static void growth(void)
{
	pair *p = NULL;
	size_t cap = 0;
	bool ok = true;
	for (size_t i = 0; i < 1000 && ok; i++) {
		ok = HV_GROW(p, cap, i + 1, 16);
		if (ok) p[i] = (pair){i, ~i};
	}
	CHECK(ok && cap == 1024, "1000 elements pushed one by one: capacity %zu (16 doubled)", cap);
	size_t bad = 0;
	for (size_t i = 0; i < 1000; i++) bad += p[i].a != i || p[i].b != ~i;
	CHECK(bad == 0, "every element kept through the growth (%zu differ)", bad);
	pair *before = p;
	unsigned long long allocs = hv_alloc_test_count();
	CHECK(HV_GROW(p, cap, 1024, 16) && p == before && cap == 1024 && hv_alloc_test_count() == allocs,
	      "a need the capacity holds: nothing allocated, nothing changed");
	CHECK(hv_grow_array(&p, &cap, 7, sizeof *p, 16) && p == before && cap == 1024,
	      "the function itself too, with a need below the capacity");
	free(p);

	uint32_t *z = NULL;
	size_t zc = 0;
	CHECK(HV_GROW_ZEROED(z, zc, 3, 4) && zc == 4, "zeroed: the first capacity");
	for (size_t i = 0; i < zc; i++) z[i] = 0xdeadbeef;
	CHECK(HV_GROW_ZEROED(z, zc, 5, 4) && zc == 8, "zeroed: doubled");
	size_t nonzero = 0, kept = 0;
	for (size_t i = 0; i < 4; i++) kept += z[i] == 0xdeadbeef;
	for (size_t i = 4; i < 8; i++) nonzero += z[i] != 0;
	CHECK(kept == 4 && nonzero == 0, "the old elements kept (%zu of 4), the new ones zero (%zu not)", kept, nonzero);
	free(z);
}

/* The array and its capacity after a refused growth, and whether the fault
 * scope recorded it (with how many bytes). */
static bool refused(size_t need, size_t most, bool *fault, size_t *bytes)
{
	pair *p = NULL;
	size_t cap = 0;
	if (!HV_GROW(p, cap, 4, 4)) return false;
	p[3] = (pair){7, 9};
	pair *before = p;
	hv_fault_scope scope;
	hv_fault_scope_enter(&scope);
	bool ok = most ? HV_GROW_UPTO(p, cap, need, 4, most) : HV_GROW(p, cap, need, 4);
	hv_fault_scope_leave(&scope);
	*fault = atomic_load(&scope.failed);
	*bytes = atomic_load(&scope.bytes);
	bool same = !ok && p == before && cap == 4 && p[3].a == 7 && p[3].b == 9;
	free(p);
	return same;
}

static void failures(void)
{
	bool fault;
	size_t bytes;
	CHECK(refused(SIZE_MAX / sizeof(pair) + 1, 0, &fault, &bytes), "a need beyond SIZE_MAX / size: false, the array unchanged");
	CHECK(fault && bytes == SIZE_MAX, "and recorded as a fault of SIZE_MAX bytes (%d, %zu)", fault, bytes);
	CHECK(refused(SIZE_MAX, 0, &fault, &bytes) && fault, "a need of SIZE_MAX elements: the same");
	CHECK(refused(11, 10, &fault, &bytes) && !fault, "a need beyond the caller's limit: false, nothing recorded");
#ifdef HV_ALLOC_TEST_HOOK
	pair *p = NULL;
	size_t cap = 0;
	CHECK(HV_GROW(p, cap, 16, 16) && cap == 16, "a first allocation");
	p[15] = (pair){1, 2};
	pair *before = p;
	hv_fault_scope scope;
	hv_fault_scope_enter(&scope);
	hv_alloc_test_fail_at(1);
	bool ok = HV_GROW(p, cap, 17, 16);
	hv_alloc_test_fail_at(0);
	hv_fault_scope_leave(&scope);
	CHECK(!ok && p == before && cap == 16 && p[15].a == 1 && p[15].b == 2,
	      "a failed allocation: false, the array and its capacity unchanged");
	CHECK(atomic_load(&scope.failed) && atomic_load(&scope.bytes) == 32 * sizeof *p,
	      "and recorded with the bytes asked for (%zu)", (size_t)atomic_load(&scope.bytes));
	hv_fault_scope_enter(&scope);
	hv_alloc_test_fail_at(1);
	uint8_t *z = NULL;
	size_t zc = 0;
	ok = HV_GROW_ZEROED(z, zc, 1, 8);
	hv_alloc_test_fail_at(0);
	hv_fault_scope_leave(&scope);
	CHECK(!ok && !z && zc == 0 && atomic_load(&scope.failed), "the zeroed form: the same");
	ok = HV_GROW(p, cap, 17, 16);
	CHECK(ok && cap == 32 && p[15].a == 1, "the next growth, not failed, succeeds");
	free(p);
#else
	SKIP("a failing allocation: this build has no allocation test hook (the sanitizer build has)");
#endif
}

int main(void)
{
	counts();
	growth();
	failures();
	TAP_DONE();
}
