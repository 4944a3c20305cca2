/* Semantic HPCToolkit mutations: metric values and ids of profile.db and
 * cct.db changed in place. The value arrays are found by the validator's own
 * walks (hpctk_profiledb_walk / hpctk_cctdb_walk with visitors: every stored
 * {value} pair and {index} entry, with its offset), so the sizes, pointers
 * and layouts stay as they were and the value checks (values*.c: execution
 * and transitive sums, summaries, the cct.db / profile.db transpose) see
 * other numbers:
 *  - a value -> 0.0, -0.0, negative, NaN, +-inf, a denormal, another value
 *    of the file, twice itself;
 *  - a value's key (profile.db: metric id; cct.db: profile index) or an
 *    index entry's key (profile.db: context id; cct.db: metric id) -> another
 *    key the file uses, strictly between its neighbours in the run so the
 *    sort order holds; one time in eight any other key, which deliberately
 *    breaks the order. */
#include <math.h>
#include <string.h>

#include "core/blob.h"
#include "core/report.h"
#include "hpctoolkit/cctdb/cctdb.h"
#include "hpctoolkit/profiledb/profiledb.h"
#include "mutator_core.h"

#define MAX_ENTRIES 4096
#define MAX_KEYS 256

/* A {value} pair or {index} entry: where its key lies, the key's width,
 * where the value lies (0: an index entry), the run it belongs to (its
 * block and, for values, the index key), and the key. */
typedef struct entry {
	size_t key_at, val_at;
	uint32_t owner, run, key;
	uint8_t kw;
} entry;

typedef struct hctx {
	entry e[MAX_ENTRIES];
	size_t n, base;        /* base: the file's data offset in the input */
	uint32_t keys[2][MAX_KEYS]; /* keys seen: [0] of values, [1] of index entries */
	size_t nkeys[2];
	bool cct;
} hctx;

static void add_key(hctx *c, int idx, uint32_t k)
{
	for (size_t i = 0; i < c->nkeys[idx]; i++)
		if (c->keys[idx][i] == k) return;
	if (c->nkeys[idx] < MAX_KEYS) c->keys[idx][c->nkeys[idx]++] = k;
}

static void add(hctx *c, uint64_t off, unsigned kw, bool value, uint32_t owner, uint32_t run, uint32_t key)
{
	add_key(c, !value, key);
	if (c->n == MAX_ENTRIES) return;
	c->e[c->n++] = (entry){c->base + off, value ? c->base + off + kw : 0, owner, run, key, (uint8_t)kw};
}

/* profile.db: {Idx} = u32 ctxId, u64 start; {Val} = u16 metric, f64 value. */
static void p_index(void *arg, uint32_t prof, bool summary, uint32_t ctx, uint64_t off)
{
	(void)summary;
	add(arg, off, 4, false, prof, UINT32_MAX, ctx);
}
static void p_value(void *arg, uint32_t prof, bool summary, uint32_t ctx, uint16_t metric, uint64_t bits, uint64_t off)
{
	(void)summary, (void)bits;
	add(arg, off, 2, true, prof, ctx, metric);
}
/* cct.db: {Idx} = u16 metric, u64 start; {Val} = u32 profIndex, f64 value. */
static void c_index(void *arg, uint32_t ctx, uint16_t metric, uint64_t off) { add(arg, off, 2, false, ctx, UINT32_MAX, metric); }
static void c_value(void *arg, uint32_t ctx, uint16_t metric, uint32_t prof, uint64_t bits, uint64_t off)
{
	(void)bits;
	add(arg, off, 4, true, ctx, metric, prof);
}

static void collect(hctx *c, const uint8_t *d, const mmember *f)
{
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = 1};
	hv_report r;
	hv_report_init(&r, "m", 1);
	hv_blob b = hv_blob_from_memory(c->cct ? "cct.db" : "profile.db", d + f->data_at, f->len);
	if (c->cct) {
		hpctk_cctdb db;
		hpctk_cct_visitor v = {.arg = c, .index = c_index, .value = c_value};
		if (hpctk_cctdb_open(&opt, &b, &r, HV_EDITION_AUTO, &db)) hpctk_cctdb_walk(&db, &r, &v);
	} else {
		hpctk_profiledb db;
		hpctk_prof_visitor v = {.arg = c, .index = p_index, .value = p_value};
		if (hpctk_profiledb_open(&opt, &b, &r, HV_EDITION_AUTO, &db)) hpctk_profiledb_walk(&db, &r, &v);
	}
	hv_blob_release(&b);
	hv_report_free(&r);
}

static uint64_t f64_bits(double x)
{
	uint64_t b;
	memcpy(&b, &x, 8);
	return b;
}

static void mutate_value(hctx *c, uint8_t *d, const entry *t, mrng *g)
{
	uint8_t *p = d + t->val_at;
	uint64_t bits = field_get(p, 8, false), nb;
	double x;
	memcpy(&x, &bits, 8);
	switch (mrng_below(g, 9)) {
	case 0: nb = f64_bits(0.0); break;
	case 1: nb = f64_bits(-0.0); break;
	case 2: nb = f64_bits(-fabs(x) - (x == 0)); break;
	case 3: nb = f64_bits(NAN); break;
	case 4: nb = f64_bits(mrng_below(g, 2) ? INFINITY : -INFINITY); break;
	case 5: nb = mrng_below(g, 2) ? 1 : 0x000fffffffffffffull; break; /* denormals */
	case 6: nb = f64_bits(x * 2); break;
	default: { /* another value of the file */
		const entry *o = &c->e[mrng_below(g, c->n)];
		nb = o->val_at ? field_get(d + o->val_at, 8, false) : f64_bits(x + 1);
		break;
	}
	}
	field_put(p, 8, false, nb);
}

/* Another key the file uses, strictly between k's neighbours in its run
 * when `ordered` and one exists; false when there is none. */
static bool other_key(const hctx *c, const entry *t, bool ordered, mrng *g, uint32_t *out)
{
	int idx = t->val_at == 0;
	uint64_t lo = 0, hi = UINT64_MAX;
	size_t i = (size_t)(t - c->e);
	/* the nearest entries of the same run before and after it (index
	 * entries and values may come interleaved) */
	for (size_t j = i; j-- > 0;)
		if (c->e[j].owner == t->owner && c->e[j].run == t->run && (c->e[j].val_at == 0) == idx) {
			lo = c->e[j].key + 1ull;
			break;
		}
	for (size_t j = i + 1; j < c->n; j++)
		if (c->e[j].owner == t->owner && c->e[j].run == t->run && (c->e[j].val_at == 0) == idx) {
			hi = c->e[j].key;
			break;
		}
	size_t n = c->nkeys[idx], start = mrng_below(g, n);
	for (size_t j = 0; j < n; j++) {
		uint32_t k = c->keys[idx][(start + j) % n];
		if (k == t->key || (ordered && (k < lo || k >= hi))) continue;
		*out = k;
		return true;
	}
	return false;
}

size_t sem_hpctk(uint8_t *d, size_t size, size_t max, mmember *m, size_t n, mrng *g)
{
	(void)max;
	size_t files[16], nf = 0;
	for (size_t k = 0; k < n && nf < 16; k++) {
		const uint8_t *p = d + m[k].data_at;
		if (m[k].len >= 32 && memcmp(p, "HPCTOOLKIT", 10) == 0 &&
		    (memcmp(p + 10, "prof", 4) == 0 || memcmp(p + 10, "ctxt", 4) == 0))
			files[nf++] = k;
	}
	if (nf == 0) return 0;
	static hctx c; /* 100 KB: not on a fuzzer's stack */
	const mmember *f = &m[files[mrng_below(g, nf)]];
	c.n = c.nkeys[0] = c.nkeys[1] = 0;
	c.base = f->data_at;
	c.cct = memcmp(d + f->data_at + 10, "ctxt", 4) == 0;
	collect(&c, d, f);
	if (c.n == 0) return 0;
	for (unsigned tries = 0; tries < 4; tries++) {
		const entry *t = &c.e[mrng_below(g, c.n)];
		uint32_t k;
		if (mrng_below(g, 8) < 5) { /* a value */
			if (!t->val_at) continue;
			mutate_value(&c, d, t, g);
			return size;
		}
		if (!other_key(&c, t, mrng_below(g, 8) != 0, g, &k)) continue;
		field_put(d + t->key_at, t->kw, false, k);
		return size;
	}
	return 0;
}
