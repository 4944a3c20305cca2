/* Byte ranges of value blocks and trace lines, and finding overlaps among
 * them by sorting and one sweep (never pairwise: a profile.db can hold
 * 100,000 profiles). Shared by the profile.db, cct.db and trace.db checks. */
#ifndef HV_HPCTK_RANGES_H
#define HV_HPCTK_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Size of every window the profile.db, cct.db and trace.db checks use. A
 * variable only so that tests can shrink it and prove the streaming paths
 * give the same results as whole-file reads; must be at least 0x30. */
extern size_t hpctk_window_cap;

typedef struct hpctk_range {
	uint64_t start, len;
	uint32_t owner; /* profile / context / trace index */
	uint64_t where; /* file offset of the structure that points here */
} hpctk_range;

/* A growable list whose length is bounded by the caller (one entry per
 * structure that exists in the file). alloc_failed is sticky. */
typedef struct hpctk_ranges {
	hpctk_range *v;
	size_t n, cap;
	bool alloc_failed;
} hpctk_ranges;

void hpctk_ranges_add(hpctk_ranges *rs, uint64_t start, uint64_t len, uint32_t owner, uint64_t where);
void hpctk_ranges_free(hpctk_ranges *rs);

/* Sort by start and call `overlap(arg, a, b)` for every range `b` that
 * starts inside an earlier range `a` (the one reaching furthest so far).
 * Empty ranges never overlap. Each overlapping range is reported once. */
void hpctk_ranges_sweep(hpctk_ranges *rs, void (*overlap)(void *arg, const hpctk_range *a, const hpctk_range *b),
			void *arg);

#endif
