/* Linear probing with backward-shift deletion: no tombstones, so a map that
 * sees millions of insert/delete pairs (requests) stays as small as the
 * number of live entries. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "map.h"

void mpi_map_init(mpi_map *m, size_t vsize)
{
	memset(m, 0, sizeof *m);
	m->vsize = vsize;
}

void mpi_map_free(mpi_map *m)
{
	free(m->keys);
	free(m->used);
	free(m->vals);
	free(m->pos);
	size_t v = m->vsize;
	memset(m, 0, sizeof *m);
	m->vsize = v;
}

static size_t slot_of(uint64_t key, size_t cap)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ull;
	h ^= h >> 29;
	return (size_t)h & (cap - 1);
}

void *mpi_map_get(const mpi_map *m, uint64_t key)
{
	if (!m->cap) return NULL;
	if (m->pos) {
		for (size_t i = slot_of(key, m->cap); m->pos[i]; i = (i + 1) & (m->cap - 1))
			if (m->keys[m->pos[i] - 1] == key) return m->vals + (size_t)(m->pos[i] - 1) * m->vsize;
		return NULL;
	}
	for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->used[i]) return NULL;
		if (m->keys[i] == key) return m->vals + i * m->vsize;
	}
}

bool mpi_map_freeze(mpi_map *m)
{
	if (m->pos || !m->cap) return true;
	uint32_t *pos = hv_calloc(m->cap, sizeof *pos);
	uint64_t *k = hv_malloc((m->len ? m->len : 1) * sizeof *k);
	unsigned char *v = hv_malloc((m->len ? m->len : 1) * (m->vsize ? m->vsize : 1));
	if (!pos || !k || !v) {
		free(pos), free(k), free(v);
		return false;
	}
	size_t n = 0;
	for (size_t i = 0; i < m->cap && n < m->len; i++) {
		if (!m->used[i]) continue;
		k[n] = m->keys[i];
		memcpy(v + n * m->vsize, m->vals + i * m->vsize, m->vsize);
		pos[i] = (uint32_t)++n;
	}
	free(m->keys), free(m->used), free(m->vals);
	m->keys = k, m->used = NULL, m->vals = v, m->pos = pos;
	return true;
}

/* The slot arrays of a map of `cap` slots: only `used` starts zeroed, as a
 * key or value is read only in a used slot, and each is written when its
 * slot is taken (a channel's slot is 153 bytes, its used byte 1). */
static bool slots_new(mpi_map *m, size_t cap, uint64_t **k, uint8_t **u, unsigned char **v)
{
	size_t vs = m->vsize ? m->vsize : 1;
	bool fits = cap <= SIZE_MAX / vs && cap <= SIZE_MAX / sizeof **k; /* cap may come from input (wire.c) */
	*k = fits ? hv_malloc(cap * sizeof **k) : NULL;
	*u = fits ? hv_calloc(cap, 1) : NULL;
	*v = fits ? hv_malloc(cap * vs) : NULL;
	if (*k && *u && *v) return true;
	if (!fits) hv_alloc_fault(SIZE_MAX);
	free(*k), free(*u), free(*v);
	m->oom = true;
	return false;
}

/* A frozen map made writable again: its entries back in their slots. */
static bool thaw(mpi_map *m)
{
	if (!m->pos) return true;
	uint64_t *k;
	uint8_t *u;
	unsigned char *v;
	if (!slots_new(m, m->cap, &k, &u, &v)) return false;
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->pos[i]) continue;
		size_t e = m->pos[i] - 1;
		u[i] = 1;
		k[i] = m->keys[e];
		memcpy(v + i * m->vsize, m->vals + e * m->vsize, m->vsize);
	}
	free(m->keys), free(m->vals), free(m->pos);
	m->keys = k, m->used = u, m->vals = v, m->pos = NULL;
	return true;
}

static bool grow(mpi_map *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 16;
	uint64_t *k;
	uint8_t *u;
	unsigned char *v;
	if (!slots_new(m, ncap, &k, &u, &v)) return false;
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->used[i]) continue;
		size_t j = slot_of(m->keys[i], ncap);
		while (u[j]) j = (j + 1) & (ncap - 1);
		u[j] = 1;
		k[j] = m->keys[i];
		memcpy(v + j * m->vsize, m->vals + i * m->vsize, m->vsize);
	}
	free(m->keys), free(m->used), free(m->vals);
	m->keys = k, m->used = u, m->vals = v, m->cap = ncap;
	return true;
}

void *mpi_map_put(mpi_map *m, uint64_t key, bool *fresh)
{
	if (fresh) *fresh = false;
	if (m->pos && !thaw(m)) return NULL;
	void *v = mpi_map_get(m, key);
	if (fresh) *fresh = v == NULL;
	if (v) return v;
	if ((m->len + 1) * 4 > m->cap * 3 && !grow(m)) return NULL;
	size_t i = slot_of(key, m->cap);
	while (m->used[i]) i = (i + 1) & (m->cap - 1);
	m->used[i] = 1;
	m->keys[i] = key;
	memset(m->vals + i * m->vsize, 0, m->vsize);
	m->len++;
	return m->vals + i * m->vsize;
}

void mpi_map_del(mpi_map *m, uint64_t key)
{
	if (!m->cap || (m->pos && !thaw(m))) return;
	size_t mask = m->cap - 1, i = slot_of(key, m->cap);
	while (m->used[i] && m->keys[i] != key) i = (i + 1) & mask;
	if (!m->used[i]) return;
	m->used[i] = 0;
	m->len--;
	/* shift later members of the probe run back into the hole */
	for (size_t j = (i + 1) & mask; m->used[j]; j = (j + 1) & mask) {
		size_t home = slot_of(m->keys[j], m->cap);
		bool movable = i <= j ? (home <= i || home > j) : (home <= i && home > j);
		if (!movable) continue;
		m->keys[i] = m->keys[j];
		memcpy(m->vals + i * m->vsize, m->vals + j * m->vsize, m->vsize);
		m->used[i] = 1;
		m->used[j] = 0;
		i = j;
	}
}

bool mpi_map_next(const mpi_map *m, size_t *i, uint64_t *key, void **val)
{
	for (; *i < m->cap; (*i)++) {
		size_t e = *i;
		if (m->pos ? !m->pos[e] : !m->used[e]) continue;
		if (m->pos) e = m->pos[e] - 1;
		*key = m->keys[e];
		*val = m->vals + e * m->vsize;
		(*i)++;
		return true;
	}
	return false;
}

bool mpi_map_shape(mpi_map *m, size_t cap)
{
	mpi_map_free(m);
	if (cap < 16 || (cap & (cap - 1))) return false;
	if (!slots_new(m, cap, &m->keys, &m->used, &m->vals)) {
		m->keys = NULL, m->used = NULL, m->vals = NULL;
		return false;
	}
	m->cap = cap;
	return true;
}

void *mpi_map_place(mpi_map *m, size_t slot, uint64_t key)
{
	if (!thaw(m)) return NULL;
	if (slot >= m->cap || m->used[slot] || (m->len + 1) * 4 > m->cap * 3 || mpi_map_get(m, key)) return NULL;
	m->used[slot] = 1;
	m->keys[slot] = key;
	memset(m->vals + slot * m->vsize, 0, m->vsize);
	m->len++;
	return m->vals + slot * m->vsize;
}
