/* meta.db writer, draft edition (FORMATS-v4.0-draft): the Metrics section
 * nests {MD} -> {PS}[nScopes] -> {SS}[nSummaries], and the Context Tree
 * section has szRoots/pRoots and {Ctx} with flex at 0x18. The model's entry
 * points become root contexts (see model.h). */
#include <stdlib.h>
#include <string.h>

#include "metadb_writer.h"

static void junk_range(mdb_writer *w, size_t at, size_t from, size_t to)
{
	if (!w->sec.oom && to > from) mdb_fill_junk(w, w->sec.data + at + from, to - from);
}

/* Index of the first {SS} of metric k's scope instance i in the flattened
 * draft_sum_arr (at most 4 instances per metric). */
static size_t ss_slot(uint32_t k, unsigned i) { return (size_t)k * 4 + i; }

static void first_summary_of(const hpctk_metric *md, unsigned inst, unsigned *first, unsigned *n)
{
	*first = 0;
	*n = 0;
	for (unsigned j = 0; j < md->n_summaries; j++)
		if (md->summaries[j].inst == inst) {
			if (*n == 0) *first = j;
			(*n)++;
		}
}

void mdb_write_metrics_draft(mdb_writer *w)
{
	const hpctk_model *m = w->m;
	uint64_t form[2] = {0, 0};
	size_t h = mdb_alloc(w, 0x0f, 8);
	if (w->lay.gap) junk_range(w, mdb_alloc(w, w->lay.gap, 1), 0, w->lay.gap);
	bool strings_first = !w->lay.metrics_old_order;
	if (strings_first) {
		for (unsigned s = 0; s < m->n_scopes; s++) w->scope_name[s] = mdb_str(w, m->scopes[s].name);
		form[0] = mdb_str(w, "$$");
		form[1] = mdb_str(w, "$$^2");
		for (uint32_t k = 0; k < m->n_metrics; k++) w->metric_name[k] = mdb_str(w, m->metrics[k].name);
	}
	w->metrics_arr = mdb_alloc(w, (size_t)m->n_metrics * w->sz_metric, 8);
	for (uint32_t k = 0; k < m->n_metrics; k++) {
		const hpctk_metric *md = &m->metrics[k];
		w->inst_arr[k] = mdb_alloc(w, (size_t)md->n_insts * w->sz_scope, 8);
		for (unsigned i = 0; i < md->n_insts; i++) {
			unsigned first, n;
			first_summary_of(md, i, &first, &n);
			w->draft_sum_arr[ss_slot(k, i)] = mdb_alloc(w, (size_t)n * w->sz_summary, 8);
		}
	}
	if (!strings_first) {
		for (uint32_t k = 0; k < m->n_metrics; k++) w->metric_name[k] = mdb_str(w, m->metrics[k].name);
		for (unsigned s = 0; s < m->n_scopes; s++) w->scope_name[s] = mdb_str(w, m->scopes[s].name);
		form[0] = mdb_str(w, "$$");
		form[1] = mdb_str(w, "$$^2");
	}
	if (w->sec.oom) return;
	mdb_put64(w, h + 0x00, mdb_abs(w, MDB_METRICS, w->metrics_arr));
	mdb_put32(w, h + 0x08, m->n_metrics);
	mdb_put8(w, h + 0x0c, (uint8_t)w->sz_metric);
	mdb_put8(w, h + 0x0d, (uint8_t)w->sz_scope);
	mdb_put8(w, h + 0x0e, (uint8_t)w->sz_summary);
	for (uint32_t k = 0; k < m->n_metrics; k++) {
		const hpctk_metric *md = &m->metrics[k];
		size_t e = w->metrics_arr + (size_t)k * w->sz_metric;
		mdb_put64(w, e + 0x00, mdb_abs(w, MDB_METRICS, w->metric_name[k]));
		mdb_put16(w, e + 0x08, md->n_insts);
		junk_range(w, e, 0x0a, 0x10);
		mdb_put64(w, e + 0x10, mdb_abs(w, MDB_METRICS, w->inst_arr[k]));
		junk_range(w, e, 0x18, w->sz_metric);
		for (unsigned i = 0; i < md->n_insts; i++) {
			unsigned first, n;
			first_summary_of(md, i, &first, &n);
			size_t ps = w->inst_arr[k] + (size_t)i * w->sz_scope;
			size_t ssa = w->draft_sum_arr[ss_slot(k, i)];
			mdb_put64(w, ps + 0x00, mdb_abs(w, MDB_METRICS, w->scope_name[md->insts[i].scope]));
			mdb_put16(w, ps + 0x08, (uint16_t)n);
			mdb_put16(w, ps + 0x0a, md->insts[i].prop_metric_id);
			junk_range(w, ps, 0x0c, 0x10);
			mdb_put64(w, ps + 0x10, mdb_abs(w, MDB_METRICS, ssa));
			junk_range(w, ps, 0x18, w->sz_scope);
			for (unsigned j = 0; j < n; j++) {
				const hpctk_summary *su = &md->summaries[first + j];
				size_t ss = ssa + (size_t)j * w->sz_summary;
				mdb_put64(w, ss + 0x00, mdb_abs(w, MDB_METRICS, form[su->formula[2] == '^']));
				mdb_put8(w, ss + 0x08, su->combine);
				junk_range(w, ss, 0x09, 0x0a);
				mdb_put16(w, ss + 0x0a, su->stat_metric_id);
				junk_range(w, ss, 0x0c, w->sz_summary);
			}
		}
	}
}

/* A draft {Ctx}: szChildren, pChildren, ctxId, flags, relation,
 * lexicalType, nFlexWords, flex at 0x18. */
static void put_ctx_head(mdb_writer *w, size_t at, uint64_t sz_children, uint64_t p_children, uint32_t id, uint8_t flags,
			 uint8_t rel, uint8_t lex, uint8_t words)
{
	mdb_put64(w, at + 0x00, sz_children);
	mdb_put64(w, at + 0x08, p_children);
	mdb_put32(w, at + 0x10, id);
	mdb_put8(w, at + 0x14, flags);
	mdb_put8(w, at + 0x15, rel);
	mdb_put8(w, at + 0x16, lex);
	mdb_put8(w, at + 0x17, words);
}

void mdb_write_context_draft(mdb_writer *w)
{
	const hpctk_model *m = w->m;
	size_t h = mdb_alloc(w, 0x10, 8);
	if (w->lay.gap) junk_range(w, mdb_alloc(w, w->lay.gap, 1), 0, w->lay.gap);
	/* Roots: one {Ctx} per entry point (an unknown function reached by a
	 * call), an unused flex word at a newer minor. */
	unsigned root_words = w->lay.extra_flex_every ? 1 : 0;
	unsigned root_size = 0x18 + 8 * root_words;
	w->roots_size = (uint64_t)m->n_entries * root_size;
	if (w->lay.entries_first) w->entries_arr = mdb_alloc(w, (size_t)w->roots_size, 8);
	mdb_place_children(w, 0x18);
	if (!w->lay.entries_first) w->entries_arr = mdb_alloc(w, (size_t)w->roots_size, 8);
	if (w->sec.oom) return;
	mdb_put64(w, h + 0x00, w->roots_size);
	mdb_put64(w, h + 0x08, w->roots_size ? mdb_abs(w, MDB_CONTEXT, w->entries_arr) : 0);
	for (unsigned e = 0; e < m->n_entries; e++) {
		const hpctk_entry *en = &m->entries[e];
		size_t at = w->entries_arr + (size_t)e * root_size;
		put_ctx_head(w, at, mdb_group_size(w, en->first_child, en->n_children),
			     en->n_children ? mdb_abs(w, MDB_CONTEXT, w->ctx_at[en->first_child]) : 0, en->ctx_id, 0,
			     HPCTK_REL_CALL, HPCTK_LEX_FUNCTION, (uint8_t)root_words);
		junk_range(w, at, 0x18, root_size);
	}
	for (uint32_t i = 0; i < m->n_ctx; i++) {
		const hpctk_ctx *c = &m->ctx[i];
		size_t at = w->ctx_at[i];
		unsigned words = (w->ctx_size[i] - 0x18) / 8;
		put_ctx_head(w, at, mdb_group_size(w, c->first_child, c->n_children),
			     mdb_children_ptr(w, c->first_child, c->n_children, at + w->ctx_size[i]), c->ctx_id,
			     (uint8_t)(c->flags | mdb_newer_flag_bits(w, i)),
			     c->relation, c->lexical_type, (uint8_t)words);
		mdb_write_flex(w, at + 0x18, c, words);
	}
}
