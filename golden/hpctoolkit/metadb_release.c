/* meta.db writer, release edition: the Performance Metrics section with
 * scope-instance arrays and the Context Tree section with entry points
 * (FORMATS-v4.0-release; research/hpctoolkit.md §3.1). */
#include <stdlib.h>
#include <string.h>

#include "metadb_writer.h"

/* Junk in [from, to) of an element at a newer minor (gaps and the bytes
 * past the 4.0 END); zero otherwise, as the buffer starts zeroed. */
static void junk_range(mdb_writer *w, size_t at, size_t from, size_t to)
{
	if (!w->sec.oom && to > from) mdb_fill_junk(w, w->sec.data + at + from, to - from);
}

static uint64_t scope_ptr(const mdb_writer *w, unsigned scope)
{
	return mdb_abs(w, MDB_METRICS, w->scopes_arr + (uint64_t)scope * w->sz_scope);
}

void mdb_write_metrics_release(mdb_writer *w)
{
	const hpctk_model *m = w->m;
	uint64_t *form = calloc(2 * (size_t)m->n_metrics + 2, sizeof(uint64_t)); /* "$$", "$$^2" per metric */
	if (!form) {
		w->sec.oom = true;
		return;
	}
	size_t h = mdb_alloc(w, 0x1b, 8);
	if (w->lay.gap) junk_range(w, mdb_alloc(w, w->lay.gap, 1), 0, w->lay.gap);
	if (!w->lay.metrics_old_order) {
		/* hpcprof ≥ 2023.05: scopes, then per metric its PSI array, its
		 * formulas and SS array and its name; the {MD} array last. */
		for (unsigned s = 0; s < m->n_scopes; s++) w->scope_name[s] = mdb_str(w, m->scopes[s].name);
		w->scopes_arr = mdb_alloc(w, (size_t)m->n_scopes * w->sz_scope, 8);
		for (uint32_t k = 0; k < m->n_metrics; k++) {
			w->inst_arr[k] = mdb_alloc(w, (size_t)m->metrics[k].n_insts * w->sz_inst, 8);
			form[2 * k] = mdb_str(w, "$$");
			form[2 * k + 1] = mdb_str(w, "$$^2");
			w->sum_arr[k] = mdb_alloc(w, (size_t)m->metrics[k].n_summaries * w->sz_summary, 8);
			w->metric_name[k] = mdb_str(w, m->metrics[k].name);
		}
		w->metrics_arr = mdb_alloc(w, (size_t)m->n_metrics * w->sz_metric, 8);
	} else {
		/* Older hpcprof: all arrays first, strings last. */
		w->scopes_arr = mdb_alloc(w, (size_t)m->n_scopes * w->sz_scope, 8);
		w->metrics_arr = mdb_alloc(w, (size_t)m->n_metrics * w->sz_metric, 8);
		for (uint32_t k = 0; k < m->n_metrics; k++) {
			w->inst_arr[k] = mdb_alloc(w, (size_t)m->metrics[k].n_insts * w->sz_inst, 8);
			w->sum_arr[k] = mdb_alloc(w, (size_t)m->metrics[k].n_summaries * w->sz_summary, 8);
		}
		for (unsigned s = 0; s < m->n_scopes; s++) w->scope_name[s] = mdb_str(w, m->scopes[s].name);
		for (uint32_t k = 0; k < m->n_metrics; k++) {
			w->metric_name[k] = mdb_str(w, m->metrics[k].name);
			form[2 * k] = mdb_str(w, "$$");
			form[2 * k + 1] = mdb_str(w, "$$^2");
		}
	}
	if (w->sec.oom) {
		free(form);
		return;
	}
	mdb_put64(w, h + 0x00, mdb_abs(w, MDB_METRICS, w->metrics_arr));
	mdb_put32(w, h + 0x08, m->n_metrics);
	mdb_put8(w, h + 0x0c, (uint8_t)w->sz_metric);
	mdb_put8(w, h + 0x0d, (uint8_t)w->sz_inst);
	mdb_put8(w, h + 0x0e, (uint8_t)w->sz_summary);
	junk_range(w, h, 0x0f, 0x10);
	mdb_put64(w, h + 0x10, mdb_abs(w, MDB_METRICS, w->scopes_arr));
	mdb_put16(w, h + 0x18, m->n_scopes);
	mdb_put8(w, h + 0x1a, (uint8_t)w->sz_scope);
	for (unsigned s = 0; s < m->n_scopes; s++) {
		size_t e = w->scopes_arr + (size_t)s * w->sz_scope;
		mdb_put64(w, e + 0x00, mdb_abs(w, MDB_METRICS, w->scope_name[s]));
		mdb_put8(w, e + 0x08, m->scopes[s].type);
		mdb_put8(w, e + 0x09, m->scopes[s].prop_index);
		junk_range(w, e, 0x0a, w->sz_scope);
	}
	for (uint32_t k = 0; k < m->n_metrics; k++) {
		const hpctk_metric *md = &m->metrics[k];
		for (unsigned i = 0; i < md->n_insts; i++) {
			size_t e = w->inst_arr[k] + (size_t)i * w->sz_inst;
			mdb_put64(w, e + 0x00, scope_ptr(w, md->insts[i].scope));
			mdb_put16(w, e + 0x08, md->insts[i].prop_metric_id);
			junk_range(w, e, 0x0a, w->sz_inst);
		}
		for (unsigned i = 0; i < md->n_summaries; i++) {
			const hpctk_summary *su = &md->summaries[i];
			size_t e = w->sum_arr[k] + (size_t)i * w->sz_summary;
			mdb_put64(w, e + 0x00, scope_ptr(w, su->scope));
			mdb_put64(w, e + 0x08, mdb_abs(w, MDB_METRICS, form[2 * k + (su->formula[2] == '^')]));
			mdb_put8(w, e + 0x10, su->combine);
			junk_range(w, e, 0x11, 0x12);
			mdb_put16(w, e + 0x12, su->stat_metric_id);
			junk_range(w, e, 0x14, w->sz_summary);
		}
		size_t e = w->metrics_arr + (size_t)k * w->sz_metric;
		mdb_put64(w, e + 0x00, mdb_abs(w, MDB_METRICS, w->metric_name[k]));
		mdb_put64(w, e + 0x08, mdb_abs(w, MDB_METRICS, w->inst_arr[k]));
		mdb_put64(w, e + 0x10, mdb_abs(w, MDB_METRICS, w->sum_arr[k]));
		mdb_put16(w, e + 0x18, md->n_insts);
		mdb_put16(w, e + 0x1a, md->n_summaries);
		junk_range(w, e, 0x1c, w->sz_metric);
	}
	free(form);
}

/* Children arrays of the tree. The model keeps every sibling group as a
 * contiguous index range in breadth-first order, so the groups tile the
 * context array: placing them in index order (or in reverse group order,
 * deepest first like hpcprof) is one linear pass, whatever the depth. */
void mdb_place_children(mdb_writer *w, unsigned ctx_fixed)
{
	const hpctk_model *m = w->m;
	uint64_t total = 0;
	for (uint32_t i = 0; i < m->n_ctx; i++) {
		unsigned extra = w->lay.extra_flex_every && i % w->lay.extra_flex_every == w->lay.extra_flex_every - 1;
		w->ctx_size[i] = ctx_fixed + 8u * (m->ctx[i].n_flex_words + extra);
		total += w->ctx_size[i];
	}
	size_t start = mdb_alloc(w, (size_t)total, 8);
	if (w->sec.oom) return;
	if (!w->lay.children_reverse) {
		uint64_t at = start;
		for (uint32_t i = 0; i < m->n_ctx; i++) {
			w->ctx_at[i] = at;
			at += w->ctx_size[i];
		}
		return;
	}
	/* Reverse group order: walk the groups from the last one (children of
	 * the deepest parents) to the first (children of the entry points). */
	uint64_t at = start;
	uint32_t end = m->n_ctx;
	while (end > 0) {
		/* The group ending at `end` starts where the parent changes. */
		uint32_t first = end - 1;
		while (first > 0 && m->ctx[first - 1].parent == m->ctx[end - 1].parent &&
		       (m->ctx[end - 1].parent != HPCTK_NONE || m->ctx[first - 1].entry == m->ctx[end - 1].entry))
			first--;
		for (uint32_t i = first; i < end; i++) {
			w->ctx_at[i] = at;
			at += w->ctx_size[i];
		}
		end = first;
	}
}

/* Size in bytes of a sibling group [first, first+n) as placed. */
uint64_t mdb_group_size(const mdb_writer *w, uint32_t first, uint32_t n)
{
	if (n == 0) return 0;
	return w->ctx_at[first + n - 1] + w->ctx_size[first + n - 1] - w->ctx_at[first];
}

/* pChildren of a sibling group: 0 when empty, unless the layout mimics
 * hpcprof, which leaves its write cursor there (the position just past
 * the element itself) with szChildren 0. */
uint64_t mdb_children_ptr(const mdb_writer *w, uint32_t first, uint32_t n, uint64_t self_end)
{
	if (n) return mdb_abs(w, MDB_CONTEXT, w->ctx_at[first]);
	return w->lay.leaf_cursor ? mdb_abs(w, MDB_CONTEXT, self_end) : 0;
}

/* The flex words of a context (both editions), at relative offset `at`. */
void mdb_write_flex(mdb_writer *w, size_t at, const hpctk_ctx *c, unsigned words_written)
{
	const hpctk_model *m = w->m;
	unsigned word = 0;
	if (c->flags & HPCTK_CTX_HAS_FUNCTION)
		mdb_put64(w, at + 8 * word++,
			  mdb_abs(w, MDB_FUNCTIONS, w->functions_arr + (uint64_t)c->function * w->sz_function));
	if (c->flags & HPCTK_CTX_HAS_SRCLOC) {
		mdb_put64(w, at + 8 * word++, mdb_abs(w, MDB_FILES, w->files_arr + (uint64_t)c->file * w->sz_file));
		mdb_put32(w, at + 8 * word, c->line);
		junk_range(w, at + 8 * word, 4, 8); /* the rest of line's word: a later u32 could go there */
		word++;
	}
	if (c->flags & HPCTK_CTX_HAS_POINT) {
		mdb_put64(w, at + 8 * word++, mdb_abs(w, MDB_MODULES, w->modules_arr + (uint64_t)c->module * w->sz_module));
		mdb_put64(w, at + 8 * word++, c->offset);
	}
	(void)m;
	junk_range(w, at, 8 * word, 8 * words_written); /* unused trailing words */
}

void mdb_write_context_release(mdb_writer *w)
{
	const hpctk_model *m = w->m;
	size_t h = mdb_alloc(w, 0x0b, 8);
	if (w->lay.gap) junk_range(w, mdb_alloc(w, w->lay.gap, 1), 0, w->lay.gap);
	if (w->lay.entries_first) w->entries_arr = mdb_alloc(w, (size_t)m->n_entries * w->sz_entry, 8);
	mdb_place_children(w, 0x20);
	if (!w->lay.entries_first) w->entries_arr = mdb_alloc(w, (size_t)m->n_entries * w->sz_entry, 8);
	if (w->sec.oom) return;
	mdb_put64(w, h + 0x00, mdb_abs(w, MDB_CONTEXT, w->entries_arr));
	mdb_put16(w, h + 0x08, m->n_entries);
	mdb_put8(w, h + 0x0a, (uint8_t)w->sz_entry);
	for (unsigned e = 0; e < m->n_entries; e++) {
		const hpctk_entry *en = &m->entries[e];
		size_t at = w->entries_arr + (size_t)e * w->sz_entry;
		mdb_put64(w, at + 0x00, mdb_group_size(w, en->first_child, en->n_children));
		mdb_put64(w, at + 0x08, en->n_children ? mdb_abs(w, MDB_CONTEXT, w->ctx_at[en->first_child]) : 0);
		mdb_put32(w, at + 0x10, en->ctx_id);
		mdb_put16(w, at + 0x14, en->kind);
		junk_range(w, at, 0x16, 0x18);
		mdb_put64(w, at + 0x18, mdb_abs(w, MDB_STRINGS, w->str_entry[e]));
		junk_range(w, at, 0x20, w->sz_entry);
	}
	for (uint32_t i = 0; i < m->n_ctx; i++) {
		const hpctk_ctx *c = &m->ctx[i];
		size_t at = w->ctx_at[i];
		mdb_put64(w, at + 0x00, mdb_group_size(w, c->first_child, c->n_children));
		mdb_put64(w, at + 0x08, mdb_children_ptr(w, c->first_child, c->n_children, at + w->ctx_size[i]));
		mdb_put32(w, at + 0x10, c->ctx_id);
		mdb_put8(w, at + 0x14, c->flags | mdb_newer_flag_bits(w, i));
		mdb_put8(w, at + 0x15, c->relation);
		mdb_put8(w, at + 0x16, c->lexical_type);
		unsigned words = (w->ctx_size[i] - 0x20) / 8;
		mdb_put8(w, at + 0x17, (uint8_t)words);
		/* a newer minor may define more propagation scopes, and bits for them */
		mdb_put16(w, at + 0x18, (uint16_t)(c->propagation | (mdb_newer_flag_bits(w, i) ? 0x8000u : 0)));
		junk_range(w, at, 0x1a, 0x20);
		mdb_write_flex(w, at + 0x20, c, words);
	}
}
