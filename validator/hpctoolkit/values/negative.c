/* The negative terms of a profile's equations (check.c): rare, so
 * kept aside in a small table, open addressing on (node, slot), of the sums
 * of their magnitudes, which widen an equation's tolerance. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "values.h"

static uint64_t side_hash(uint64_t key) { return (key * 0x9e3779b97f4a7c15ull) >> 20; }

typedef struct side {
	uint64_t **k;
	double **v;      /* vals per entry */
	size_t *n, *cap;
	unsigned nv;
} side;

static double *side_get(hpctk_vcheck *c, side t, uint32_t node, uint32_t k, bool make)
{
	if (make && 2 * (*t.n + 1) > *t.cap) {
		size_t cap = *t.cap ? *t.cap * 2 : 64;
		uint64_t *nk = hv_calloc(cap, sizeof *nk);
		double *nv = hv_calloc(cap * t.nv, sizeof *nv);
		if (!nk || !nv) {
			free(nk);
			free(nv);
			c->oom = c->cur_tainted = true;
			return NULL;
		}
		for (size_t i = 0; i < *t.cap; i++) {
			if (!(*t.k)[i]) continue;
			size_t j = side_hash((*t.k)[i]) & (cap - 1);
			while (nk[j]) j = (j + 1) & (cap - 1);
			nk[j] = (*t.k)[i];
			memcpy(nv + j * t.nv, *t.v + i * t.nv, t.nv * sizeof *nv);
		}
		free(*t.k);
		free(*t.v);
		*t.k = nk;
		*t.v = nv;
		*t.cap = cap;
	}
	if (!*t.n && !make) return NULL;
	uint64_t key = ((uint64_t)node << 16 | k) + 1;
	size_t j = side_hash(key) & (*t.cap - 1);
	while ((*t.k)[j] && (*t.k)[j] != key) j = (j + 1) & (*t.cap - 1);
	if (!(*t.k)[j]) {
		if (!make) return NULL;
		(*t.k)[j] = key;
		memset(*t.v + j * t.nv, 0, t.nv * sizeof **t.v);
		(*t.n)++;
	}
	return *t.v + j * t.nv;
}

static side negs(hpctk_vcheck *c) { return (side){&c->negk, &c->negv, &c->negn, &c->negcap, 1}; }

static void neg_add(hpctk_vcheck *c, uint32_t node, uint32_t k, double a)
{
	double *v = side_get(c, negs(c), node, k, true);
	if (v) *v += a;
}

double hpctk_vneg_get(hpctk_vcheck *c, uint32_t node, uint32_t k)
{
	if (!c->negn) return -1.0;
	const double *v = side_get(c, negs(c), node, k, false);
	return v ? *v : -1.0;
}

/* The magnitudes of a run's negative terms (rare; for the tolerance):
 * its point values into its own slots', its propagating values into its
 * parent's, in the order the run gives them. */
void hpctk_vneg_terms(hpctk_vcheck *c, uint32_t n, uint32_t parent, uint32_t pm, const uint8_t *vals, uint64_t cnt)
{
	for (uint64_t i = 0; i < cnt; i++) {
		const uint8_t *p = vals + 10 * i;
		uint16_t pid = hv_le16(p);
		double v = hv_lef64(p + 2);
		if (pid >= c->vm->npid || !(v < 0)) continue;
		const hpctk_vact a = c->act[pid];
		if (a.type == HPCTK_VA_POINT)
			for (uint32_t j = a.pa; j < a.pb; j++) neg_add(c, n, c->pk[j], -v);
		else if (a.type == HPCTK_VA_DERIVED && (pm >> a.shift & 1))
			neg_add(c, parent, a.k, -v);
	}
}
