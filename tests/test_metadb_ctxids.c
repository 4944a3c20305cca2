/* The ctxId set of meta.db (hpctoolkit/metadb/ctxids.c), driven directly: the context
 * walk only marks where contexts start, and this file reads the ids back,
 * finds repeats and builds the set the cross-file checks ask. Each of its
 * four paths (dense or sparse ids, with or without a repeat) must report
 * the same diagnostics a sort of every (offset, id) would and leave the
 * same set; entry points at an odd stride and a section that does not
 * start 8-aligned must be read back at the right offsets. */
#include <stdlib.h>

#include "core/hv_int.h"
#include "hpctoolkit/metadb/internal.h"
#include "tap.h"
#include "testlib.h"

enum { LO = 0x44, SECLEN = 0x1000, NGRAN = (SECLEN + 7) / 8 };

typedef struct fixture {
	uint8_t mem[LO + SECLEN];
	uint64_t bits[(NGRAN + 63) / 64];
	md_ctx_starts s;
	md_state m;
	hv_report r;
	hv_blob b;
} fixture;

static void setup(fixture *f)
{
	memset(f, 0, sizeof *f);
	f->s = (md_ctx_starts){f->bits, LO, NGRAN, 0, 0, 0};
	hv_report_init(&f->r, "t/meta.db", 100);
	f->b = hv_blob_from_memory("t/meta.db", f->mem, sizeof f->mem);
	f->m = (md_state){.b = &f->b, .mem = f->mem, .r = &f->r};
}

static void teardown(fixture *f)
{
	hpctk_idset_free(&f->m.ctx_ids);
	hv_blob_release(&f->b);
	hv_report_free(&f->r);
}

/* A {Ctx} at the k-th 8-aligned offset of the section, holding `id`;
 * returns the offset of its ctxId field. */
static uint64_t ctx(fixture *f, unsigned k, uint32_t id)
{
	uint64_t e = ((LO + 7) & ~7u) + 0x30 * (uint64_t)k + 0x100;
	uint64_t g = (e - LO) / 8;
	f->bits[g / 64] |= (uint64_t)1 << (g % 64);
	hv_put_le32(f->mem + e + 0x10, id);
	return e + 0x10;
}

/* n entry points at `p`, 0x21 bytes apart, ids from `ids`. */
static void entries(fixture *f, uint64_t p, const uint32_t *ids, unsigned n)
{
	f->s.ent_p = p;
	f->s.ent_stride = 0x21;
	f->s.ent_n = n;
	for (unsigned i = 0; i < n; i++) hv_put_le32(f->mem + p + 0x21 * i + 0x10, ids[i]);
}

static size_t fired(const hv_report *r, int rule)
{
	size_t k = 0;
	for (size_t i = 0; i < r->ndiags; i++) k += r->diags[i].rule == rule;
	return k;
}

static void dense_distinct(void)
{
	fixture f;
	setup(&f);
	const uint32_t eids[] = {3, 1};
	entries(&f, LO + 1, eids, 2);
	for (unsigned k = 0; k < 40; k++) ctx(&f, k, 100 - k); /* 61..100 */
	md_ctxids_check(&f.m, &f.s);
	hpctk_idset *s = &f.m.ctx_ids;
	CHECK(f.r.ndiags == 0 && f.r.evaluated[HV_R_METADB_CTX_CTXID_UNIQUE] == 42, "dense, distinct: %zu diags, %llu evals",
	      f.r.ndiags, (unsigned long long)f.r.evaluated[HV_R_METADB_CTX_CTXID_UNIQUE]);
	CHECK(s->map && !s->sorted && s->n == 42 && s->max == 100, "dense: a bitmap of 42 ids up to 100");
	CHECK(hpctk_idset_has(s, 0) && hpctk_idset_has(s, 1) && !hpctk_idset_has(s, 2) && hpctk_idset_has(s, 3) &&
		      !hpctk_idset_has(s, 60) && hpctk_idset_has(s, 61) && hpctk_idset_has(s, 100) &&
		      !hpctk_idset_has(s, 101) && !hpctk_idset_has(s, UINT32_MAX),
	      "dense: membership (0 always, gaps not)");
	CHECK(!f.m.oom, "no allocation failure");
	teardown(&f);
}

static void dense_repeats(void)
{
	fixture f;
	setup(&f);
	const uint32_t eids[] = {7};
	entries(&f, LO + 1, eids, 1);
	uint64_t a = ctx(&f, 0, 9), b = ctx(&f, 1, 7), c = ctx(&f, 2, 9), d = ctx(&f, 3, 9);
	(void)a;
	md_ctxids_check(&f.m, &f.s);
	hpctk_idset *s = &f.m.ctx_ids;
	CHECK(fired(&f.r, HV_R_METADB_CTX_CTXID_UNIQUE) == 3 && f.r.ndiags == 3, "dense, repeats: 3 reports (%zu)",
	      f.r.ndiags);
	/* Ordered by id, then offset; each names the first holder. */
	CHECK(f.r.ndiags == 3 && f.r.diags[0].offset == b && strstr(f.r.diags[0].msg, "ctxId 7 is already used") &&
		      f.r.diags[1].offset == c && f.r.diags[2].offset == d,
	      "repeats in id order at their own offsets");
	char want[64];
	snprintf(want, sizeof want, "already used at 0x%llx", (unsigned long long)a);
	CHECK(f.r.ndiags == 3 && strstr(f.r.diags[1].msg, want) && strstr(f.r.diags[2].msg, want),
	      "both repeats of 9 name its first holder");
	CHECK(f.r.evaluated[HV_R_METADB_CTX_CTXID_UNIQUE] == 5, "one evaluation per id read");
	CHECK(s->map && s->n == 2 && s->max == 9 && hpctk_idset_has(s, 7) && hpctk_idset_has(s, 9) &&
		      !hpctk_idset_has(s, 8),
	      "the set: the distinct ids");
	teardown(&f);
}

static void sparse(bool repeat)
{
	fixture f;
	setup(&f);
	const uint32_t eids[] = {4000000000u, 5};
	entries(&f, LO + 0x800, eids, 2);
	ctx(&f, 0, 70000000);
	uint64_t first = ctx(&f, 1, repeat ? 5 : 6), second = LO + 0x800 + 0x21 + 0x10; /* entry point 1 */
	md_ctxids_check(&f.m, &f.s);
	hpctk_idset *s = &f.m.ctx_ids;
	CHECK(!s->map && s->sorted && s->max == 4000000000u, "sparse%s: a sorted array up to 4e9", repeat ? ", repeat" : "");
	if (!repeat) {
		CHECK(f.r.ndiags == 0 && s->n == 4 && s->sorted[0] == 5 && s->sorted[1] == 6 && s->sorted[2] == 70000000,
		      "sparse: 4 sorted ids, no report");
	} else {
		/* The first holder is the one at the lower offset, whatever the
		 * order in which the ids were read. */
		char want[64];
		snprintf(want, sizeof want, "already used at 0x%llx", (unsigned long long)first);
		CHECK(f.r.ndiags == 1 && f.r.diags[0].offset == second && strstr(f.r.diags[0].msg, want) && s->n == 3,
		      "sparse, repeat: one report, at the later holder");
	}
	CHECK(f.r.evaluated[HV_R_METADB_CTX_CTXID_UNIQUE] == 4, "sparse: one evaluation per id");
	CHECK(hpctk_idset_has(s, 0) && hpctk_idset_has(s, 5) && hpctk_idset_has(s, 4000000000u) &&
		      !hpctk_idset_has(s, 7) && !hpctk_idset_has(s, UINT32_MAX),
	      "sparse: membership");
	teardown(&f);
}

/* Draft files may list ctxId 0; it is an id like any other for
 * uniqueness, and the set's implied root does not make it a repeat. */
static void listed_zero(void)
{
	fixture f;
	setup(&f);
	ctx(&f, 0, 0);
	ctx(&f, 1, 1);
	md_ctxids_check(&f.m, &f.s);
	CHECK(f.r.ndiags == 0 && f.m.ctx_ids.n == 2 && f.m.ctx_ids.max == 1, "a listed 0 is no repeat");
	teardown(&f);
	setup(&f);
	ctx(&f, 0, 0);
	uint64_t b = ctx(&f, 1, 0);
	md_ctxids_check(&f.m, &f.s);
	CHECK(f.r.ndiags == 1 && f.r.diags[0].offset == b, "0 listed twice is a repeat");
	teardown(&f);
}

static void empty(void)
{
	fixture f;
	setup(&f);
	md_ctxids_check(&f.m, &f.s);
	CHECK(f.r.ndiags == 0 && f.m.ctx_ids.n == 0 && !f.m.ctx_ids.map && !f.m.ctx_ids.sorted &&
		      hpctk_idset_has(&f.m.ctx_ids, 0) && !hpctk_idset_has(&f.m.ctx_ids, 1),
	      "no contexts: an empty set (but for the root)");
	teardown(&f);
}

int main(void)
{
	dense_distinct();
	dense_repeats();
	sparse(false);
	sparse(true);
	listed_zero();
	empty();
	TAP_DONE();
}
