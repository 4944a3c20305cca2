/* meta.db's ctxIds: their uniqueness (metadb.ctx.ctxId-unique) and the set
 * the cross-file checks ask about.
 *
 * A meta.db may hold tens of millions of contexts, so the ids are not
 * collected one record per context during the walk: the walk marks where
 * each context starts (md_ctx_starts) and the ids are read back from the
 * file here. For dense ids (every writer numbers contexts from 1 up) one
 * bitmap both finds repeats and becomes the summary's set; only sparse ids
 * or a file that repeats an id pay for a sorted (offset, id) vector, which
 * is what names the first holder of each repeated id. */
#include <stdlib.h>

#include "core/alloc.h"
#include "core/bitmap.h"
#include "internal.h"

/* The ids are dense enough for a bitmap when it costs at most about 32
 * bytes per id: never more than the contexts themselves occupy in the
 * file (each is at least 0x18 bytes plus its parent's children array). */
static bool dense(uint32_t max, size_t n) { return (uint64_t)max / 8 <= 32 * (uint64_t)n + 8192; }

/* The file offsets of the ctxId fields, entry points first, then contexts
 * in file order. */
typedef struct id_cursor {
	const md_ctx_starts *s;
	unsigned e;     /* next entry point */
	uint64_t w;     /* current word of s->bits */
	uint64_t word;  /* its bits not yet visited */
} id_cursor;

static id_cursor cursor(const md_ctx_starts *s) { return (id_cursor){s, 0, 0, s->ngran ? s->bits[0] : 0}; }

static bool next_field(id_cursor *c, uint64_t *field)
{
	const md_ctx_starts *s = c->s;
	if (c->e < s->ent_n) {
		*field = s->ent_p + (uint64_t)c->e++ * s->ent_stride + 0x10;
		return true;
	}
	uint64_t nwords = (s->ngran + 63) / 64;
	while (c->word == 0) {
		if (++c->w >= nwords) return false;
		c->word = s->bits[c->w];
	}
	uint64_t g = c->w * 64 + (uint64_t)__builtin_ctzll(c->word);
	c->word &= c->word - 1;
	/* The one 8-aligned offset in the granule (the section start itself
	 * need not be 8-aligned). */
	*field = ((s->lo + 8 * g + 7) & ~(uint64_t)7) + 0x10;
	return true;
}


/* Every id with where it was read, for the sorted report (and the sorted
 * set when the ids are sparse). */
static bool collect(md_state *m, const md_ctx_starts *s, size_t n, md_idvec *v)
{
	v->v = hv_malloc((n ? n : 1) * sizeof *v->v);
	if (!v->v) return false;
	v->cap = n;
	id_cursor c = cursor(s);
	uint64_t field;
	while (v->n < n && next_field(&c, &field)) v->v[v->n++] = (md_idref){.off = field, .id = md_u32(m, field)};
	return true;
}

void md_ctxids_check(md_state *m, const md_ctx_starts *s)
{
	hpctk_idset *set = &m->ctx_ids;
	hpctk_idset_free(set);
	size_t n = s->ent_n;
	for (uint64_t w = 0; w < (s->ngran + 63) / 64; w++) n += (size_t)__builtin_popcountll(s->bits[w]);
	if (n == 0) return;
	id_cursor c = cursor(s);
	uint64_t field;
	uint32_t max = 0;
	while (next_field(&c, &field)) {
		uint32_t id = md_u32(m, field);
		if (id > max) max = id;
	}
	set->n = n;
	set->max = max;
	bool repeats = true; /* until the bitmap says otherwise */
	if (dense(max, n)) {
		set->map = hv_calloc((size_t)max / 8 + 1, 1);
		if (!set->map) goto oom;
		repeats = false;
		c = cursor(s);
		while (next_field(&c, &field)) {
			uint32_t id = md_u32(m, field);
			repeats |= hv_bit_get(set->map, id);
			hv_bit_set(set->map, id);
		}
		hv_bit_set(set->map, 0); /* the root (after the test: a listed 0 is an id like any other) */
	}
	if (!repeats) {
		m->r->evaluated[HV_R_METADB_CTX_CTXID_UNIQUE] += n; /* one evaluation per id, all passing */
		return;
	}
	md_idvec v = {0};
	if (!collect(m, s, n, &v)) goto oom;
	md_idvec_report_repeats(m, &v, HV_R_METADB_CTX_CTXID_UNIQUE, "meta.db/Context/ctx", "ctxId", 4, "ctxId");
	if (!set->map) {
		/* Sparse: the set is the sorted ids without their repeats (reusing
		 * the vector's memory would save little; it is freed next). */
		set->sorted = hv_malloc(n * sizeof *set->sorted);
		if (!set->sorted) {
			md_idvec_free(&v);
			goto oom;
		}
	}
	size_t k = 0; /* distinct ids listed (v is sorted by id) */
	for (size_t i = 0; i < v.n; i++) {
		if (i > 0 && v.v[i].id == v.v[i - 1].id) continue;
		if (set->sorted) set->sorted[k] = v.v[i].id;
		k++;
	}
	set->n = k;
	md_idvec_free(&v);
	return;
oom:
	hpctk_idset_free(set);
	m->oom = true;
}

bool hpctk_idset_has(const hpctk_idset *s, uint32_t id)
{
	if (id == 0) return true;
	if (s->map) return id <= s->max && hv_bit_get(s->map, id);
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->sorted[mid] == id) return true;
		if (s->sorted[mid] < id) lo = mid + 1;
		else hi = mid;
	}
	return false;
}

void hpctk_idset_free(hpctk_idset *s)
{
	free(s->map);
	free(s->sorted);
	*s = (hpctk_idset){0};
}
