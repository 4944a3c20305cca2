/* meta.db dump: General, IdNames, Metrics (scopes, metrics with their
 * propagated sub-metrics and summary statistics), the Common String Table
 * in file order, Load Modules, Source Files, Functions, and the context
 * tree in depth-first pre-order, every item with its byte offset. Both
 * editions (the one validation detected): release layouts from
 * FORMATS-v4.0-release, draft ones as validator/hpctoolkit/metadb_*.c
 * describe them.
 *
 * Bounded on any input: arrays are shown only when they lie in the file
 * (so counts never exceed the bytes present); the tree walk is iterative
 * over an explicit stack of children arrays, and every {Ctx} claims its
 * bytes in a bitmap of the Context section first, so a context reachable
 * twice (shared arrays, a cycle) is dumped once and the walk is linear in
 * the section size; the stack holds at most one frame per claimed {Ctx}.
 * Metric sub-arrays share a budget of entries bounded by the file size, so
 * many metrics pointing at one large array cannot make the output
 * quadratic. Pointers are resolved (a function's name, a context's file
 * path) as the bytes say; a pointer outside the file shows null.
 * --select=context:ID shows that context (or entry point) alone,
 * subtree:ID it and everything below it; hv_dump_metadb_subtree_ids walks
 * the same way without output, keeping the subtree's ids for the other
 * files' values. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "dumpers.h"

enum { S_GENERAL, S_IDNAMES, S_METRICS, S_CONTEXT, S_STRINGS, S_MODULES, S_FILES, S_FUNCTIONS };

typedef struct md_dump {
	hv_dump_ctx *d;
	bool draft;
	uint64_t sz[8], p[8];
	uint64_t budget; /* metric sub-entries still to show */
} md_dump;

static bool rd(md_dump *m, uint64_t off, unsigned n, uint64_t *v)
{
	*v = 0;
	return hv_dump_le(m->d, off, n, v);
}

static uint64_t u(md_dump *m, uint64_t off, unsigned n)
{
	uint64_t v = 0;
	hv_dump_le(m->d, off, n, &v);
	return v;
}

static bool array_in(md_dump *m, uint64_t at, uint64_t n, uint64_t sz) { return hv_dump_array_in(m->d, at, n, sz); }

/* The NUL-terminated string at `ptr` under `key` (null when ptr is 0 or
 * outside the file); at most HV_DUMP_STR_MAX bytes are looked at, a string
 * not ended by then also carries "<key>_unterminated": true. */
static void cstr(md_dump *m, const char *key, uint64_t ptr)
{
	hv_dump_out *w = m->d->w;
	uint64_t size = m->d->b->size;
	if (ptr == 0 || ptr >= size) {
		dw_null(w, key);
		return;
	}
	size_t len = size - ptr > HV_DUMP_STR_MAX ? HV_DUMP_STR_MAX : (size_t)(size - ptr);
	const uint8_t *s = hv_window_get(&m->d->win, ptr, len);
	if (!s) {
		dw_null(w, key);
		return;
	}
	const uint8_t *nul = memchr(s, 0, len);
	dw_strn(w, key, s, nul ? (size_t)(nul - s) : len);
	if (!nul) {
		char k[96];
		snprintf(k, sizeof k, "%s_unterminated", key);
		dw_bool(w, k, true);
	}
}

/* `ptr` under `pkey`, and the string a u64 at ptr + `at` points to under `key`. */
static void ref_str(md_dump *m, const char *pkey, const char *key, uint64_t ptr, uint64_t at)
{
	dw_u64(m->d->w, pkey, ptr);
	uint64_t s;
	if (ptr && rd(m, ptr + at, 8, &s)) cstr(m, key, s);
	else dw_null(m->d->w, key);
}

static const char *name_of(uint64_t v, const char *const *names, unsigned n)
{
	return v < n ? names[v] : "unknown";
}

static void general(md_dump *m)
{
	uint64_t at = m->p[S_GENERAL];
	if (m->sz[S_GENERAL] < 0x10 || !array_in(m, at, 1, 0x10)) return;
	hv_dump_out *w = m->d->w;
	dw_item_begin(w, "general", "meta.db/General", at, 0x10);
	dw_u64(w, "pTitle", u(m, at, 8));
	cstr(m, "title", u(m, at, 8));
	dw_u64(w, "pDescription", u(m, at + 8, 8));
	cstr(m, "description", u(m, at + 8, 8));
	dw_item_end(w);
}

static void idnames(md_dump *m)
{
	uint64_t at = m->p[S_IDNAMES];
	if (m->sz[S_IDNAMES] < 9 || !array_in(m, at, 1, 9)) return;
	hv_dump_out *w = m->d->w;
	static const hv_dump_field hdr[] = {{"ppNames", 0, 8}, {"nKinds", 8, 1}};
	uint64_t v[2];
	hv_dump_read_fields(m->d, at, hdr, 2, v);
	uint64_t pp = v[0], n = v[1];
	dw_item_begin(w, "id-names", "meta.db/IdNames", at, 9);
	hv_dump_put_fields(m->d, hdr, 2, v);
	if (array_in(m, pp, n, 8)) {
		dw_arr_begin(w, "names");
		for (uint64_t k = 0; k < n && !dw_full(m->d->w); k++) {
			dw_obj_begin(w, NULL);
			dw_u64(w, "kind", k);
			dw_u64(w, "pName", u(m, pp + 8 * k, 8));
			cstr(m, "name", u(m, pp + 8 * k, 8));
			dw_obj_end(w);
		}
		dw_arr_end(w);
	} else {
		dw_str(w, "note", "ppNames[nKinds] is outside the file: not decoded");
	}
	dw_item_end(w);
}

static const char *const scope_types[] = {"custom", "point", "execution", "transitive"};
static const char *const combines[] = {"sum", "min", "max"};

/* Whether `n` more sub-entries may be shown (see the file comment). */
static bool take(md_dump *m, uint64_t n)
{
	if (n > m->budget) return false;
	m->budget -= n;
	return true;
}

static void summary(md_dump *m, uint64_t at, uint64_t pformula, uint64_t combine, uint64_t stat)
{
	hv_dump_out *w = m->d->w;
	dw_u64(w, "offset", at);
	dw_u64(w, "pFormula", pformula);
	cstr(m, "formula", pformula);
	dw_u64(w, "combine", combine);
	dw_str(w, "combineName", name_of(combine, combines, 3));
	dw_u64(w, "statMetricId", stat);
}

static void metrics_release(md_dump *m, uint64_t at)
{
	hv_dump_out *w = m->d->w;
	static const hv_dump_field hdr[] = {{"pMetrics", 0, 8},   {"nMetrics", 8, 4},    {"szMetric", 0xc, 1},
					    {"szScopeInst", 0xd, 1}, {"szSummary", 0xe, 1}, {"pScopes", 0x10, 8},
					    {"nScopes", 0x18, 2},  {"szScope", 0x1a, 1}};
	uint64_t v[8];
	hv_dump_read_fields(m->d, at, hdr, 8, v);
	uint64_t pm = v[0], nm = v[1], szm = v[2], szpsi = v[3], szss = v[4], ps = v[5], nps = v[6], szps = v[7];
	dw_item_begin(w, "metrics-header", "meta.db/Metrics", at, 0x1b);
	hv_dump_put_fields(m->d, hdr, 8, v);
	dw_item_end(w);
	if (szps >= 0x10 && array_in(m, ps, nps, szps)) {
		for (uint64_t i = 0; i < nps && !dw_full(m->d->w); i++) {
			uint64_t e = ps + i * szps, type = u(m, e + 8, 1);
			hv_dump_item(m->d, "scope", e, szps, "meta.db/Metrics/scope[%" PRIu64 "]", i);
			dw_u64(w, "pScopeName", u(m, e, 8));
			cstr(m, "name", u(m, e, 8));
			dw_u64(w, "type", type);
			dw_str(w, "typeName", name_of(type, scope_types, 4));
			dw_u64(w, "propagationIndex", u(m, e + 9, 1));
			dw_item_end(w);
		}
	} else if (nps) {
		hv_dump_stop(m->d, at + 0x10, "the scopes array is outside the file or its stride is too small");
	}
	if (szm < 0x20 || !array_in(m, pm, nm, szm)) {
		if (nm) hv_dump_stop(m->d, at, "the metrics array is outside the file or its stride is too small");
		return;
	}
	for (uint64_t i = 0; i < nm && !dw_full(m->d->w); i++) {
		uint64_t e = pm + i * szm, pname = u(m, e, 8), psi = u(m, e + 8, 8), pss = u(m, e + 0x10, 8),
			 nsi = u(m, e + 0x18, 2), nss = u(m, e + 0x1a, 2);
		hv_dump_item(m->d, "metric", e, szm, "meta.db/Metrics/metric[%" PRIu64 "]", i);
		dw_u64(w, "pName", pname);
		cstr(m, "name", pname);
		dw_u64(w, "pScopeInsts", psi);
		dw_u64(w, "nScopeInsts", nsi);
		dw_u64(w, "pSummaries", pss);
		dw_u64(w, "nSummaries", nss);
		bool si_ok = szpsi >= 0x10 && array_in(m, psi, nsi, szpsi) && take(m, nsi);
		bool ss_ok = szss >= 0x18 && array_in(m, pss, nss, szss) && take(m, nss);
		if (!si_ok || !ss_ok) dw_bool(w, "truncated", true);
		dw_arr_begin(w, "scopeInsts");
		for (uint64_t k = 0; si_ok && k < nsi; k++) {
			uint64_t s = psi + k * szpsi;
			dw_obj_begin(w, NULL);
			dw_u64(w, "offset", s);
			ref_str(m, "pScope", "scope", u(m, s, 8), 0);
			dw_u64(w, "propMetricId", u(m, s + 8, 2));
			dw_obj_end(w);
		}
		dw_arr_end(w);
		dw_arr_begin(w, "summaries");
		for (uint64_t k = 0; ss_ok && k < nss; k++) {
			uint64_t s = pss + k * szss;
			dw_obj_begin(w, NULL);
			ref_str(m, "pScope", "scope", u(m, s, 8), 0);
			summary(m, s, u(m, s + 8, 8), u(m, s + 0x10, 1), u(m, s + 0x12, 2));
			dw_obj_end(w);
		}
		dw_arr_end(w);
		dw_item_end(w);
	}
}

/* Draft: {MD} 0x18 {pName, nScopes u16 @8, pScopes @0x10}; {PS} 0x18
 * {pScope char*, nSummaries u16 @8, propMetricId u16 @0xa, pSummaries
 * @0x10}; {SS} 0x10 {pFormula, combine u8 @8, statMetricId u16 @0xa}.
 * Shown in the release shape: scopeInsts, and summaries with their scope. */
static void metrics_draft(md_dump *m, uint64_t at)
{
	hv_dump_out *w = m->d->w;
	static const hv_dump_field hdr[] = {
		{"pMetrics", 0, 8}, {"nMetrics", 8, 4}, {"szMetric", 0xc, 1}, {"szScope", 0xd, 1}, {"szSummary", 0xe, 1}};
	uint64_t v[5];
	hv_dump_read_fields(m->d, at, hdr, 5, v);
	uint64_t pm = v[0], nm = v[1], szm = v[2], szps = v[3], szss = v[4];
	dw_item_begin(w, "metrics-header", "meta.db/Metrics", at, 0x0f);
	hv_dump_put_fields(m->d, hdr, 5, v);
	dw_item_end(w);
	if (szm < 0x18 || !array_in(m, pm, nm, szm)) {
		if (nm) hv_dump_stop(m->d, at, "the metrics array is outside the file or its stride is too small");
		return;
	}
	for (uint64_t i = 0; i < nm && !dw_full(m->d->w); i++) {
		uint64_t e = pm + i * szm, pname = u(m, e, 8), nps = u(m, e + 8, 2), pps = u(m, e + 0x10, 8);
		hv_dump_item(m->d, "metric", e, szm, "meta.db/Metrics/metric[%" PRIu64 "]", i);
		dw_u64(w, "pName", pname);
		cstr(m, "name", pname);
		dw_u64(w, "pScopes", pps);
		dw_u64(w, "nScopes", nps);
		bool ps_ok = szps >= 0x18 && array_in(m, pps, nps, szps) && take(m, nps);
		bool truncated = !ps_ok;
		dw_arr_begin(w, "scopeInsts");
		for (uint64_t k = 0; ps_ok && k < nps; k++) {
			uint64_t s = pps + k * szps;
			dw_obj_begin(w, NULL);
			dw_u64(w, "offset", s);
			dw_u64(w, "pScopeName", u(m, s, 8));
			cstr(m, "scope", u(m, s, 8));
			dw_u64(w, "propMetricId", u(m, s + 0xa, 2));
			dw_obj_end(w);
		}
		dw_arr_end(w);
		dw_arr_begin(w, "summaries");
		for (uint64_t k = 0; ps_ok && k < nps; k++) {
			uint64_t s = pps + k * szps, nss = u(m, s + 8, 2), pss = u(m, s + 0x10, 8);
			if (szss < 0x10 || !array_in(m, pss, nss, szss) || !take(m, nss)) {
				truncated = true;
				continue;
			}
			for (uint64_t j = 0; j < nss; j++) {
				uint64_t t = pss + j * szss;
				dw_obj_begin(w, NULL);
				dw_u64(w, "pScopeName", u(m, s, 8));
				cstr(m, "scope", u(m, s, 8));
				summary(m, t, u(m, t, 8), u(m, t + 8, 1), u(m, t + 0xa, 2));
				dw_obj_end(w);
			}
		}
		dw_arr_end(w);
		if (truncated) dw_bool(w, "truncated", true);
		dw_item_end(w);
	}
}

/* The Common String Table in file order: one item per NUL-terminated string. */
static void strings(md_dump *m)
{
	uint64_t at = m->p[S_STRINGS], end;
	if (!m->sz[S_STRINGS] || !array_in(m, at, 1, m->sz[S_STRINGS])) return;
	end = at + m->sz[S_STRINGS];
	for (uint64_t i = 0, off = at; off < end && !dw_full(m->d->w); i++) {
		uint64_t len = 0;
		bool ended = false;
		while (off + len < end && !ended) {
			uint64_t left = end - off - len;
			size_t chunk = left > HV_DUMP_STR_MAX ? HV_DUMP_STR_MAX : (size_t)left;
			const uint8_t *s = hv_window_get(&m->d->win, off + len, chunk);
			if (!s) return;
			const uint8_t *nul = memchr(s, 0, chunk);
			len += nul ? (uint64_t)(nul - s) : chunk;
			ended = nul != NULL;
		}
		hv_dump_item(m->d, "string", off, len + ended, "meta.db/Strings[%" PRIu64 "]", i);
		hv_dump_str(m->d, "text", off, len);
		if (!ended) dw_bool(m->d->w, "unterminated", true);
		dw_item_end(m->d->w);
		off += len + 1;
	}
}

/* Load Modules, Source Files, Functions: {p, n u32, sz u16} then the specs. */
static void lists(md_dump *m, unsigned sec)
{
	static const char *const hdr_kind[] = {"modules-header", "files-header", "functions-header"};
	static const char *const kind[] = {"module", "source-file", "function"};
	static const char *const sname[] = {"Modules", "Files", "Functions"};
	static const char *const elem[] = {"module", "file", "function"};
	static const unsigned min[] = {0x10, 0x10, 0x28};
	unsigned j = sec - S_MODULES;
	uint64_t at = m->p[sec];
	if (m->sz[sec] < 0x0e || !array_in(m, at, 1, 0x0e)) return;
	hv_dump_out *w = m->d->w;
	static const hv_dump_field hdr[] = {{"pArray", 0, 8}, {"n", 8, 4}, {"stride", 0xc, 2}};
	uint64_t v[3];
	hv_dump_read_fields(m->d, at, hdr, 3, v);
	uint64_t pa = v[0], n = v[1], sz = v[2];
	hv_dump_item(m->d, hdr_kind[j], at, 0x0e, "meta.db/%s", sname[j]);
	hv_dump_put_fields(m->d, hdr, 3, v);
	dw_item_end(w);
	if (sz < min[j] || !array_in(m, pa, n, sz)) {
		if (n) hv_dump_stop(m->d, at, "the array is outside the file or its stride is too small");
		return;
	}
	for (uint64_t i = 0; i < n && !dw_full(m->d->w); i++) {
		uint64_t e = pa + i * sz;
		hv_dump_item(m->d, kind[j], e, sz, "meta.db/%s/%s[%" PRIu64 "]", sname[j], elem[j], i);
		if (sec == S_FUNCTIONS) {
			dw_u64(w, "pName", u(m, e, 8));
			cstr(m, "name", u(m, e, 8));
			ref_str(m, "pModule", "module", u(m, e + 8, 8), 8);
			dw_u64(w, "moduleOffset", u(m, e + 0x10, 8));
			ref_str(m, "pFile", "file", u(m, e + 0x18, 8), 8);
			dw_u64(w, "line", u(m, e + 0x20, 4));
			dw_u64(w, "flags", u(m, e + 0x24, 4));
		} else {
			dw_u64(w, "flags", u(m, e, sec == S_MODULES ? 4 : 1));
			dw_u64(w, "pPath", u(m, e + 8, 8));
			/* "path" is the item's structural path: the string is named as
			 * functions and contexts name it */
			cstr(m, sec == S_MODULES ? "module" : "file", u(m, e + 8, 8));
		}
		dw_item_end(w);
	}
}

/* ---- the context tree ---- */

typedef struct ctx_frame {
	uint64_t p, end;   /* what is left of a children array */
	uint32_t parent;   /* the ctxId owning it */
	uint32_t depth;    /* of its elements */
} ctx_frame;

typedef struct ctx_walk {
	md_dump *m;
	uint64_t lo, hi, hdrsz;
	uint64_t *claimed; /* one bit per 8-byte granule of the section */
	ctx_frame *st;
	size_t n, cap;
	/* --select=context:ID (single: that context alone) or subtree:ID */
	bool sel, single, inside, done, oom;
	uint64_t want;
	size_t stop_level;
	/* hv_dump_metadb_subtree_ids: nothing written, the subtree's ids kept */
	bool quiet;
	uint64_t *ids;
	size_t nids, idcap;
} ctx_walk;

static bool claim(ctx_walk *c, uint64_t off, uint64_t len)
{
	uint64_t g0 = (off - c->lo) / 8, g1 = (off - c->lo + len + 7) / 8;
	for (uint64_t g = g0; g < g1; g++)
		if (c->claimed[g / 64] >> (g % 64) & 1) return false;
	for (uint64_t g = g0; g < g1; g++) c->claimed[g / 64] |= (uint64_t)1 << (g % 64);
	return true;
}

static bool in_section(const ctx_walk *c, uint64_t p, uint64_t sz)
{
	return p >= c->lo && hv_range_in(p - c->lo, sz, c->hi - c->lo);
}

static void push(ctx_walk *c, uint64_t p, uint64_t sz, uint64_t parent, uint32_t depth)
{
	if (!HV_GROW(c->st, c->cap, c->n + 1, 64)) {
		c->oom = true;
		return;
	}
	c->st[c->n++] = (ctx_frame){p, p + sz, (uint32_t)parent, depth};
}

static bool shown(const ctx_walk *c) { return !c->quiet && (!c->sel || c->inside); }

/* The walk found the selected context (or entry point) `id`: from here
 * on (its subtree, or itself alone) items are shown. */
static void found(ctx_walk *c, size_t level)
{
	c->inside = true;
	c->stop_level = level;
	hv_dump_hits *h = c->m->d->hits;
	if (c->single) h->context = true;
	else h->subtree = true;
}

static void keep_id(ctx_walk *c, uint64_t id)
{
	if (!c->quiet || !c->inside || c->oom) return;
	if (!HV_GROW(c->ids, c->idcap, c->nids + 1, 64)) {
		c->oom = true;
		return;
	}
	c->ids[c->nids++] = id;
}

/* The children of a context or entry point: pushed when they lie in the
 * section, else said in the item (which is still open). A leaf has
 * szChildren 0, and hpcprof writes pChildren 0 or a pointer with it. */
static void children(ctx_walk *c, uint64_t szc, uint64_t pc, uint64_t id, uint32_t depth)
{
	hv_dump_out *w = c->m->d->w;
	if (szc == 0) {
		if (shown(c)) dw_str(w, "children", "no children");
		return;
	}
	if (pc == 0 || !in_section(c, pc, szc)) {
		if (shown(c)) dw_str(w, "children", pc == 0 ? "szChildren is not 0 but pChildren is: not walked"
							     : "outside the Context section: not walked");
		return;
	}
	push(c, pc, szc, id, depth);
}

static const char *const relations[] = {"lexical", "call", "inlined-call"};
static const char *const lexicals[] = {"function", "loop", "line", "instruction"};

/* One {Ctx} at e (z bytes, in the section, claimed), child of `parent`. */
static void context(ctx_walk *c, uint64_t e, uint64_t z, uint32_t parent, uint32_t depth)
{
	md_dump *m = c->m;
	hv_dump_out *w = m->d->w;
	uint64_t szc = u(m, e, 8), pc = u(m, e + 8, 8), id = u(m, e + 0x10, 4), flags = u(m, e + 0x14, 1),
		 rel = u(m, e + 0x15, 1), lex = u(m, e + 0x16, 1), nflex = u(m, e + 0x17, 1);
	if (c->sel && !c->inside && id == c->want) found(c, c->n);
	keep_id(c, id);
	if (shown(c)) {
		hv_dump_item(m->d, "context", e, z, "meta.db/Context/ctx@0x%" PRIx64, e);
		dw_u64(w, "ctxId", id);
		dw_u64(w, "parent", parent);
		dw_u64(w, "depth", depth);
		dw_u64(w, "szChildren", szc);
		dw_u64(w, "pChildren", pc);
		dw_u64(w, "flags", flags);
		dw_u64(w, "relation", rel);
		dw_str(w, "relationName", name_of(rel, relations, 3));
		dw_u64(w, "lexicalType", lex);
		dw_str(w, "lexicalName", name_of(lex, lexicals, 4));
		dw_u64(w, "nFlexWords", nflex);
		if (!m->draft) dw_u64(w, "propagation", u(m, e + 0x18, 2));
		unsigned need = (flags & 1 ? 1u : 0u) + (flags & 2 ? 2u : 0u) + (flags & 4 ? 2u : 0u);
		uint64_t word = e + c->hdrsz;
		if (nflex < need) {
			dw_str(w, "flex", "fewer words than the flags need: not decoded");
		} else {
			if (flags & 1) {
				ref_str(m, "pFunction", "function", u(m, word, 8), 0);
				word += 8;
			}
			if (flags & 2) {
				ref_str(m, "pFile", "file", u(m, word, 8), 8);
				dw_u64(w, "line", u(m, word + 8, 4));
				word += 16;
			}
			if (flags & 4) {
				ref_str(m, "pModule", "module", u(m, word, 8), 8);
				dw_u64(w, "moduleOffset", u(m, word + 8, 8));
			}
		}
	}
	if (c->single && c->inside) {
		/* context=ID: that context alone, its children not walked */
		if (shown(c)) dw_item_end(w);
		c->done = true;
		return;
	}
	children(c, szc, pc, id, depth + 1);
	if (shown(c)) dw_item_end(w);
}

/* Walk everything pushed, in pre-order (a frame is the rest of one array). */
static void walk(ctx_walk *c)
{
	md_dump *m = c->m;
	while (c->n && !c->oom && !c->done && !dw_full(c->m->d->w)) {
		if (c->inside && c->n <= c->stop_level) {
			c->done = true;
			return;
		}
		ctx_frame *f = &c->st[c->n - 1];
		if (f->p >= f->end) {
			c->n--;
			continue;
		}
		uint64_t e = f->p, left = f->end - e, z = c->hdrsz + 8u * u(m, e + 0x17, 1);
		uint32_t parent = f->parent, depth = f->depth;
		if (left < c->hdrsz || z > left) {
			if (shown(c)) hv_dump_stop(m->d, e, "a context runs past the end of its children array");
			c->n--;
			continue;
		}
		f->p += z;
		if (!claim(c, e, z)) {
			if (shown(c)) hv_dump_stop(m->d, e, "a context reached a second time (shared array or cycle): not walked again");
			continue;
		}
		context(c, e, z, parent, depth);
	}
	if (c->inside) c->done = true;
	if (c->oom && !c->quiet) hv_dump_stop(m->d, c->lo, "out of memory in the context tree walk");
}

static const char *const entry_names[] = {"unknown", "main-thread", "application-thread"};

static void context_tree(md_dump *m, ctx_walk *out)
{
	hv_dump_ctx *d = m->d;
	hv_dump_out *w = d->w;
	uint64_t lo = m->p[S_CONTEXT], sz = m->sz[S_CONTEXT];
	unsigned hsz = m->draft ? 0x10 : 0x0b;
	if (sz < hsz || !array_in(m, lo, 1, sz)) return;
	ctx_walk c;
	memset(&c, 0, sizeof c);
	c.m = m;
	c.lo = lo;
	c.hi = lo + sz;
	c.hdrsz = m->draft ? 0x18 : 0x20;
	const hv_dump_select *s = &d->o->sel;
	c.sel = s->have_context || s->have_subtree;
	c.single = !s->have_subtree;
	c.want = s->have_subtree ? s->subtree : s->context;
	c.quiet = out != NULL;
	c.claimed = hv_calloc((sz + 8 * 64 - 1) / (8 * 64), sizeof *c.claimed);
	if (!c.claimed) {
		if (!c.quiet) hv_dump_stop(d, lo, "out of memory for the context tree walk");
		return;
	}
	if (m->draft) {
		uint64_t szr = u(m, lo, 8), pr = u(m, lo + 8, 8);
		if (!c.sel) {
			dw_item_begin(w, "context-header", "meta.db/Context", lo, hsz);
			dw_u64(w, "szRoots", szr);
			dw_u64(w, "pRoots", pr);
			children(&c, szr, pr, 0, 0);
			dw_item_end(w);
		} else {
			children(&c, szr, pr, 0, 0);
		}
		walk(&c);
	} else {
		uint64_t pe = u(m, lo, 8), ne = u(m, lo + 8, 2), sze = u(m, lo + 0xa, 1);
		if (!c.sel) {
			dw_item_begin(w, "context-header", "meta.db/Context", lo, hsz);
			dw_u64(w, "pEntryPoints", pe);
			dw_u64(w, "nEntryPoints", ne);
			dw_u64(w, "szEntryPoint", sze);
			dw_item_end(w);
		}
		if (sze < 0x20 || !array_in(m, pe, ne, sze)) {
			if (ne && !c.quiet) hv_dump_stop(d, lo, "the entry points are outside the file or their stride is too small");
			ne = 0;
		}
		for (uint64_t i = 0; i < ne && !c.done && !c.oom && !dw_full(d->w); i++) {
			uint64_t e = pe + i * sze, szc = u(m, e, 8), pc = u(m, e + 8, 8), id = u(m, e + 0x10, 4),
				 ep = u(m, e + 0x14, 2);
			if (c.sel && !c.inside && id == c.want) found(&c, 0);
			keep_id(&c, id);
			if (shown(&c)) {
				snprintf(d->path, sizeof d->path, "meta.db/Context/entry[%" PRIu64 "]", i);
				dw_item_begin(w, "entry-point", d->path, e, sze);
				dw_u64(w, "ctxId", id);
				dw_u64(w, "entryPoint", ep);
				dw_str(w, "entryPointName", name_of(ep, entry_names, 3));
				dw_u64(w, "pPrettyName", u(m, e + 0x18, 8));
				cstr(m, "prettyName", u(m, e + 0x18, 8));
				dw_u64(w, "szChildren", szc);
				dw_u64(w, "pChildren", pc);
			}
			if (c.single && c.inside) {
				/* context=ID of an entry point: it alone */
				if (shown(&c)) dw_item_end(w);
				break;
			}
			children(&c, szc, pc, id, 1);
			if (shown(&c)) dw_item_end(w);
			walk(&c);
		}
	}
	if (c.sel && !c.inside && !c.oom && !c.quiet)
		hv_dump_stop(d, lo, c.single ? "--select=context: no context with this ctxId in the tree"
					     : "--select=subtree: no context with this ctxId in the tree");
	free(c.st);
	free(c.claimed);
	if (out) *out = c;
	else free(c.ids);
}

void hv_dump_metadb(hv_dump_ctx *d, const uint64_t sz[8], const uint64_t p[8])
{
	md_dump m = {.d = d, .draft = d->draft};
	memcpy(m.sz, sz, sizeof m.sz);
	memcpy(m.p, p, sizeof m.p);
	m.budget = d->b->size / 8 + 64;
	if (!d->o->sel.have_context && !d->o->sel.have_subtree) {
		general(&m);
		idnames(&m);
		if (m.sz[S_METRICS] >= (m.draft ? 0x0fu : 0x1bu) && array_in(&m, m.p[S_METRICS], 1, m.sz[S_METRICS])) {
			if (m.draft) metrics_draft(&m, m.p[S_METRICS]);
			else metrics_release(&m, m.p[S_METRICS]);
		}
		strings(&m);
		lists(&m, S_MODULES);
		lists(&m, S_FILES);
		lists(&m, S_FUNCTIONS);
	}
	context_tree(&m, NULL);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

size_t hv_dump_metadb_subtree_ids(hv_dump_ctx *d, uint64_t **ids)
{
	*ids = NULL;
	const uint8_t *h = hv_window_get(&d->win, 0, 16 + 16 * 8);
	if (!h || memcmp(h, "HPCTOOLKIT", 10) != 0) return 0;
	md_dump m = {.d = d, .draft = d->draft};
	for (unsigned s = 0; s < 8; s++) {
		hv_dump_le(d, 16 + 16u * s, 8, &m.sz[s]);
		hv_dump_le(d, 24 + 16u * s, 8, &m.p[s]);
	}
	ctx_walk c;
	memset(&c, 0, sizeof c);
	context_tree(&m, &c);
	if (c.oom || !c.nids) {
		free(c.ids);
		return 0;
	}
	qsort(c.ids, c.nids, sizeof *c.ids, cmp_u64);
	*ids = c.ids;
	return c.nids;
}
