/* --break for meta.db: for every meta.db rule, a file that breaks exactly
 * that rule and nothing else. A break either adjusts the model or layout
 * before writing (prepare) or patches the written bytes (apply), using the
 * positions the writer recorded. */
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "metadb_writer.h"

#define ED_DRAFT 1u
#define ED_RELEASE 2u
#define ED_BOTH 3u

typedef struct mdb_break {
	const char *rule;
	unsigned editions;
	void (*prepare)(mdb_writer *w);
	void (*apply)(mdb_writer *w, uint8_t *d, size_t *len);
} mdb_break;

/* Header slot of section s: size at +0, pointer at +8. */
static size_t slot(int s) { return 0x10 + 16 * (size_t)s; }

/* The section that physically follows s (MDB_NSEC when s is last). */
static int next_section(const mdb_writer *w, int s)
{
	int best = MDB_NSEC;
	for (int t = 0; t < MDB_NSEC; t++)
		if (w->base[t] > w->base[s] && (best == MDB_NSEC || w->base[t] < w->base[best])) best = t;
	return best;
}

/* ---- Helpers for the structure-level breaks ---- */

/* Pointer values outside every section, inside the file header: one for
 * strings, and an 8-aligned one for arrays (so only containment fails). */
#define OUTSIDE 0x20u
#define OUTSIDE_ARR 0x10u

static uint64_t A(const mdb_writer *w, int sec, uint64_t rel) { return w->base[sec] + rel; }
static void put64(uint8_t *d, uint64_t off, uint64_t v) { hv_put_le64(d + off, v); }
static uint64_t get64(const uint8_t *d, uint64_t off) { return hv_le64(d + off); }

#define BREAK(name) static void name(mdb_writer *w, uint8_t *d, size_t *len)
#define UNUSED (void)w, (void)d, (void)len

/* ---- File header and section table ---- */

BREAK(b_truncated) { UNUSED; *len = 0x80; /* cut inside the section table */ }
BREAK(b_magic) { UNUSED; memcpy(d + 10, "mata", 4); }
BREAK(b_major) { UNUSED; d[14] = 5; }
BREAK(b_minor_newer) { UNUSED; d[15] = 3; /* the 4.0 layout is a valid 4.3 layout: only the warning */ }
BREAK(b_footer) { UNUSED; memcpy(d + *len - 8, "_meta.dx", 8); }
/* General holds only its own strings and nothing points into it, so
 * moving or resizing it disturbs no other rule. */
BREAK(b_sec_contained) { UNUSED; put64(d, slot(MDB_GENERAL), *len); /* over the footer, past EOF */ }
static void p_sec_aligned(mdb_writer *w) { w->lay.misalign_section = MDB_GENERAL + 1; }
static void p_general_not_last(mdb_writer *w)
{
	if (w->lay.order[MDB_NSEC - 1] != MDB_GENERAL) return;
	w->lay.order[MDB_NSEC - 1] = w->lay.order[0];
	w->lay.order[0] = MDB_GENERAL;
}
BREAK(b_sec_overlap) /* General grows 8 bytes into the section after it */
{
	UNUSED;
	int nx = next_section(w, MDB_GENERAL);
	if (nx == MDB_NSEC) w->break_failed = true; /* cannot happen: prepare moved General */
	else put64(d, slot(MDB_GENERAL), w->base[nx] - w->base[MDB_GENERAL] + 8);
}

/* Model lookups: the first context / function with a property. */
static uint32_t ctx_where(mdb_writer *w, bool (*pred)(const hpctk_ctx *))
{
	for (uint32_t i = 0; i < w->m->n_ctx; i++)
		if (pred(&w->m->ctx[i])) return i;
	w->break_failed = true; /* e.g. no context with children in a depth-1 tree */
	return 0;
}
static bool has_kids(const hpctk_ctx *c) { return c->n_children > 0; }
static bool is_leaf(const hpctk_ctx *c) { return c->n_children == 0; }
static bool fn_only(const hpctk_ctx *c) { return c->flags == HPCTK_CTX_HAS_FUNCTION && c->n_flex_words == 1; }
static bool has_fn(const hpctk_ctx *c) { return c->flags & HPCTK_CTX_HAS_FUNCTION; }
static bool has_src(const hpctk_ctx *c) { return c->flags & HPCTK_CTX_HAS_SRCLOC; }
static bool has_pt(const hpctk_ctx *c) { return c->flags & HPCTK_CTX_HAS_POINT; }
static bool srcloc_only(const hpctk_ctx *c) { return c->flags == HPCTK_CTX_HAS_SRCLOC; }
static uint64_t ctx_abs(const mdb_writer *w, uint32_t i) { return A(w, MDB_CONTEXT, w->ctx_at[i]); }
/* Byte offset of a flex sub-field of context i (0 pFunction, 1 pFile, 3 pModule). */
static uint64_t flex_abs(const mdb_writer *w, uint32_t i, int field)
{
	const hpctk_ctx *c = &w->m->ctx[i];
	unsigned word = 0;
	if (field > 0 && (c->flags & HPCTK_CTX_HAS_FUNCTION)) word += 1;
	if (field > 1 && (c->flags & HPCTK_CTX_HAS_SRCLOC)) word += 2;
	return ctx_abs(w, i) + (w->draft ? 0x18 : 0x20) + 8 * word;
}
static uint32_t fn_where(mdb_writer *w, int what)
{
	for (uint32_t i = 0; i < w->m->n_functions; i++) {
		const hpctk_function *f = &w->m->functions[i];
		if ((what == 0 && f->name) || (what == 1 && f->module != HPCTK_NONE) || (what == 2 && f->file != HPCTK_NONE))
			return i;
	}
	w->break_failed = true;
	return 0;
}
static uint64_t fn_abs(const mdb_writer *w, uint32_t i) { return A(w, MDB_FUNCTIONS, w->functions_arr + (uint64_t)i * w->sz_function); }
/* Metrics structures of metric 0: {MD}, its first {PSI} (draft {PS}) and first {SS}. */
static uint64_t md0(const mdb_writer *w) { return A(w, MDB_METRICS, w->metrics_arr); }
static uint64_t inst0(const mdb_writer *w) { return A(w, MDB_METRICS, w->inst_arr[0]); }
static uint64_t ss0(const mdb_writer *w) { return A(w, MDB_METRICS, w->draft ? w->draft_sum_arr[0] : w->sum_arr[0]); }
static uint64_t mhdr(const mdb_writer *w) { return w->base[MDB_METRICS]; }


/* ---- Section sizes and edition ---- */
BREAK(b_sec_too_small) { UNUSED; put64(d, slot(MDB_GENERAL), 8); }
/* No metrics, no scopes, no entry points: both layouts read the same. */
BREAK(b_ambiguous)
{
	UNUSED;
	uint64_t mh = mhdr(w), ch = w->base[MDB_CONTEXT];
	hv_put_le32(d + mh + 0x08, 0);
	hv_put_le16(d + mh + 0x18, 0);
	memset(d + ch, 0, 0x10);
}

/* ---- General, IdNames ---- */
BREAK(b_title) { UNUSED; put64(d, w->base[MDB_GENERAL], OUTSIDE); }
BREAK(b_description) { UNUSED; put64(d, w->base[MDB_GENERAL] + 8, OUTSIDE); }
/* 0xff never occurs in UTF-8; the title keeps its length and NUL. */
BREAK(b_string_utf8) { UNUSED; d[get64(d, w->base[MDB_GENERAL])] = 0xff; }
BREAK(b_names_contained) { UNUSED; put64(d, w->base[MDB_IDNAMES], w->base[MDB_GENERAL]); }
BREAK(b_names_aligned) { UNUSED; put64(d, w->base[MDB_IDNAMES], A(w, MDB_IDNAMES, w->names_arr) + 4); }
BREAK(b_name_string) { UNUSED; put64(d, A(w, MDB_IDNAMES, w->names_arr) + 8, OUTSIDE); }

/* ---- Metrics ---- */
BREAK(b_szmetric) { UNUSED; d[mhdr(w) + 0x0c] = (uint8_t)(w->draft ? 0x10 : 0x18); }
BREAK(b_szscope)
{
	UNUSED;
	if (w->draft) d[mhdr(w) + 0x0d] = 0x10;
	else d[mhdr(w) + 0x1a] = 0x08;
}
BREAK(b_szsummary) { UNUSED; d[mhdr(w) + 0x0e] = (uint8_t)(w->draft ? 0x08 : 0x10); }
BREAK(b_szscopeinst) { UNUSED; d[mhdr(w) + 0x0d] = 0x08; }
BREAK(b_metrics_contained) { UNUSED; put64(d, mhdr(w), OUTSIDE_ARR); }
BREAK(b_scopes_contained)
{
	UNUSED;
	if (w->draft) put64(d, md0(w) + 0x10, OUTSIDE_ARR);
	else put64(d, mhdr(w) + 0x10, OUTSIDE_ARR);
}
BREAK(b_scopeinsts_contained) { UNUSED; put64(d, md0(w) + 0x08, OUTSIDE_ARR); }
BREAK(b_summaries_contained)
{
	UNUSED;
	if (w->draft) put64(d, inst0(w) + 0x10, OUTSIDE_ARR);
	else put64(d, md0(w) + 0x10, OUTSIDE_ARR);
}
BREAK(b_metrics_aligned) { UNUSED; put64(d, mhdr(w), get64(d, mhdr(w)) + 4); }
BREAK(b_metric_name) { UNUSED; put64(d, md0(w), OUTSIDE); }
BREAK(b_scope_name)
{
	UNUSED;
	put64(d, w->draft ? inst0(w) : A(w, MDB_METRICS, w->scopes_arr), OUTSIDE);
}
BREAK(b_formula) { UNUSED; put64(d, ss0(w) + (w->draft ? 0 : 8), OUTSIDE); }
BREAK(b_scope_ref) { UNUSED; put64(d, inst0(w), A(w, MDB_METRICS, w->scopes_arr) + 8); }
BREAK(b_scope_type) { UNUSED; d[A(w, MDB_METRICS, w->scopes_arr) + 8] = 7; }
BREAK(b_prop_index)
{
	UNUSED;
	for (unsigned s = 0; s < w->m->n_scopes; s++)
		if (w->m->scopes[s].type == HPCTK_SCOPE_TRANSITIVE) d[A(w, MDB_METRICS, w->scopes_arr + (uint64_t)s * w->sz_scope) + 9] = 16;
}
BREAK(b_combine) { UNUSED; d[ss0(w) + (w->draft ? 0x08 : 0x10)] = 5; }
/* A summary of a scope its metric does not instantiate: make sure metric
 * 0 leaves one scope out (drop its last instance and that instance's
 * summaries, which come last), then point its first {SS} there. */
static void p_summary_scope(mdb_writer *w)
{
	hpctk_metric *md = &w->m->metrics[0];
	if (md->n_insts < w->m->n_scopes) return;
	uint16_t last = (uint16_t)(md->n_insts - 1);
	while (md->n_summaries > 0 && md->summaries[md->n_summaries - 1].inst == last) md->n_summaries--;
	md->n_insts = last;
}
BREAK(b_summary_scope)
{
	UNUSED;
	const hpctk_metric *md = &w->m->metrics[0];
	for (unsigned s = 0; s < w->m->n_scopes; s++) {
		bool used = false;
		for (unsigned i = 0; i < md->n_insts; i++) used |= md->insts[i].scope == s;
		if (used) continue;
		put64(d, ss0(w), A(w, MDB_METRICS, w->scopes_arr + (uint64_t)s * w->sz_scope));
		return;
	}
	w->break_failed = true;
}
/* Metric 1 reuses an id of metric 0 (the model gives each metric its own range). */
static void p_prop_dup(mdb_writer *w)
{
	if (w->m->n_metrics < 2) w->break_failed = true;
	else w->m->metrics[1].insts[0].prop_metric_id = w->m->metrics[0].insts[0].prop_metric_id;
}
static void p_stat_dup(mdb_writer *w)
{
	if (w->m->n_metrics < 2) w->break_failed = true;
	else w->m->metrics[1].summaries[0].stat_metric_id = w->m->metrics[0].summaries[0].stat_metric_id;
}

/* ---- Load Modules, Source Files, Functions: header {p, n, sz} ---- */
static void arr_sz(mdb_writer *w, uint8_t *d, int sec, uint16_t v) { hv_put_le16(d + w->base[sec] + 0x0c, v); }
static void arr_out(mdb_writer *w, uint8_t *d, int sec) { put64(d, w->base[sec], OUTSIDE_ARR); }
static void arr_unaligned(mdb_writer *w, uint8_t *d, int sec) { put64(d, w->base[sec], get64(d, w->base[sec]) + 4); }
BREAK(b_szmodule) { UNUSED; arr_sz(w, d, MDB_MODULES, 0x08); }
BREAK(b_modules_contained) { UNUSED; arr_out(w, d, MDB_MODULES); }
BREAK(b_modules_aligned) { UNUSED; arr_unaligned(w, d, MDB_MODULES); }
BREAK(b_module_path) { UNUSED; put64(d, A(w, MDB_MODULES, w->modules_arr) + 8, OUTSIDE); }
BREAK(b_szfile) { UNUSED; arr_sz(w, d, MDB_FILES, 0x08); }
BREAK(b_files_contained) { UNUSED; arr_out(w, d, MDB_FILES); }
BREAK(b_files_aligned) { UNUSED; arr_unaligned(w, d, MDB_FILES); }
BREAK(b_file_path) { UNUSED; put64(d, A(w, MDB_FILES, w->files_arr) + 8, OUTSIDE); }
BREAK(b_szfunction) { UNUSED; arr_sz(w, d, MDB_FUNCTIONS, 0x20); }
BREAK(b_functions_contained) { UNUSED; arr_out(w, d, MDB_FUNCTIONS); }
BREAK(b_functions_aligned) { UNUSED; arr_unaligned(w, d, MDB_FUNCTIONS); }
BREAK(b_function_name) { UNUSED; put64(d, fn_abs(w, fn_where(w, 0)), OUTSIDE); }
BREAK(b_function_module) { UNUSED; put64(d, fn_abs(w, fn_where(w, 1)) + 0x08, A(w, MDB_MODULES, w->modules_arr) + 8); }
BREAK(b_function_file) { UNUSED; put64(d, fn_abs(w, fn_where(w, 2)) + 0x18, A(w, MDB_FILES, w->files_arr) + 8); }
BREAK(b_no_identity)
{
	UNUSED;
	uint64_t f = fn_abs(w, 0);
	put64(d, f + 0x00, 0);
	put64(d, f + 0x08, 0);
	put64(d, f + 0x18, 0);
}
/* The function of the first context that names one loses its name (real
 * hpcprof names every function; the spec allows none). */
static void p_unnamed(mdb_writer *w)
{
	hpctk_model *m = w->m;
	for (uint32_t i = 0; i < m->n_ctx; i++)
		if (m->ctx[i].flags & HPCTK_CTX_HAS_FUNCTION) {
			hpctk_function *f = &m->functions[m->ctx[i].function];
			free(f->name);
			f->name = NULL;
			if (f->module == HPCTK_NONE && f->file == HPCTK_NONE && m->n_files) f->file = 0;
			return;
		}
}

/* ---- Context tree ---- */
static uint64_t ctx_hdr(const mdb_writer *w) { return w->base[MDB_CONTEXT]; }
static uint64_t entry0(const mdb_writer *w) { return A(w, MDB_CONTEXT, w->entries_arr); }
BREAK(b_szentrypoint) { UNUSED; d[ctx_hdr(w) + 0x0a] = 0x18; }
BREAK(b_entries_contained) { UNUSED; put64(d, ctx_hdr(w), OUTSIDE_ARR); }
BREAK(b_ctx_aligned)
{
	UNUSED;
	uint64_t field = ctx_hdr(w) + (w->draft ? 8 : 0); /* pRoots / pEntryPoints */
	put64(d, field, get64(d, field) + 4);
}
BREAK(b_entry_kind) { UNUSED; hv_put_le16(d + entry0(w) + 0x14, 7); }
BREAK(b_entry_name) { UNUSED; put64(d, entry0(w) + 0x18, OUTSIDE); }
BREAK(b_children_contained)
{
	UNUSED;
	uint64_t c = ctx_abs(w, ctx_where(w, has_kids));
	uint64_t end = w->base[MDB_CONTEXT] + w->size[MDB_CONTEXT];
	put64(d, c, end - get64(d, c + 8) + 8);
}
BREAK(b_children_null) { UNUSED; put64(d, ctx_abs(w, ctx_where(w, has_kids)) + 8, 0); }
BREAK(b_children_size)
{
	UNUSED;
	uint64_t c = ctx_abs(w, ctx_where(w, has_kids));
	put64(d, c, get64(d, c) - 8);
}
/* A leaf adopts the children of another context: the array is reached twice. */
BREAK(b_children_overlap)
{
	UNUSED;
	uint64_t from = ctx_abs(w, ctx_where(w, has_kids)), leaf = ctx_abs(w, ctx_where(w, is_leaf));
	put64(d, leaf, get64(d, from));
	put64(d, leaf + 8, get64(d, from + 8));
}
BREAK(b_flexwords) { UNUSED; d[ctx_abs(w, ctx_where(w, fn_only)) + 0x14] |= HPCTK_CTX_HAS_POINT; }
static void p_minor0(mdb_writer *w)
{
	if (w->minor == 0) return;
	w->break_failed = true;
	w->break_why = "this rule is only checked at minor version 0 (a newer minor may give the bits a meaning)";
}
BREAK(b_flags_reserved) { UNUSED; d[ctx_abs(w, 0) + 0x14] |= 0x08; }
/* A line/loop context that drops hasSrcLoc: its two flex words stay, unused. */
BREAK(b_lexical_fields) { UNUSED; d[ctx_abs(w, ctx_where(w, srcloc_only)) + 0x14] = 0; }
/* Bit 15: the model's only transitive scope ("function") uses bit 0. */
BREAK(b_propagation_bits) { UNUSED; d[ctx_abs(w, 0) + 0x19] |= 0x80; }
BREAK(b_relation) { UNUSED; d[ctx_abs(w, 0) + 0x15] = 9; }
BREAK(b_lexical) { UNUSED; d[ctx_abs(w, 0) + 0x16] = 9; }
BREAK(b_ctx_function)
{
	UNUSED;
	put64(d, flex_abs(w, ctx_where(w, has_fn), 0), A(w, MDB_FUNCTIONS, w->functions_arr) + 8);
}
BREAK(b_ctx_file) { UNUSED; put64(d, flex_abs(w, ctx_where(w, has_src), 1), A(w, MDB_FILES, w->files_arr) + 8); }
BREAK(b_ctx_module) { UNUSED; put64(d, flex_abs(w, ctx_where(w, has_pt), 3), A(w, MDB_MODULES, w->modules_arr) + 8); }
static void p_ctxid_zero(mdb_writer *w) { w->m->ctx[w->m->n_ctx - 1].ctx_id = 0; }
/* The last context takes the first entry point's id (there is always one of each). */
static void p_ctxid_dup(mdb_writer *w) { w->m->ctx[w->m->n_ctx - 1].ctx_id = w->m->entries[0].ctx_id; }

static const mdb_break breaks[] = {
	{"metadb.hdr.truncated", ED_BOTH, NULL, b_truncated},
	{"metadb.hdr.magic", ED_BOTH, NULL, b_magic},
	{"metadb.hdr.major", ED_BOTH, NULL, b_major},
	{"metadb.hdr.minor-newer", ED_BOTH, NULL, b_minor_newer},
	{"metadb.hdr.footer", ED_BOTH, NULL, b_footer},
	{"metadb.sec.contained", ED_BOTH, NULL, b_sec_contained},
	{"metadb.sec.aligned", ED_BOTH, p_sec_aligned, NULL},
	{"metadb.sec.overlap", ED_BOTH, p_general_not_last, b_sec_overlap},
	{"metadb.sec.too-small", ED_BOTH, NULL, b_sec_too_small},
	{"metadb.edition.ambiguous", ED_RELEASE, NULL, b_ambiguous},
	{"metadb.general.title", ED_BOTH, NULL, b_title},
	{"metadb.general.description", ED_BOTH, NULL, b_description},
	{"metadb.string.utf8", ED_BOTH, NULL, b_string_utf8},
	{"metadb.idnames.names-contained", ED_BOTH, NULL, b_names_contained},
	{"metadb.idnames.names-aligned", ED_BOTH, NULL, b_names_aligned},
	{"metadb.idnames.name-string", ED_BOTH, NULL, b_name_string},
	{"metadb.metrics.szmetric", ED_BOTH, NULL, b_szmetric},
	{"metadb.metrics.szscope", ED_BOTH, NULL, b_szscope},
	{"metadb.metrics.szsummary", ED_BOTH, NULL, b_szsummary},
	{"metadb.metrics.szscopeinst", ED_RELEASE, NULL, b_szscopeinst},
	{"metadb.metrics.metrics-contained", ED_BOTH, NULL, b_metrics_contained},
	{"metadb.metrics.scopes-contained", ED_BOTH, NULL, b_scopes_contained},
	{"metadb.metrics.scopeinsts-contained", ED_RELEASE, NULL, b_scopeinsts_contained},
	{"metadb.metrics.summaries-contained", ED_BOTH, NULL, b_summaries_contained},
	{"metadb.metrics.aligned", ED_BOTH, NULL, b_metrics_aligned},
	{"metadb.metrics.name-string", ED_BOTH, NULL, b_metric_name},
	{"metadb.metrics.scope-name-string", ED_BOTH, NULL, b_scope_name},
	{"metadb.metrics.formula-string", ED_BOTH, NULL, b_formula},
	{"metadb.metrics.scope-ref", ED_RELEASE, NULL, b_scope_ref},
	{"metadb.metrics.scope-type-known", ED_RELEASE, NULL, b_scope_type},
	{"metadb.metrics.propagation-index", ED_RELEASE, NULL, b_prop_index},
	{"metadb.metrics.combine-known", ED_BOTH, NULL, b_combine},
	{"metadb.metrics.summary-scope", ED_RELEASE, p_summary_scope, b_summary_scope},
	{"metadb.metrics.prop-id-unique", ED_BOTH, p_prop_dup, NULL},
	{"metadb.metrics.stat-id-unique", ED_BOTH, p_stat_dup, NULL},
	{"metadb.modules.szmodule", ED_BOTH, NULL, b_szmodule},
	{"metadb.modules.array-contained", ED_BOTH, NULL, b_modules_contained},
	{"metadb.modules.aligned", ED_BOTH, NULL, b_modules_aligned},
	{"metadb.modules.path-string", ED_BOTH, NULL, b_module_path},
	{"metadb.files.szfile", ED_BOTH, NULL, b_szfile},
	{"metadb.files.array-contained", ED_BOTH, NULL, b_files_contained},
	{"metadb.files.aligned", ED_BOTH, NULL, b_files_aligned},
	{"metadb.files.path-string", ED_BOTH, NULL, b_file_path},
	{"metadb.functions.szfunction", ED_BOTH, NULL, b_szfunction},
	{"metadb.functions.array-contained", ED_BOTH, NULL, b_functions_contained},
	{"metadb.functions.aligned", ED_BOTH, NULL, b_functions_aligned},
	{"metadb.functions.name-string", ED_BOTH, NULL, b_function_name},
	{"metadb.functions.module-ref", ED_BOTH, NULL, b_function_module},
	{"metadb.functions.file-ref", ED_BOTH, NULL, b_function_file},
	{"metadb.functions.no-identity", ED_BOTH, NULL, b_no_identity},
	{"metadb.functions.reader-hazard-unnamed", ED_RELEASE, p_unnamed, NULL},
	{"metadb.ctx.szentrypoint", ED_RELEASE, NULL, b_szentrypoint},
	{"metadb.ctx.entries-contained", ED_RELEASE, NULL, b_entries_contained},
	{"metadb.ctx.aligned", ED_BOTH, NULL, b_ctx_aligned},
	{"metadb.ctx.entry-kind-known", ED_RELEASE, NULL, b_entry_kind},
	{"metadb.ctx.entry-name-string", ED_RELEASE, NULL, b_entry_name},
	{"metadb.ctx.children-contained", ED_BOTH, NULL, b_children_contained},
	{"metadb.ctx.children-null", ED_BOTH, NULL, b_children_null},
	{"metadb.ctx.children-size", ED_BOTH, NULL, b_children_size},
	{"metadb.ctx.children-overlap", ED_BOTH, NULL, b_children_overlap},
	{"metadb.ctx.flexwords", ED_BOTH, NULL, b_flexwords},
	{"metadb.ctx.flags-reserved", ED_BOTH, p_minor0, b_flags_reserved},
	{"metadb.ctx.lexical-fields", ED_BOTH, p_minor0, b_lexical_fields},
	{"metadb.ctx.propagation-bits", ED_RELEASE, p_minor0, b_propagation_bits},
	{"metadb.ctx.relation-known", ED_BOTH, NULL, b_relation},
	{"metadb.ctx.lexical-type-known", ED_BOTH, NULL, b_lexical},
	{"metadb.ctx.function-ref", ED_BOTH, NULL, b_ctx_function},
	{"metadb.ctx.file-ref", ED_BOTH, NULL, b_ctx_file},
	{"metadb.ctx.module-ref", ED_BOTH, NULL, b_ctx_module},
	{"metadb.ctx.ctxid-nonzero", ED_RELEASE, p_ctxid_zero, NULL},
	{"metadb.ctx.ctxid-unique", ED_BOTH, p_ctxid_dup, NULL},
};

static const mdb_break *find(const char *rule, enum hv_edition ed)
{
	unsigned want = ed == HV_EDITION_DRAFT ? ED_DRAFT : ED_RELEASE;
	for (size_t i = 0; i < sizeof breaks / sizeof *breaks; i++)
		if (strcmp(breaks[i].rule, rule) == 0 && (breaks[i].editions & want)) return &breaks[i];
	return NULL;
}

bool mdb_can_break(const char *rule_id, enum hv_edition edition) { return find(rule_id, edition) != NULL; }

void mdb_break_prepare(mdb_writer *w, const char *rule_id)
{
	const mdb_break *b = find(rule_id, w->draft ? HV_EDITION_DRAFT : HV_EDITION_RELEASE);
	if (b && b->prepare) b->prepare(w);
}

int mdb_break_apply(mdb_writer *w, const char *rule_id, uint8_t **data, size_t *len)
{
	const mdb_break *b = find(rule_id, w->draft ? HV_EDITION_DRAFT : HV_EDITION_RELEASE);
	if (!b) return -1;
	if (b->apply) b->apply(w, *data, len);
	return w->break_failed ? -1 : 0;
}
