/* --break cases for cct.db rules (a standalone cct.db each). Context 0 (the
 * global context) always has values for every propMetricId, so its block
 * is the one broken. */
#include <math.h>
#include <string.h>

#include "database_break.h"

static cdb_ctx_layout *C(hk_ctx *c, uint32_t id) { return &c->cl.c[id]; }
static uint64_t ci_at(hk_ctx *c, uint32_t id) { return c->cl.ci_arr + (uint64_t)id * c->cl.szctx; }
static uint8_t *idx(hk_ctx *c, uint32_t id, uint64_t k) { return hk_c(c, C(c, id)->idx + 10 * k); }
static uint8_t *val(hk_ctx *c, uint32_t id, uint64_t k) { return hk_c(c, C(c, id)->vals + 12 * k); }

static void cut_short(hk_ctx *c) { c->cct.len = 0x18; }
static void magic(hk_ctx *c) { *hk_c(c, 10) = 'X'; }
static void major(hk_ctx *c) { *hk_c(c, 14) = 5; }
static void minor(hk_ctx *c) { *hk_c(c, 15) = 1; }
static void footer(hk_ctx *c) { *hk_c(c, c->cct.len - 1) = 'x'; }
static void sec_contained(hk_ctx *c) { hv_put_le64(hk_c(c, 0x10), c->cct.len); }
/* The section moved 4 bytes; its header grows by 4 so pCtxs stays aligned. */
static void sec_unaligned(hk_ctx *c)
{
	c->d.k.cdb_ci_shift = 4;
	c->d.k.cdb_ci_hdr = 0x14;
}
static void ci_short(hk_ctx *c) { hv_put_le64(hk_c(c, 0x10), 8); }
static void ci_array_contained(hk_ctx *c) { hv_put_le32(hk_c(c, c->cl.ci_sec + 8), c->cl.nctxs + 1); }
static void ci_array_unaligned(hk_ctx *c) { c->d.k.cdb_ci_hdr = 0x14; }
static void ci_stride(hk_ctx *c) { *hk_c(c, c->cl.ci_sec + 0xc) = 0x18; }

static void values_contained(hk_ctx *c) { hv_put_le64(hk_c(c, ci_at(c, 0)), 1ull << 60); }
static void values_odd(hk_ctx *c)
{
	c->d.k.cdb_ctx = 0;
	c->d.k.cdb_vals_shift = 1;
}
/* The last non-empty block, near the footer, claims 65535 metrics. */
static void indices_contained(hk_ctx *c)
{
	for (uint32_t id = c->cl.nctxs; id-- > 0;)
		if (C(c, id)->nvals) {
			hv_put_le16(hk_c(c, ci_at(c, id) + 0x10), 0xffff);
			return;
		}
}
static void indices_odd(hk_ctx *c)
{
	c->d.k.cdb_ctx = 0;
	c->d.k.cdb_idx_pad = 1;
}
/* The section grown over the first non-empty block after it. */
static void outside_sections(hk_ctx *c)
{
	for (uint32_t id = 0; id < c->cl.nctxs; id++)
		if (C(c, id)->nvals) {
			hv_put_le64(hk_c(c, 0x10), C(c, id)->idx + 10 * C(c, id)->nmets - c->cl.ci_sec);
			return;
		}
}
static void idx_first(hk_ctx *c)
{
	c->d.k.cdb_ctx = 0;
	c->d.k.cdb_idx_first = true;
}
static void idx_far(hk_ctx *c)
{
	c->d.k.cdb_ctx = 0;
	c->d.k.cdb_idx_pad = 8;
}
static void metric_increasing(hk_ctx *c)
{
	uint16_t a = hv_le16(idx(c, 0, 0)), b = hv_le16(idx(c, 0, 1));
	hv_put_le16(idx(c, 0, 0), b);
	hv_put_le16(idx(c, 0, 1), a);
}
/* profIndex 1, 2, 3... in file order: any partition into runs stays
 * sorted, so a bad startIndex breaks only the startIndex rule. */
static void monotone_profs(hk_ctx *c, uint32_t id)
{
	for (uint64_t k = 0; k < C(c, id)->nvals; k++) hv_put_le32(val(c, id, k), (uint32_t)k + 1);
}
static void start_first_zero(hk_ctx *c) { hv_put_le64(idx(c, 0, 0) + 2, 1); }
static void start_in_range(hk_ctx *c)
{
	monotone_profs(c, 0);
	hv_put_le64(idx(c, 0, C(c, 0)->nmets - 1) + 2, C(c, 0)->nvals + 5);
}
/* A decrease after a first startIndex of 0 needs three metrics. */
static void start_nondecreasing(hk_ctx *c)
{
	for (uint32_t id = 0; id < c->cl.nctxs; id++) {
		uint64_t n = C(c, id)->nmets;
		if (n < 3) continue;
		monotone_profs(c, id);
		hv_put_le64(idx(c, id, n - 2) + 2, hv_le64(idx(c, id, n - 1) + 2) + 1);
		return;
	}
	c->fail = "no context has values for three metrics";
}
/* Two values of one metric's run given the same profIndex. */
static void prof_increasing(hk_ctx *c)
{
	for (uint32_t id = 0; id < c->cl.nctxs; id++)
		for (uint64_t k = 0; k < C(c, id)->nmets; k++) {
			uint64_t s = hv_le64(idx(c, id, k) + 2);
			uint64_t e = k + 1 < C(c, id)->nmets ? hv_le64(idx(c, id, k + 1) + 2) : C(c, id)->nvals;
			if (e - s < 2) continue;
			hv_put_le32(val(c, id, s + 1), hv_le32(val(c, id, s)));
			return;
		}
	c->fail = "no metric has values from two profiles (one thread only)";
}
static void prof_zero(hk_ctx *c) { hv_put_le32(val(c, 0, 0), 0); }
static void value_zero(hk_ctx *c) { hv_put_lef64(val(c, 0, 0) + 4, 0.0); }
static void value_nan(hk_ctx *c) { hv_put_lef64(val(c, 0, 0) + 4, NAN); }
/* Another context's block header made a copy of context 0's. */
static void csvb_overlap(hk_ctx *c)
{
	for (uint32_t id = 1; id < c->cl.nctxs; id++)
		if (C(c, id)->nvals) {
			memcpy(hk_c(c, ci_at(c, id)), hk_c(c, ci_at(c, 0)), 0x20);
			return;
		}
}

#define CF "cctdb"
const hk_break hk_breaks_cctdb[] = {
	{"cctdb.hdr.truncated", CF, HK_BOTH, false, NULL, cut_short},
	{"cctdb.hdr.magic", CF, HK_BOTH, false, NULL, magic},
	{"cctdb.hdr.major", CF, HK_BOTH, false, NULL, major},
	{"cctdb.hdr.minor-newer", CF, HK_BOTH, false, NULL, minor},
	{"cctdb.hdr.footer", CF, HK_BOTH, false, NULL, footer},
	{"cctdb.sec.contained", CF, HK_BOTH, false, NULL, sec_contained},
	{"cctdb.sec.aligned", CF, HK_BOTH, false, sec_unaligned, NULL},
	{"cctdb.ci.section-short", CF, HK_BOTH, false, NULL, ci_short},
	{"cctdb.ci.array-contained", CF, HK_BOTH, false, NULL, ci_array_contained},
	{"cctdb.ci.array-aligned", CF, HK_BOTH, false, ci_array_unaligned, NULL},
	{"cctdb.ci.stride", CF, HK_BOTH, false, NULL, ci_stride},
	{"cctdb.csvb.values-contained", CF, HK_BOTH, false, NULL, values_contained},
	{"cctdb.csvb.values-aligned", CF, HK_BOTH, false, values_odd, NULL},
	{"cctdb.csvb.indices-contained", CF, HK_BOTH, false, NULL, indices_contained},
	{"cctdb.csvb.indices-aligned", CF, HK_BOTH, false, indices_odd, NULL},
	{"cctdb.csvb.outside-sections", CF, HK_BOTH, false, NULL, outside_sections},
	{"cctdb.csvb.order", CF, HK_BOTH, false, idx_first, NULL},
	{"cctdb.csvb.contiguous", CF, HK_BOTH, false, idx_far, NULL},
	{"cctdb.csvb.metric-increasing", CF, HK_BOTH, false, NULL, metric_increasing},
	{"cctdb.csvb.start-first-zero", CF, HK_BOTH, false, NULL, start_first_zero},
	{"cctdb.csvb.start-in-range", CF, HK_BOTH, false, NULL, start_in_range},
	{"cctdb.csvb.start-nondecreasing", CF, HK_BOTH, false, NULL, start_nondecreasing},
	{"cctdb.csvb.prof-increasing", CF, HK_BOTH, false, NULL, prof_increasing},
	{"cctdb.csvb.prof-nonzero", CF, HK_BOTH, false, NULL, prof_zero},
	{"cctdb.csvb.value-nonzero", CF, HK_BOTH, false, NULL, value_zero},
	{"cctdb.csvb.value-finite", CF, HK_BOTH, false, NULL, value_nan},
	{"cctdb.csvb.overlap", CF, HK_BOTH, false, NULL, csvb_overlap},
	{NULL, NULL, 0, false, NULL, NULL},
};
