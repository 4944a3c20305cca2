/* meta.db Context Tree section, both editions.
 *   release: header {pEntryPoints, nEntryPoints u16, szEntryPoint u8} END 0x0b,
 *            {Entry} 0x20: szChildren, pChildren, ctxId u32, entryPoint u16 @0x14, pPrettyName @0x18,
 *            {Ctx} 0x20 + 8*nFlexWords (propagation u16 @0x18, flex @0x20)
 *   draft:   header {szRoots, pRoots} END 0x10, {Ctx} 0x18 + 8*nFlexWords (flex @0x18)
 *   {Ctx}: szChildren, pChildren, ctxId u32 @0x10, flags u8 @0x14, relation @0x15,
 *          lexicalType @0x16, nFlexWords @0x17.
 *
 * The walk is iterative (an explicit stack of children arrays), so depth is
 * bounded by memory, not by the C stack. Every {Ctx} claims its bytes in a
 * bitmap of the section before it is interpreted: an element whose bytes
 * are already claimed is reachable twice (a shared or overlapping children
 * array, or a cycle back to an ancestor), is reported once, and its array is
 * not walked further. Each byte is claimed at most once, so the walk is
 * linear in the section size whatever the pointers say. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "internal.h"

#define SZ_ENTRY 0x20u

static unsigned long long U(uint64_t v) { return (unsigned long long)v; }

typedef struct ctx_job {
	uint64_t p, sz;
} ctx_job;

typedef struct ctx_walk {
	md_state *m;
	uint64_t lo, hdrsz;       /* section start; {Ctx} fixed part for the edition */
	uint64_t *claimed;        /* one bit per 8-byte granule of the section */
	uint64_t *starts;         /* the same granules: a {Ctx} starts there (its ctxId is read back later) */
	uint64_t ngran;
	uint64_t ent_p, ent_stride; /* release: the entry points, once their array is proven */
	unsigned ent_n;
	ctx_job *stack;
	size_t n, cap;
	bool ok;
	uint64_t unnamed, unnamed_at; /* contexts whose function has pName 0; the first one's pFunction word */
	char unnamed_path[HV_PATH_MAX];
} ctx_walk;

/* Claim [off, off+len) (inside the section). False when any granule is
 * already claimed; nothing is claimed then. */
static bool claim(ctx_walk *w, uint64_t off, uint64_t len)
{
	uint64_t g0 = (off - w->lo) / 8, g1 = (off - w->lo + len + 7) / 8;
	for (uint64_t g = g0; g < g1; g++)
		if (w->claimed[g / 64] >> (g % 64) & 1) return false;
	for (uint64_t g = g0; g < g1; g++) w->claimed[g / 64] |= (uint64_t)1 << (g % 64);
	return true;
}

static void push(ctx_walk *w, uint64_t p, uint64_t sz)
{
	if (!HV_GROW(w->stack, w->cap, w->n + 1, 256)) {
		w->m->oom = true;
		return;
	}
	w->stack[w->n++] = (ctx_job){p, sz};
}

/* Whose fields a diagnostic is about: a {Ctx} (by offset), an entry point
 * (by index) or the draft header. Paths are only formatted when a
 * diagnostic is emitted: the walk runs three times over every context (two
 * edition fits and the check), and formatting paths up front was most of
 * its cost. */
typedef struct ctx_owner {
	enum { OWN_CTX, OWN_ENTRY, OWN_HEADER } kind;
	uint64_t off;
	unsigned index;
} ctx_owner;

static void owner_path(char *out, size_t n, const ctx_owner *o)
{
	if (o->kind == OWN_ENTRY)
		snprintf(out, n, "meta.db/Context/pEntryPoints[%u]", o->index);
	else if (o->kind == OWN_HEADER)
		snprintf(out, n, "meta.db/Context");
	else
		snprintf(out, n, "meta.db/Context/ctx@0x%llx", U(o->off));
}

static void field_path(char *out, size_t n, const ctx_owner *o, const char *field)
{
	char owner[96];
	owner_path(owner, sizeof owner, o);
	snprintf(out, n, "%s/%s", owner, field);
}

/* The {sz, p} pair at `field` (szChildren/pChildren or szRoots/pRoots):
 * consistent, aligned and inside the section; then queued for walking. */
static void children_ref(ctx_walk *w, uint64_t field, const ctx_owner *own, const char *szname, const char *pname)
{
	md_state *m = w->m;
	uint64_t sz = md_u64(m, field), p = md_u64(m, field + 8);
	/* The path is formatted only when a check below will fail. */
	char path[HV_PATH_MAX];
	path[0] = '\0';
	if (sz != 0 && (p == 0 || !md_array_fits(m, MD_CONTEXT, p, sz, 1, 8))) field_path(path, sizeof path, own, pname);
	/* sz == 0 with p != 0 is an empty array at the writer's cursor (hpcprof
	 * writes that for every leaf): fine. */
	if (!hv_eval(m->r, HV_R_METADB_CTX_CHILDREN_NULL, sz == 0 || p != 0)) {
		hv_emit(m->r, HV_R_METADB_CTX_CHILDREN_NULL, m->b->name, field, 16, path,
			"%s is 0 but %s is 0x%llx: the children are lost", pname, szname, U(sz));
		w->ok = false;
		return;
	}
	if (sz == 0) return;
	if (!md_check_array(m, HV_R_METADB_CTX_CHILDREN_CONTAINED, HV_R_METADB_CTX_ALIGNED, MD_CONTEXT, field + 8, p, sz,
			    1, 8, path, pname)) {
		w->ok = false;
		return;
	}
	push(w, p, sz);
}

static void check_ref(ctx_walk *w, int rule, const md_array *a, uint64_t field, const ctx_owner *own,
		      const char *name, const char *array)
{
	uint64_t ptr = md_u64(w->m, field);
	char path[HV_PATH_MAX];
	path[0] = '\0';
	if (a->ok && !md_ref_fits(a, ptr)) field_path(path, sizeof path, own, name); /* only for a failure */
	md_check_ref(w->m, rule, a, field, ptr, path, name, array);
}

static void check_ctx(ctx_walk *w, uint64_t e, uint8_t nflex)
{
	md_state *m = w->m;
	ctx_owner own = {OWN_CTX, e, 0};
	char path[HV_PATH_MAX];
	uint32_t id = md_u32(m, e + 0x10);
	uint8_t flags = md_u8(m, e + 0x14), relation = md_u8(m, e + 0x15), lex = md_u8(m, e + 0x16);
	if (m->release && !hv_eval(m->r, HV_R_METADB_CTX_CTXID_NONZERO, id != 0)) {
		field_path(path, sizeof path, &own, "ctxId");
		hv_emit(m->r, HV_R_METADB_CTX_CTXID_NONZERO, m->b->name, e + 0x10, 4, path,
			"ctxId is 0, which denotes the global context; contexts have ids > 0");
	}
	w->starts[(e - w->lo) / 8 / 64] |= (uint64_t)1 << ((e - w->lo) / 8 % 64);
	if (!m->newer_minor && !hv_eval(m->r, HV_R_METADB_CTX_FLAGS_RESERVED, (flags & 0xf8) == 0)) {
		field_path(path, sizeof path, &own, "flags");
		hv_emit(m->r, HV_R_METADB_CTX_FLAGS_RESERVED, m->b->name, e + 0x14, 1, path,
			"flags 0x%02x sets reserved bits 3-7 (0x%02x)", flags, flags & 0xf8);
	}
	/* Release: each propagation bit means "propagate to the parent" for the
	 * transitive scope whose propagationIndex it is; a bit no scope names
	 * defines nothing. A newer minor may name more (new scope types). */
	if (m->release && !m->newer_minor && m->prop_bits_known) {
		uint16_t prop = md_u16(m, e + 0x18), stray = (uint16_t)(prop & ~m->prop_bits);
		if (!hv_eval(m->r, HV_R_METADB_CTX_PROPAGATION_BITS, stray == 0)) {
			field_path(path, sizeof path, &own, "propagation");
			hv_emit(m->r, HV_R_METADB_CTX_PROPAGATION_BITS, m->b->name, e + 0x18, 2, path,
				"propagation 0x%04x sets bit(s) 0x%04x that no transitive propagation scope uses (the "
				"transitive scopes' propagationIndex bits are 0x%04x)",
				prop, stray, m->prop_bits);
		}
	}
	if (!hv_eval(m->r, HV_R_METADB_CTX_RELATION_KNOWN, relation <= 2)) {
		field_path(path, sizeof path, &own, "relation");
		hv_emit_sev(m->r, HV_R_METADB_CTX_RELATION_KNOWN, md_enum_sev(m), m->b->name, e + 0x15, 1, path,
			    "relation %u is not 0 (lexical), 1 (call) or 2 (inlined call)", relation);
	}
	if (!hv_eval(m->r, HV_R_METADB_CTX_LEXICAL_TYPE_KNOWN, lex <= 3)) {
		field_path(path, sizeof path, &own, "lexicalType");
		hv_emit_sev(m->r, HV_R_METADB_CTX_LEXICAL_TYPE_KNOWN, md_enum_sev(m), m->b->name, e + 0x16, 1, path,
			    "lexicalType %u is not 0 (function), 1 (loop), 2 (line) or 3 (instruction)", lex);
	}
	bool has_fn = flags & 1, has_src = flags & 2, has_pt = flags & 4;
	if (!m->newer_minor && lex >= 1 && lex <= 3) {
		bool present = lex == 3 ? has_pt : has_src;
		if (!hv_eval(m->r, HV_R_METADB_CTX_LEXICAL_FIELDS, present)) {
			field_path(path, sizeof path, &own, "flags");
			hv_emit(m->r, HV_R_METADB_CTX_LEXICAL_FIELDS, m->b->name, e + 0x14, 1, path,
				"lexicalType %u (%s) needs %s, but flags 0x%02x do not set it", lex,
				lex == 1 ? "loop" : lex == 2 ? "line" : "instruction",
				lex == 3 ? "hasPoint (pModule, offset)" : "hasSrcLoc (pFile, line)", flags);
		}
	}
	unsigned need = (has_fn ? 1u : 0u) + (has_src ? 2u : 0u) + (has_pt ? 2u : 0u);
	if (!hv_eval(m->r, HV_R_METADB_CTX_FLEXWORDS, nflex >= need)) {
		field_path(path, sizeof path, &own, "nFlexWords");
		hv_emit(m->r, HV_R_METADB_CTX_FLEXWORDS, m->b->name, e + 0x17, 1, path,
			"nFlexWords is %u but flags 0x%02x need %u words (function 1, source location 2, point 2)",
			nflex, flags, need);
	} else {
		/* Packing order: pFunction, pFile, line, pModule, offset; each
		 * present field takes the next word (line's word is not shared
		 * with the u64s that follow it). */
		uint64_t word = e + w->hdrsz;
		if (has_fn) {
			check_ref(w, HV_R_METADB_CTX_FUNCTION_REF, &m->functions, word, &own, "pFunction", "pFunctions");
			uint64_t fn = md_u64(m, word);
			if (m->functions.ok && md_ref_fits(&m->functions, fn) && md_u64(m, fn) == 0 &&
			    (md_u64(m, fn + 8) || md_u64(m, fn + 0x18)) && !w->unnamed++) { /* else no-identity */
				w->unnamed_at = word;
				field_path(w->unnamed_path, sizeof w->unnamed_path, &own, "pFunction");
			}
			word += 8;
		}
		if (has_src) {
			check_ref(w, HV_R_METADB_CTX_FILE_REF, &m->files, word, &own, "pFile", "pFiles");
			word += 16;
		}
		if (has_pt) check_ref(w, HV_R_METADB_CTX_MODULE_REF, &m->modules, word, &own, "pModule", "pModules");
	}
	children_ref(w, e, &own, "szChildren", "pChildren");
}

/* Walk one children (or roots) array already proven inside the section. */
static void walk_array(ctx_walk *w, ctx_job job)
{
	md_state *m = w->m;
	uint64_t o = job.p, end = job.p + job.sz;
	char path[HV_PATH_MAX];
	while (o < end) {
		uint64_t left = end - o;
		uint8_t nflex = left >= w->hdrsz ? md_u8(m, o + 0x17) : 0;
		uint64_t z = w->hdrsz + 8u * nflex;
		if (!hv_eval(m->r, HV_R_METADB_CTX_CHILDREN_SIZE, left >= z)) {
			owner_path(path, sizeof path, &(ctx_owner){OWN_CTX, o, 0});
			hv_emit(m->r, HV_R_METADB_CTX_CHILDREN_SIZE, m->b->name, o, left, path,
				left < w->hdrsz ? "the children array [0x%llx, 0x%llx) ends 0x%llx bytes into a {Ctx}, "
						  "before its 0x%llx-byte fixed part"
						: "the children array [0x%llx, 0x%llx) ends 0x%llx bytes into a {Ctx} of "
						  "0x%llx bytes (szChildren does not match the elements' nFlexWords)",
				U(job.p), U(end), U(left), U(left < w->hdrsz ? w->hdrsz : z));
			w->ok = false;
			return;
		}
		if (!hv_eval(m->r, HV_R_METADB_CTX_CHILDREN_OVERLAP, claim(w, o, z))) {
			owner_path(path, sizeof path, &(ctx_owner){OWN_CTX, o, 0});
			hv_emit(m->r, HV_R_METADB_CTX_CHILDREN_OVERLAP, m->b->name, o, z, path,
				"the {Ctx} at 0x%llx (in children array [0x%llx, 0x%llx)) shares bytes with a context or "
				"entry point already reached: the context tree is not a tree",
				U(o), U(job.p), U(end));
			w->ok = false;
			return;
		}
		check_ctx(w, o, nflex);
		m->walked++;
		o += z;
	}
}

static void release_entries(ctx_walk *w)
{
	md_state *m = w->m;
	uint64_t hdr = m->lo[MD_CONTEXT];
	uint64_t p = md_u64(m, hdr);
	uint16_t n = md_u16(m, hdr + 8);
	uint8_t stride = md_u8(m, hdr + 0x0a);
	if (n == 0) return;
	if (!md_check_stride(m, HV_R_METADB_CTX_SZENTRYPOINT, hdr + 0x0a, 1, stride, SZ_ENTRY,
			     "meta.db/Context/szEntryPoint", "szEntryPoint", "{Entry}") ||
	    !md_check_array(m, HV_R_METADB_CTX_ENTRIES_CONTAINED, HV_R_METADB_CTX_ALIGNED, MD_CONTEXT, hdr, p, n, stride,
			    8, "meta.db/Context/pEntryPoints", "pEntryPoints")) {
		w->ok = false;
		return;
	}
	claim(w, p, (uint64_t)n * stride); /* the first claim: cannot fail */
	w->ent_p = p;
	w->ent_stride = stride;
	w->ent_n = n;
	char path[HV_PATH_MAX];
	for (unsigned i = 0; i < n; i++) {
		uint64_t e = p + (uint64_t)i * stride;
		ctx_owner own = {OWN_ENTRY, e, i};
		uint32_t id = md_u32(m, e + 0x10);
		uint16_t kind = md_u16(m, e + 0x14);
		if (!hv_eval(m->r, HV_R_METADB_CTX_CTXID_NONZERO, id != 0)) {
			field_path(path, sizeof path, &own, "ctxId");
			hv_emit(m->r, HV_R_METADB_CTX_CTXID_NONZERO, m->b->name, e + 0x10, 4, path,
				"entry point ctxId is 0, which denotes the global context; contexts have ids > 0");
		}
		m->walked++;
		if (!hv_eval(m->r, HV_R_METADB_CTX_ENTRY_KIND_KNOWN, kind <= 2)) {
			field_path(path, sizeof path, &own, "entryPoint");
			hv_emit_sev(m->r, HV_R_METADB_CTX_ENTRY_KIND_KNOWN, md_enum_sev(m), m->b->name, e + 0x14, 2, path,
				    "entryPoint %u is not 0 (unknown entry), 1 (main thread) or 2 (application thread)",
				    kind);
		}
		field_path(path, sizeof path, &own, "pPrettyName");
		md_check_string(m, HV_R_METADB_CTX_ENTRY_NAME_STRING, MD_STRINGS, e + 0x18, md_u64(m, e + 0x18), path,
				"pPrettyName");
		children_ref(w, e, &own, "szChildren", "pChildren");
	}
}

void md_check_context(md_state *m)
{
	if (!md_check_section_size(m, MD_CONTEXT, m->release ? MD_SZ_CONTEXT_HDR_R : MD_SZ_CONTEXT_HDR_D)) return;
	ctx_walk w = {.m = m, .lo = m->lo[MD_CONTEXT], .hdrsz = m->release ? 0x20u : 0x18u, .ok = true};
	w.ngran = (m->len[MD_CONTEXT] + 7) / 8;
	w.claimed = hv_calloc((size_t)(w.ngran / 64 + 1), sizeof *w.claimed);
	w.starts = hv_calloc((size_t)(w.ngran / 64 + 1), sizeof *w.starts);
	if (!w.claimed || !w.starts) {
		free(w.claimed);
		free(w.starts);
		m->oom = true;
		return;
	}
	if (m->release)
		release_entries(&w);
	else
		children_ref(&w, w.lo, &(ctx_owner){OWN_HEADER, w.lo, 0}, "szRoots", "pRoots");
	while (w.n > 0 && !m->oom) {
		ctx_job job = w.stack[--w.n];
		walk_array(&w, job);
	}
	md_ctxids_check(m, &(md_ctx_starts){w.starts, w.lo, w.ngran, w.ent_p, w.ent_stride, w.ent_n});
	m->ctx_ok = w.ok && !m->oom;
	/* once per meta.db: hatchet's and pipit's readers index the string table with the missing name */
	if (m->functions.ok && !m->oom && !hv_eval(m->r, HV_R_METADB_FUNCTIONS_READER_HAZARD_UNNAMED, w.unnamed == 0))
		hv_emit(m->r, HV_R_METADB_FUNCTIONS_READER_HAZARD_UNNAMED, m->b->name, w.unnamed_at, 8, w.unnamed_path,
			"%llu context(s) name a function whose pName is 0 (valid: the function has no name), the first "
			"here: hatchet 1.4.0 and pipit 0.1.0 stop on it with TypeError (list indices must be integers or "
			"slices, not NoneType); hpcviewer 2025.01 reads it",
			(unsigned long long)w.unnamed);
	free(w.claimed);
	free(w.starts);
	free(w.stack);
}
