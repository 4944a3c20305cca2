/* The shared HPCToolkit database model (golden/hpctoolkit/model.h) keeps the
 * promises the four writers rely on: shape as asked, a real tree with
 * contiguous sibling groups, unique non-zero ctxIds, unique metric ids per
 * kind, sparse values that are finite and non-zero, summaries that are the
 * stated statistic of the thread values, sorted iteration, trace samples
 * in time order inside the advertised bounds, and determinism. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../golden/hpctoolkit/model.h"
#include "tap.h"

static bool build(hpctk_model *m, unsigned contexts, unsigned depth, uint64_t seed, enum hv_edition ed)
{
	gen_params p;
	gen_params_default(&p);
	p.contexts = contexts;
	p.depth = depth;
	p.seed = seed;
	p.edition = ed;
	char err[256] = "";
	int rc = hpctk_model_build(m, &p, err, sizeof err);
	CHECK(rc == 0, "model %u/%u seed %llu: %s", contexts, depth, (unsigned long long)seed, err);
	return rc == 0;
}

/* Tree shape: parents precede children, sibling groups contiguous and
 * consistent with first_child/n_children, depth exactly as asked. */
static void check_tree(const hpctk_model *m, unsigned want_n, unsigned want_depth)
{
	CHECK(m->n_ctx == want_n, "n_ctx %u, want %u", m->n_ctx, want_n);
	CHECK(m->depth == want_depth, "depth %u, want %u", m->depth, want_depth);
	CHECK(m->n_entries >= 1 && m->n_ctx_ids == (size_t)m->n_entries + m->n_ctx, "entries/ids");
	uint32_t *level = calloc(m->n_ctx + 1, sizeof *level);
	uint64_t covered = 0;
	uint32_t max_level = 0;
	bool ok = level != NULL;
	for (unsigned e = 0; ok && e < m->n_entries; e++) {
		const hpctk_entry *en = &m->entries[e];
		ok = en->n_children > 0 && en->first_child + en->n_children <= m->n_ctx;
		for (uint32_t k = 0; ok && k < en->n_children; k++) {
			const hpctk_ctx *c = &m->ctx[en->first_child + k];
			ok = c->parent == HPCTK_NONE && c->entry == e;
			level[en->first_child + k] = 1;
		}
		covered += en->n_children;
	}
	CHECK(ok, "entry point children are contiguous top-level contexts");
	ok = level != NULL;
	for (uint32_t i = 0; ok && i < m->n_ctx; i++) {
		const hpctk_ctx *c = &m->ctx[i];
		if (c->parent != HPCTK_NONE) {
			ok = c->parent < i && c->entry == m->ctx[c->parent].entry;
			level[i] = level[c->parent] + 1;
		}
		if (level[i] > max_level) max_level = level[i];
		if (ok && c->n_children) {
			ok = c->first_child > i && c->first_child + c->n_children <= m->n_ctx;
			for (uint32_t k = 0; ok && k < c->n_children; k++) ok = m->ctx[c->first_child + k].parent == i;
			covered += c->n_children;
		}
		unsigned need = (c->flags & 1 ? 1u : 0u) + (c->flags & 2 ? 2u : 0u) + (c->flags & 4 ? 2u : 0u);
		if (ok) ok = c->n_flex_words == need && c->relation <= 2 && c->lexical_type <= 3 && (c->flags & ~7u) == 0;
		if (ok) ok = c->propagation == (c->relation == HPCTK_REL_LEXICAL ? 1 : 0);
		if (ok && (c->flags & 1)) ok = c->function < m->n_functions;
		if (ok && (c->flags & 2)) ok = c->file < m->n_files;
		if (ok && (c->flags & 4)) ok = c->module < m->n_modules;
		if (ok && c->lexical_type == HPCTK_LEX_LOOP) ok = c->flags & 2;
		if (ok && c->lexical_type == HPCTK_LEX_LINE) ok = c->flags & 2;
		if (ok && c->lexical_type == HPCTK_LEX_INSTRUCTION) ok = c->flags & 4;
		if (!ok) printf("    context %u is inconsistent\n", i);
	}
	CHECK(ok, "every context: parent before it, children its own, fields consistent with flags");
	CHECK(covered == m->n_ctx, "sibling groups cover every context exactly once (%llu of %u)", (unsigned long long)covered,
	      m->n_ctx);
	CHECK(max_level == want_depth, "deepest context at level %u, want %u", max_level, want_depth);
	free(level);
	bool ids_ok = m->ctx_ids_sorted[0] > 0;
	for (size_t i = 1; i < m->n_ctx_ids; i++) ids_ok &= m->ctx_ids_sorted[i - 1] < m->ctx_ids_sorted[i];
	CHECK(ids_ok && m->ctx_ids_sorted[m->n_ctx_ids - 1] == m->max_ctx_id, "ctxIds unique, non-zero, max recorded");
	CHECK(m->max_ctx_id > m->n_ctx_ids, "ctxIds are not dense (max %u, %zu ids)", m->max_ctx_id, m->n_ctx_ids);
}

static void check_objects(const hpctk_model *m)
{
	bool ok = true;
	for (uint32_t i = 0; i < m->n_functions; i++) {
		const hpctk_function *f = &m->functions[i];
		ok &= f->name || f->module != HPCTK_NONE || f->file != HPCTK_NONE;
		ok &= f->module == HPCTK_NONE || f->module < m->n_modules;
		ok &= f->file == HPCTK_NONE || f->file < m->n_files;
	}
	CHECK(ok, "functions: an identity each, references in range");
	ok = m->n_kinds == 8 && strcmp(m->kind_names[0], "SUMMARY") == 0;
	CHECK(ok, "eight identifier kinds, SUMMARY first");
	for (unsigned s = 0; s < m->n_scopes; s++)
		ok &= m->scopes[s].type == HPCTK_SCOPE_TRANSITIVE ? m->scopes[s].prop_index < 16 : m->scopes[s].prop_index == 255;
	CHECK(ok, "propagationIndex < 16 for transitive scopes, 255 otherwise");
	for (size_t i = 1; i < m->n_prop_metric_ids; i++) ok &= m->prop_metric_ids[i - 1] < m->prop_metric_ids[i];
	for (size_t i = 1; i < m->n_stat_metric_ids; i++) ok &= m->stat_metric_ids[i - 1] < m->stat_metric_ids[i];
	CHECK(ok, "propMetricIds unique and sorted; statMetricIds unique and sorted");
	for (uint32_t k = 0; k < m->n_metrics; k++) {
		const hpctk_metric *md = &m->metrics[k];
		ok &= md->n_insts >= 1 && md->n_summaries >= 1;
		for (unsigned j = 0; j < md->n_summaries; j++)
			ok &= md->summaries[j].inst < md->n_insts &&
			      md->insts[md->summaries[j].inst].scope == md->summaries[j].scope && md->summaries[j].combine <= 2;
	}
	CHECK(ok, "every summary summarises one of its metric's scope instances");
}

/* Sparse values: the iterator is sorted and agrees with hpctk_value; the
 * summary profile is the stated statistic over the thread profiles. */
static void check_values(const hpctk_model *m)
{
	for (uint32_t prof = 0; prof < m->n_profiles && prof < 3; prof++) {
		hpctk_value_iter it;
		hpctk_values_begin(m, prof, &it);
		uint32_t ctx, pctx = 0;
		uint16_t mid, pmid = 0;
		double v;
		size_t n = 0;
		bool sorted = true, good = true, global = false;
		while (hpctk_values_next(&it, &ctx, &mid, &v)) {
			if (n > 0) sorted &= ctx > pctx || (ctx == pctx && mid > pmid);
			double again = 0;
			good &= isfinite(v) && v != 0.0 && hpctk_value(m, prof, ctx, mid, &again) && again == v;
			good &= hpctk_ctx_active(m, prof, ctx);
			global |= ctx == 0;
			pctx = ctx;
			pmid = mid;
			n++;
		}
		CHECK(n > 0 && sorted, "profile %u: %zu values sorted by (ctxId, metricId)", prof, n);
		CHECK(good, "profile %u: values finite, non-zero, equal to hpctk_value", prof);
		CHECK(global, "profile %u: the global context 0 has values", prof);
	}
	/* Summary of the first statistic of metric 0 at the global context. */
	const hpctk_metric *md = &m->metrics[0];
	const hpctk_summary *su = &md->summaries[0];
	double acc = 0, x, s;
	bool any = false;
	for (uint32_t t = 1; t < m->n_profiles; t++) {
		if (!hpctk_value(m, t, 0, md->insts[su->inst].prop_metric_id, &x)) continue;
		if (strcmp(su->formula, "$$^2") == 0) x *= x;
		acc = !any ? x : su->combine == HPCTK_COMBINE_SUM ? acc + x : su->combine == HPCTK_COMBINE_MIN ? fmin(acc, x) : fmax(acc, x);
		any = true;
	}
	CHECK(any && hpctk_value(m, 0, 0, su->stat_metric_id, &s) && s == acc,
	      "summary statistic = %s over threads of %s", su->combine == 0 ? "sum" : su->combine == 1 ? "min" : "max",
	      su->formula);
	CHECK(!hpctk_value(m, 1, 0, 0xffff, &x) && !hpctk_value(m, m->n_profiles, 0, 0, &x), "unknown ids have no value");
}

static bool is_ctx_id(const hpctk_model *m, uint32_t id)
{
	size_t lo = 0, hi = m->n_ctx_ids;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->ctx_ids_sorted[mid] < id) lo = mid + 1;
		else hi = mid;
	}
	return lo < m->n_ctx_ids && m->ctx_ids_sorted[lo] == id;
}

static void check_traces(const hpctk_model *m)
{
	uint64_t lo, hi;
	hpctk_trace_bounds(m, &lo, &hi);
	bool ok = true;
	size_t total = 0;
	for (uint32_t prof = 1; prof < m->n_profiles; prof++) {
		hpctk_trace_iter it;
		hpctk_trace_begin(m, prof, &it);
		uint64_t t, pt = 0;
		uint32_t id, pid = 1;
		size_t n = 0;
		while (hpctk_trace_next(&it, &t, &id)) {
			ok &= t >= lo && t <= hi && (n == 0 || t >= pt);
			ok &= id == 0 ? pid != 0 : is_ctx_id(m, id);
			pt = t;
			pid = id;
			n++;
		}
		ok &= n == m->profiles[prof].trace_len;
		total += n;
	}
	hpctk_trace_iter none;
	uint64_t t;
	uint32_t id;
	hpctk_trace_begin(m, 0, &none);
	ok &= !hpctk_trace_next(&none, &t, &id);
	CHECK(ok && total > 0, "traces: %zu samples, times non-decreasing within bounds, ctxIds known, no double blanks", total);
	ok = m->profiles[0].is_summary && m->profiles[0].n_ids == 0;
	for (uint32_t p = 1; p < m->n_profiles; p++) ok &= !m->profiles[p].is_summary && m->profiles[p].n_ids >= 1;
	CHECK(ok, "profile 0 is the summary; threads have id tuples");
}

static int cmp_id(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	const unsigned shapes[][2] = {{0, 0}, {1, 1}, {200, 12}, {5000, 5000}, {20000, 2}};
	for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			hpctk_model m;
			if (!build(&m, shapes[s][0], shapes[s][1], seed, seed == 2 ? HV_EDITION_DRAFT : HV_EDITION_RELEASE)) continue;
			unsigned n = shapes[s][0] ? shapes[s][0] : HPCTK_DEFAULT_CONTEXTS;
			check_tree(&m, n, shapes[s][1] ? shapes[s][1] : HPCTK_DEFAULT_DEPTH);
			check_objects(&m);
			check_values(&m);
			check_traces(&m);
			hpctk_model_free(&m);
		}
	/* Determinism: same seed, same model; another seed, another one. */
	hpctk_model a, b, c;
	if (build(&a, 300, 9, 7, HV_EDITION_RELEASE) && build(&b, 300, 9, 7, HV_EDITION_RELEASE) &&
	    build(&c, 300, 9, 8, HV_EDITION_RELEASE)) {
		CHECK(memcmp(a.ctx_ids_sorted, b.ctx_ids_sorted, a.n_ctx_ids * 4) == 0 &&
			      memcmp(a.ctx, b.ctx, a.n_ctx * sizeof *a.ctx) == 0,
		      "same seed, same model");
		CHECK(memcmp(a.ctx_ids_sorted, c.ctx_ids_sorted, a.n_ctx_ids * 4) != 0, "another seed, another model");
		hpctk_model_free(&a);
		hpctk_model_free(&b);
		hpctk_model_free(&c);
	}
	/* --ctx-ids=levels: the same tree, ids falling in breadth-first order
	 * (entries, then the contexts level by level), so every child's id is
	 * below its parent's, and still unique, non-zero and gappy. */
	hpctk_model t;
	gen_params tp;
	gen_params_default(&tp);
	tp.contexts = 5000;
	tp.depth = 40;
	tp.ctx_ids = GEN_IDS_LEVELS;
	char terr[256] = "";
	int trc = hpctk_model_build(&t, &tp, terr, sizeof terr);
	CHECK(trc == 0, "tree-ordered ids: %s", terr);
	if (trc == 0) {
		check_tree(&t, 5000, 40);
		check_values(&t);
		bool falling = true, below = true;
		uint32_t prev = UINT32_MAX;
		for (uint32_t i = 0; i < t.n_entries + t.n_ctx; i++) {
			uint32_t id = i < t.n_entries ? t.entries[i].ctx_id : t.ctx[i - t.n_entries].ctx_id;
			falling &= id < prev;
			prev = id;
		}
		for (uint32_t i = 0; i < t.n_ctx; i++) {
			uint32_t par = t.ctx[i].parent;
			uint32_t pid = par == HPCTK_NONE ? t.entries[t.ctx[i].entry].ctx_id : t.ctx[par].ctx_id;
			below &= t.ctx[i].ctx_id < pid;
		}
		CHECK(falling && below, "tree-ordered ids fall in breadth-first order (falling %d, child below parent %d)",
		      falling, below);
		hpctk_model_free(&t);
	}
	/* --ctx-ids=postorder: every subtree's ids are one range of the sorted
	 * ids (as many as its contexts), its root's the last of it */
	gen_params pp;
	gen_params_default(&pp);
	pp.contexts = 5000;
	pp.depth = 40;
	pp.ctx_ids = GEN_IDS_POSTORDER;
	hpctk_model po;
	char perr[256] = "";
	int prc = hpctk_model_build(&po, &pp, perr, sizeof perr);
	CHECK(prc == 0, "post-order ids: %s", perr);
	if (prc == 0) {
		check_tree(&po, 5000, 40);
		check_values(&po);
		const uint32_t ne = po.n_entries, nt = ne + po.n_ctx;
		uint32_t *lo = malloc(nt * sizeof *lo), *size = malloc(nt * sizeof *size);
		/* contexts are in level order: children after parents, so a
		 * backward pass sees every child before its parent */
		for (uint32_t i = 0; i < nt; i++) {
			lo[i] = i < ne ? po.entries[i].ctx_id : po.ctx[i - ne].ctx_id;
			size[i] = 1;
		}
		for (uint32_t i = nt; i-- > ne;) {
			uint32_t par = po.ctx[i - ne].parent, up = par == HPCTK_NONE ? po.ctx[i - ne].entry : ne + par;
			lo[up] = lo[i] < lo[up] ? lo[i] : lo[up];
			size[up] += size[i];
		}
		bool ranges = true;
		for (uint32_t i = 0; i < nt; i++) {
			uint32_t id = i < ne ? po.entries[i].ctx_id : po.ctx[i - ne].ctx_id;
			const uint32_t *at = bsearch(&lo[i], po.ctx_ids_sorted, po.n_ctx_ids, 4, cmp_id);
			const uint32_t *to = bsearch(&id, po.ctx_ids_sorted, po.n_ctx_ids, 4, cmp_id);
			ranges &= at && to && (uint32_t)(to - at) + 1 == size[i];
		}
		CHECK(ranges, "post-order ids: every subtree a range of ids, its root last");
		free(lo);
		free(size);
		hpctk_model_free(&po);
	}
	gen_params p;
	gen_params_default(&p);
	p.contexts = 3;
	p.depth = 4;
	char err[256] = "";
	hpctk_model bad;
	CHECK(hpctk_model_build(&bad, &p, err, sizeof err) != 0 && strstr(err, "depth"), "depth > contexts is refused: %s", err);
	TAP_DONE();
}
