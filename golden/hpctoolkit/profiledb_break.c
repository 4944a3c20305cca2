/* --break cases for profile.db rules (a standalone profile.db each). Layout
 * problems are written consistently by the writer through knobs (so the
 * one wrong offset is the only thing wrong); value problems are patched. */
#include <math.h>
#include <string.h>

#include "database_break.h"

#define B1 1u /* the profile whose block is broken: never empty */

static pdb_prof_layout *P(hk_ctx *c, unsigned i) { return &c->pl.p[i]; }
static uint64_t pi_field(hk_ctx *c, unsigned i, unsigned off) { return P(c, i)->pi + off; }

/* Header and sections. */
static void cut_short(hk_ctx *c) { c->prof.len = 0x20; }
static void magic(hk_ctx *c) { *hk_p(c, 10) = 'X'; }
static void major(hk_ctx *c) { *hk_p(c, 14) = 5; }
static void minor(hk_ctx *c) { *hk_p(c, 15) = 1; }
static void footer(hk_ctx *c) { *hk_p(c, c->prof.len - 1) = 'x'; }
/* Profile Info section claimed to run past the end of the file. */
static void sec_contained(hk_ctx *c) { hv_put_le64(hk_p(c, 0x10), c->prof.len); }
static void order_pi_first(hk_ctx *c) { c->d.k.pdb_order = 0; }
static void order_tuples_first(hk_ctx *c) { c->d.k.pdb_order = 1; }
static void tup_shift(hk_ctx *c)
{
	c->d.k.pdb_order = 0;
	c->d.k.pdb_tup_shift = 4;
}
/* Profile Info section grown by 8 over the tuple section right after it. */
static void sec_overlap(hk_ctx *c) { hv_put_le64(hk_p(c, 0x10), c->pl.pi_sz + 8); }

/* Profile Info section. */
static void pi_short(hk_ctx *c) { hv_put_le64(hk_p(c, 0x10), 8); }
static void pi_array_contained(hk_ctx *c) { hv_put_le32(hk_p(c, c->pl.pi_sec + 8), c->pl.nprof + 1); }
static void pi_hdr_unaligned(hk_ctx *c) { c->d.k.pdb_pi_hdr = 0x14; }
static void pi_stride(hk_ctx *c) { *hk_p(c, c->pl.pi_sec + 0xc) = 0x20; }
static void no_profiles(hk_ctx *c) { hv_put_le32(hk_p(c, c->pl.pi_sec + 8), 0); }
static void summary_first(hk_ctx *c)
{
	uint8_t *f = hk_p(c, pi_field(c, 0, 0x28));
	hv_put_le32(f, hv_le32(f) & ~1u);
}
static void pi_flags(hk_ctx *c)
{
	uint8_t *f = hk_p(c, pi_field(c, B1, 0x28));
	hv_put_le32(f, hv_le32(f) | 0x20u);
}
static void idtuple_boundary(hk_ctx *c) { hv_put_le64(hk_p(c, pi_field(c, B1, 0x20)), P(c, B1)->tuple + 8); }

/* Value blocks. */
static void blk(hk_ctx *c) { c->d.k.pdb_blk = (int)B1; }
static void values_contained(hk_ctx *c) { hv_put_le64(hk_p(c, pi_field(c, B1, 0x00)), 1ull << 60); }
static void values_odd(hk_ctx *c)
{
	blk(c);
	c->d.k.pdb_vals_shift = 1;
}
static void indices_contained(hk_ctx *c) { hv_put_le32(hk_p(c, pi_field(c, B1, 0x10)), 0x10000000u); }
static void indices_2aligned(hk_ctx *c)
{
	blk(c);
	c->d.k.pdb_idx_pad = 2;
}
/* The first non-empty block (in file order) drawn into the Profile Info
 * section, which comes last of the two sections. */
static void outside_sections(hk_ctx *c)
{
	for (unsigned k = 0; k < c->pl.nprof; k++) {
		pdb_prof_layout *pl = P(c, c->pl.order[k]);
		if (!pl->nvals) continue;
		hv_put_le64(hk_p(c, 0x10), pl->idx + 12 * pl->nctxs - c->pl.pi_sec);
		return;
	}
}
static void idx_first(hk_ctx *c)
{
	blk(c);
	c->d.k.pdb_idx_first = true;
}
static void idx_far(hk_ctx *c)
{
	blk(c);
	c->d.k.pdb_idx_pad = 8;
}
static uint8_t *idx(hk_ctx *c, unsigned prof, uint64_t k) { return hk_p(c, P(c, prof)->idx + 12 * k); }
static uint8_t *val(hk_ctx *c, unsigned prof, uint64_t k) { return hk_p(c, P(c, prof)->vals + 10 * k); }
/* A profile with values at `n` or more contexts (threads first). */
static unsigned with_ctxs(hk_ctx *c, uint64_t n)
{
	for (unsigned k = 1; k <= c->pl.nprof; k++) {
		unsigned i = k % c->pl.nprof;
		if (P(c, i)->nctxs >= n) return i;
	}
	c->fail = "no profile has values at enough contexts";
	return B1;
}
static void ctx_increasing(hk_ctx *c)
{
	unsigned i = with_ctxs(c, 2);
	if (c->fail) return;
	uint32_t a = hv_le32(idx(c, i, 0)), b = hv_le32(idx(c, i, 1));
	hv_put_le32(idx(c, i, 0), b);
	hv_put_le32(idx(c, i, 1), a);
}
/* Number the block's metricIds 0, 1, 2... in file order, so that any
 * partition into runs stays sorted: a bad startIndex then breaks only the
 * startIndex rule. */
static void monotone_metrics(hk_ctx *c, unsigned prof)
{
	for (uint64_t k = 0; k < P(c, prof)->nvals; k++) hv_put_le16(val(c, prof, k), (uint16_t)k);
}
static void start_first_zero(hk_ctx *c) { hv_put_le64(idx(c, B1, 0) + 4, 1); }
static void start_in_range(hk_ctx *c)
{
	unsigned i = with_ctxs(c, 2);
	if (c->fail) return;
	monotone_metrics(c, i);
	hv_put_le64(idx(c, i, P(c, i)->nctxs - 1) + 4, P(c, i)->nvals + 5);
}
/* A decrease after a first startIndex of 0 needs three contexts. */
static void start_nondecreasing(hk_ctx *c)
{
	unsigned i = with_ctxs(c, 3);
	if (c->fail) return;
	uint64_t n = P(c, i)->nctxs;
	monotone_metrics(c, i);
	hv_put_le64(idx(c, i, n - 2) + 4, hv_le64(idx(c, i, n - 1) + 4) + 1);
}
static void metric_increasing(hk_ctx *c)
{
	uint16_t a = hv_le16(val(c, B1, 0)), b = hv_le16(val(c, B1, 1));
	hv_put_le16(val(c, B1, 0), b);
	hv_put_le16(val(c, B1, 1), a);
}
static void value_zero(hk_ctx *c) { hv_put_lef64(val(c, B1, 0) + 2, 0.0); }
static void value_nan(hk_ctx *c) { hv_put_lef64(val(c, B1, 0) + 2, NAN); }
/* Profile 1's block header made a copy of the summary's: same plane. */
static void psvb_overlap(hk_ctx *c) { memcpy(hk_p(c, pi_field(c, B1, 0)), hk_p(c, pi_field(c, 0, 0)), 0x20); }

/* Identifier tuples. */
static void idt_contained(hk_ctx *c)
{
	unsigned last = c->pl.nprof - 1;
	uint8_t *t = hk_p(c, P(c, last)->tuple);
	hv_put_le16(t, (uint16_t)(hv_le16(t) + 1));
}
static uint8_t *id_entry(hk_ctx *c, unsigned prof, unsigned k) { return hk_p(c, P(c, prof)->tuple + 8 + 16u * k); }
static void idt_physical(hk_ctx *c)
{
	for (unsigned k = 0; k < P(c, B1)->nids; k++) {
		uint8_t *e = id_entry(c, B1, k);
		if (hv_le16(e + 2) & 1) continue;
		hv_put_le64(e + 8, (uint64_t)hv_le32(e + 4) + 1);
		return;
	}
}
static void idt_flags(hk_ctx *c)
{
	uint8_t *e = id_entry(c, B1, 0);
	hv_put_le16(e + 2, (uint16_t)(hv_le16(e + 2) | 0x10));
}

#define PF "profiledb"
const hk_break hk_breaks_profiledb[] = {
	{"profiledb.hdr.truncated", PF, HK_BOTH, false, NULL, cut_short},
	{"profiledb.hdr.magic", PF, HK_BOTH, false, NULL, magic},
	{"profiledb.hdr.major", PF, HK_BOTH, false, NULL, major},
	{"profiledb.hdr.minor-newer", PF, HK_BOTH, false, NULL, minor},
	{"profiledb.hdr.footer", PF, HK_BOTH, false, NULL, footer},
	{"profiledb.sec.contained", PF, HK_BOTH, false, NULL, sec_contained},
	{"profiledb.sec.aligned", PF, HK_BOTH, false, tup_shift, NULL},
	{"profiledb.sec.overlap", PF, HK_BOTH, false, order_pi_first, sec_overlap},
	{"profiledb.pi.section-short", PF, HK_BOTH, false, NULL, pi_short},
	{"profiledb.pi.array-contained", PF, HK_BOTH, false, NULL, pi_array_contained},
	{"profiledb.pi.array-aligned", PF, HK_BOTH, false, pi_hdr_unaligned, NULL},
	{"profiledb.pi.stride", PF, HK_BOTH, false, NULL, pi_stride},
	{"profiledb.pi.no-profiles", PF, HK_BOTH, false, NULL, no_profiles},
	{"profiledb.pi.summary-first", PF, HK_RELEASE, false, NULL, summary_first},
	{"profiledb.pi.flags-reserved", PF, HK_RELEASE, false, NULL, pi_flags},
	{"profiledb.pi.idtuple-boundary", PF, HK_BOTH, false, NULL, idtuple_boundary},
	{"profiledb.psvb.values-contained", PF, HK_BOTH, false, NULL, values_contained},
	{"profiledb.psvb.values-aligned", PF, HK_BOTH, false, values_odd, NULL},
	{"profiledb.psvb.indices-contained", PF, HK_BOTH, false, NULL, indices_contained},
	{"profiledb.psvb.indices-aligned", PF, HK_BOTH, false, indices_2aligned, NULL},
	{"profiledb.psvb.outside-sections", PF, HK_BOTH, false, order_tuples_first, outside_sections},
	{"profiledb.psvb.order", PF, HK_BOTH, false, idx_first, NULL},
	{"profiledb.psvb.contiguous", PF, HK_BOTH, false, idx_far, NULL},
	{"profiledb.psvb.ctx-increasing", PF, HK_BOTH, false, NULL, ctx_increasing},
	{"profiledb.psvb.start-first-zero", PF, HK_BOTH, false, NULL, start_first_zero},
	{"profiledb.psvb.start-in-range", PF, HK_BOTH, false, NULL, start_in_range},
	{"profiledb.psvb.start-nondecreasing", PF, HK_BOTH, false, NULL, start_nondecreasing},
	{"profiledb.psvb.metric-increasing", PF, HK_BOTH, false, NULL, metric_increasing},
	{"profiledb.psvb.value-nonzero", PF, HK_BOTH, false, NULL, value_zero},
	{"profiledb.psvb.value-finite", PF, HK_BOTH, false, NULL, value_nan},
	{"profiledb.psvb.overlap", PF, HK_BOTH, false, NULL, psvb_overlap},
	{"profiledb.idt.contained", PF, HK_BOTH, false, NULL, idt_contained},
	{"profiledb.idt.physical", PF, HK_BOTH, false, NULL, idt_physical},
	{"profiledb.idt.flags-reserved", PF, HK_BOTH, false, NULL, idt_flags},
	{NULL, NULL, 0, false, NULL, NULL},
};
