/* The event model's map from 64-bit keys to 32-bit values (task ids, task
 * types, numbered bodies): open addressing with linear probing, a key and
 * its value in one slot so a lookup touches one cache line, grown at half
 * load. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "model.h"

static size_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k;
}

bool mmap64_get(const mmap64 *m, uint64_t key, uint32_t *val)
{
	if (!m->cap) return false;
	for (size_t i = mix(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		const mslot *s = &m->v[i];
		if (s->val == UINT32_MAX) return false;
		if (s->key == key) {
			*val = s->val;
			return true;
		}
	}
}

bool mmap64_put(mmap64 *m, uint64_t key, uint32_t val)
{
	if ((m->n + 1) * 2 > m->cap) {
		size_t nc = m->cap ? m->cap * 2 : 64;
		mslot *nv = hv_malloc(nc * sizeof *nv);
		if (!nv) return false;
		for (size_t i = 0; i < nc; i++) nv[i].val = UINT32_MAX;
		for (size_t i = 0; i < m->cap; i++) {
			if (m->v[i].val == UINT32_MAX) continue;
			size_t j = mix(m->v[i].key) & (nc - 1);
			while (nv[j].val != UINT32_MAX) j = (j + 1) & (nc - 1);
			nv[j] = m->v[i];
		}
		free(m->v);
		m->v = nv;
		m->cap = nc;
	}
	size_t i = mix(key) & (m->cap - 1);
	while (m->v[i].val != UINT32_MAX && m->v[i].key != key) i = (i + 1) & (m->cap - 1);
	if (m->v[i].val == UINT32_MAX) m->n++;
	m->v[i] = (mslot){key, val};
	return true;
}

void mmap64_free(mmap64 *m)
{
	free(m->v);
	memset(m, 0, sizeof *m);
}
