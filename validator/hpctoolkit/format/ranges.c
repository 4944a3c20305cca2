#include "ranges.h"

#include <stdlib.h>

#include "core/alloc.h"
#include "core/blob.h"

size_t hpctk_window_cap = HV_WINDOW_DEFAULT;

void hpctk_ranges_add(hpctk_ranges *rs, uint64_t start, uint64_t len, uint32_t owner, uint64_t where)
{
	if (rs->alloc_failed) return;
	if (!HV_GROW(rs->v, rs->cap, rs->n + 1, 64)) {
		rs->alloc_failed = true;
		return;
	}
	rs->v[rs->n++] = (hpctk_range){start, len, owner, where};
}

void hpctk_ranges_free(hpctk_ranges *rs)
{
	free(rs->v);
	*rs = (hpctk_ranges){0};
}

static int by_start(const void *x, const void *y)
{
	const hpctk_range *a = x, *b = y;
	if (a->start != b->start) return a->start < b->start ? -1 : 1;
	if (a->owner != b->owner) return a->owner < b->owner ? -1 : 1;
	return 0;
}

void hpctk_ranges_sweep(hpctk_ranges *rs, void (*overlap)(void *arg, const hpctk_range *a, const hpctk_range *b),
			void *arg)
{
	if (rs->n < 2) return;
	qsort(rs->v, rs->n, sizeof *rs->v, by_start);
	const hpctk_range *far = NULL; /* the range reaching furthest so far */
	uint64_t far_end = 0;
	for (size_t i = 0; i < rs->n; i++) {
		const hpctk_range *cur = &rs->v[i];
		if (cur->len == 0) continue;
		/* start + len cannot overflow: ranges were checked to lie in the file */
		uint64_t end = cur->start + cur->len;
		if (far && cur->start < far_end) overlap(arg, far, cur);
		if (!far || end > far_end) {
			far = cur;
			far_end = end;
		}
	}
}
