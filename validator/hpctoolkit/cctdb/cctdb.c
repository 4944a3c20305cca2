/* cct.db: header, Context Info section, {CI} entries. Value blocks are
 * checked by the shared walker (format/svb.c). */
#include "cctdb.h"

#include <stdio.h>
#include <string.h>

#include "core/hv_int.h"
#include "hpctoolkit/format/svb.h"

#define CI_SHDR 0x0du /* Context Info section header: pCtxs, nCtxs, szCtx */

static const hpctk_file_desc cctdb_desc = {
	.file = "cct.db",
	.code = "ctxt",
	.footer = "__ctx.db",
	.nsections = 1,
	.sections = {{"CtxInfos", 8}},
	.r_magic = HV_R_CCTDB_HDR_MAGIC,
	.r_major = HV_R_CCTDB_HDR_MAJOR,
	.r_minor_newer = HV_R_CCTDB_HDR_MINOR_NEWER,
	.r_truncated = HV_R_CCTDB_HDR_TRUNCATED,
	.r_footer = HV_R_CCTDB_HDR_FOOTER,
	.r_sec_contained = HV_R_CCTDB_SEC_CONTAINED,
	.r_sec_aligned = HV_R_CCTDB_SEC_ALIGNED,
	.r_sec_overlap = HV_R_CCTDB_SEC_CONTAINED, /* one section: never compared */
};

static const hpctk_svb_desc csvb_desc = {
	.file = "cct.db",
	.owner = "ctx",
	.val_size = 12,
	.idx_size = 10,
	.val_key_size = 4,
	.idx_key_size = 2,
	.idx_count_size = 2,
	.val_key = "profIndex",
	.idx_key = "metricId",
	.idx_ptr = "pMetricIndices",
	.idx_count = "nMetrics",
	.r_values_contained = HV_R_CCTDB_CSVB_VALUES_CONTAINED,
	.r_values_aligned = HV_R_CCTDB_CSVB_VALUES_ALIGNED,
	.r_indices_contained = HV_R_CCTDB_CSVB_INDICES_CONTAINED,
	.r_indices_aligned = HV_R_CCTDB_CSVB_INDICES_ALIGNED,
	.r_outside = HV_R_CCTDB_CSVB_OUTSIDE_SECTIONS,
	.r_order = HV_R_CCTDB_CSVB_ORDER,
	.r_contiguous = HV_R_CCTDB_CSVB_CONTIGUOUS,
	.r_overlap = HV_R_CCTDB_CSVB_OVERLAP,
	.r_idx_increasing = HV_R_CCTDB_CSVB_METRIC_INCREASING,
	.r_start_first_zero = HV_R_CCTDB_CSVB_START_FIRST_ZERO,
	.r_start_in_range = HV_R_CCTDB_CSVB_START_IN_RANGE,
	.r_start_nondecreasing = HV_R_CCTDB_CSVB_START_NONDECREASING,
	.r_val_increasing = HV_R_CCTDB_CSVB_PROF_INCREASING,
	.r_val_key_nonzero = HV_R_CCTDB_CSVB_PROF_NONZERO,
	.r_value_nonzero = HV_R_CCTDB_CSVB_VALUE_NONZERO,
	.r_value_finite = HV_R_CCTDB_CSVB_VALUE_FINITE,
};

/* The section header's array (format/array.h): section, size field, pointer and stride names, what the
 * array and its body and structure are called, rules: short, aligned, contained, stride. */
static const hpctk_array_desc ci_desc = {"cct.db/CtxInfos", "szCtxInfos",
	"pCtxs", "szCtx", "{CI} array", "the Context Info section body", "the {CI} structure",
	HV_R_CCTDB_CI_SECTION_SHORT, HV_R_CCTDB_CI_ARRAY_ALIGNED,
	HV_R_CCTDB_CI_ARRAY_CONTAINED, HV_R_CCTDB_CI_STRIDE};

static bool cctdb_sniff(hv_blob *b) { return hpctk_sniff(b, "ctxt"); }

bool hpctk_cctdb_open(const hv_options *opt, hv_blob *b, hv_report *r, enum hv_edition ed, hpctk_cctdb *c)
{
	memset(c, 0, sizeof *c);
	c->b = b;
	c->edition = opt->edition != HV_EDITION_AUTO ? opt->edition : ed;
	if (!hpctk_check_header(&cctdb_desc, b, r, true, &c->h)) return false;
	if (!c->h.sec_ok[0]) return false;
	uint8_t sh[CI_SHDR];
	return hpctk_check_array(&ci_desc, b, r, &c->h, CI_SHDR, sh, HPCTK_CI_END, " (pCtxs, nCtxs, szCtx)", "", &c->ci);
}

static void fwd_index(void *arg, uint32_t owner, uint32_t key, uint64_t off)
{
	const hpctk_cct_visitor *v = arg;
	if (v->index) v->index(v->arg, owner, (uint16_t)key, off);
}

static void fwd_value(void *arg, uint32_t owner, uint32_t idx_key, uint32_t val_key, uint64_t bits, uint64_t off)
{
	const hpctk_cct_visitor *v = arg;
	if (v->value) v->value(v->arg, owner, (uint16_t)idx_key, val_key, bits, off);
}

static void env_setup(hpctk_cctdb *c, hpctk_svb_env *e)
{
	/* Release: {Val} A4, {Idx} A2. Draft: pValues *(2), pMetricIndices *(4).
	 * Unknown edition: the minimum both accept. */
	e->val_align = c->edition == HV_EDITION_RELEASE ? 4 : 2;
	e->idx_align = c->edition == HV_EDITION_DRAFT ? 4 : 2;
	hpctk_svb_env_forbid(e, 0, hpctk_header_size(&cctdb_desc));
	hpctk_svb_env_forbid(e, c->h.p[0], c->h.sz[0]);
}

/* Pass 1 (layouts) over contexts [first, last), the overlap sweep when
 * `overlaps`; then pass 2 (values) when `values`. */
static bool pass1(hpctk_cctdb *c, hpctk_svb_env *e, hv_window *w, uint32_t first, uint32_t last, bool overlaps)
{
	for (uint32_t i = first; i < last; i++) {
		uint64_t at = c->ci.p + (uint64_t)i * c->ci.sz;
		const uint8_t *ci = hv_window_get(w, at, HPCTK_CI_END);
		if (!ci) { /* unreadable: the values are not all visited */
			e->complete = false;
			break;
		}
		hpctk_svb_block blk = hpctk_svb_decode(&csvb_desc, ci, i, at);
		hpctk_svb_layout(e, &blk);
	}
	if (overlaps) hpctk_svb_overlaps(e);
	return true;
}

static void pass2(hpctk_cctdb *c, hpctk_svb_env *e, hv_window *w, uint32_t first, uint32_t last)
{
	for (uint32_t i = first; i < last; i++) {
		uint64_t at = c->ci.p + (uint64_t)i * c->ci.sz;
		const uint8_t *ci = hv_window_get(w, at, HPCTK_CI_END);
		if (!ci) {
			e->complete = false;
			break;
		}
		hpctk_svb_block blk = hpctk_svb_decode(&csvb_desc, ci, i, at);
		hpctk_svb_values(e, &blk);
	}
}

/* Walk contexts [first, last). */
static void walk_range(hpctk_cctdb *c, hv_report *r, const hpctk_cct_visitor *v, uint32_t first, uint32_t last,
		       bool overlaps)
{
	hv_window w;
	c->complete = false;
	if (!c->h.usable || !c->ci.ok || !hv_window_init(&w, c->b, hpctk_window_cap)) return;
	hpctk_svb_env e;
	hpctk_svb_visitor sv = {(void *)v, fwd_index, fwd_value, v ? v->fast : NULL};
	bool env_ok = hpctk_svb_env_init(&e, &csvb_desc, c->b, r, c->h.body_end, first, last - first);
	e.vis = v ? &sv : NULL;
	env_setup(c, &e);
	if (env_ok) pass1(c, &e, &w, first, last, overlaps);
	if (env_ok) pass2(c, &e, &w, first, last);
	c->complete = env_ok && e.complete && !e.planes.alloc_failed;
	hpctk_svb_env_free(&e);
	hv_window_free(&w);
}

void hpctk_cctdb_walk(hpctk_cctdb *c, hv_report *r, const hpctk_cct_visitor *v)
{
	walk_range(c, r, v, 0, c->ci.n, true);
}

void hpctk_cctdb_walk_one(hpctk_cctdb *c, hv_report *r, uint32_t ctx, const hpctk_cct_visitor *v)
{
	bool complete = c->complete;
	if (ctx < c->ci.n) walk_range(c, r, v, ctx, ctx + 1, false);
	c->complete = complete;
}

bool hpctk_cctdb_prepare(hpctk_cctdb *c, hv_report *r, hpctk_cct_walk *cw)
{
	memset(cw, 0, sizeof *cw);
	if (!c->h.usable || !c->ci.ok) return false;
	hv_window w;
	if (!hv_window_init(&w, c->b, hpctk_window_cap)) return false;
	cw->env_ok = hpctk_svb_env_init(&cw->e, &csvb_desc, c->b, r, c->h.body_end, 0, c->ci.n);
	cw->env_init = true;
	env_setup(c, &cw->e);
	if (cw->env_ok) pass1(c, &cw->e, &w, 0, c->ci.n, true);
	hv_window_free(&w);
	cw->complete = cw->env_ok && cw->e.complete && !cw->e.planes.alloc_failed;
	return true;
}

bool hpctk_cctdb_range(hpctk_cctdb *c, const hpctk_cct_walk *cw, hv_report *r, const hpctk_cct_visitor *v,
		       uint32_t first, uint32_t last)
{
	hpctk_svb_visitor sv = {(void *)v, fwd_index, fwd_value, v ? v->fast : NULL};
	hpctk_svb_range rg;
	if (hpctk_svb_range_begin(&rg, &cw->e, cw->env_ok, c->b, r, v ? &sv : NULL))
		pass2(c, &rg.e, &rg.w, first, last < c->ci.n ? last : c->ci.n);
	return hpctk_svb_range_end(&rg);
}

void hpctk_cctdb_prepared_free(hpctk_cct_walk *cw)
{
	if (cw->env_init) hpctk_svb_env_free(&cw->e);
	memset(cw, 0, sizeof *cw);
}

uint64_t hpctk_cctdb_block_bytes(hpctk_cctdb *c, hv_window *w, uint32_t i)
{
	const uint8_t *ci = hv_window_get(w, c->ci.p + (uint64_t)i * c->ci.sz, HPCTK_CI_END);
	if (!ci) return 0;
	hpctk_svb_block blk = hpctk_svb_decode(&csvb_desc, ci, i, 0);
	return hv_add_sat(hv_mul_sat(blk.nvalues, 12), hv_mul_sat(blk.nidx, 10));
}

static void cctdb_check_file(const hv_options *opt, hv_blob *b, hv_report *r)
{
	hpctk_cctdb c;
	bool ok = hpctk_cctdb_open(opt, b, r, HV_EDITION_AUTO, &c);
	hpctk_name_file(r, &c.h, opt->edition); /* a lone cct.db shows no edition; named only when forced */
	if (ok) hpctk_cctdb_walk(&c, r, NULL);
}

const hv_format hv_format_hpctk_cctdb = {.name = "hpctoolkit cct.db", .file_name = "cct.db",
					.sniff = cctdb_sniff, .check = cctdb_check_file};
