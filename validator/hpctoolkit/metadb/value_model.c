/* The value checker's model of meta.db (values.h), built after meta.db was
 * checked, release edition only, when the context tree and the metrics
 * could be walked without a structural error. Every read is re-proven to
 * lie in its section: the model must not trust what a failed rule may
 * have left unchecked. The tree is read breadth first with the node array
 * itself as the queue, so depth costs nothing but the nodes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "internal.h"
#include "hpctoolkit/values/values.h"


typedef struct vbuild {
	md_state *m;
	hpctk_vmodel *vm;
	uint64_t *at;          /* per node: file offset of its {Ctx}/{Entry}, 0 for the global context */
	size_t cap;
	uint32_t *fn_label;    /* per {FS}: pool offset + 1 of its name, 0 not yet read */
	bool ok;
} vbuild;

static uint32_t pool_add(hpctk_vmodel *vm, const char *s, size_t len, bool *ok)
{
	/* offsets into the pool are uint32_t: it stops at UINT32_MAX bytes */
	if (!HV_GROW_UPTO(vm->pool, vm->pool_cap, vm->pool_len + len + 1, 4096, UINT32_MAX)) {
		*ok = false;
		return 0;
	}
	uint32_t at = (uint32_t)vm->pool_len;
	memcpy(vm->pool + at, s, len);
	vm->pool[at + len] = '\0';
	vm->pool_len += len + 1;
	return at;
}

/* A string of section s at ptr, at most 60 bytes of it; "?" when it is not
 * a NUL-terminated string inside the section. */
static uint32_t pool_str(vbuild *b, enum md_sec s, uint64_t ptr)
{
	md_state *m = b->m;
	if (!m->usable[s] || !md_fits(m, s, ptr, 1)) return pool_add(b->vm, "?", 1, &b->ok);
	uint64_t end = m->lo[s] + m->len[s];
	const char *p = (const char *)m->mem + ptr;
	size_t max = end - ptr < 60 ? (size_t)(end - ptr) : 60;
	const char *z = memchr(p, '\0', max);
	return pool_add(b->vm, p, z ? (size_t)(z - p) : max, &b->ok);
}

/* Room for cap (> b->cap) nodes, exactly (the limit is the need); false
 * when out of memory. */
static bool reserve(vbuild *b, size_t cap)
{
	hpctk_vmodel *vm = b->vm;
	size_t nodes = b->cap, ats = b->cap;
	if (!hv_grow_array_upto(&vm->node, &nodes, cap, sizeof *vm->node, 0, cap) ||
	    !hv_grow_array_upto(&b->at, &ats, cap, sizeof *b->at, 0, cap))
		return b->ok = false;
	b->cap = cap;
	return true;
}

static bool push_node(vbuild *b, uint32_t ctx, uint32_t parent, uint16_t prop, uint8_t lex, uint32_t label,
		      uint64_t at)
{
	hpctk_vmodel *vm = b->vm;
	if (vm->n == b->cap) {
		/* bounded: every node but the global context is a distinct structure
		 * of the Context section; doubled, to a uint32_t's count at most */
		size_t cap = hv_grow_count(b->cap, (size_t)vm->n + 1, sizeof *vm->node, 1024, UINT32_MAX);
		if (!cap || !reserve(b, cap)) return b->ok = false;
	}
	vm->node[vm->n] = (hpctk_vnode){ctx, parent, label, prop, lex, 0};
	b->at[vm->n] = at;
	vm->n++;
	return true;
}

/* Label of a {Ctx}: its function's name, or its line (loops, lines). */
static uint32_t ctx_label(vbuild *b, uint64_t e, uint8_t lex)
{
	md_state *m = b->m;
	uint8_t flags = md_u8(m, e + 0x14), nflex = md_u8(m, e + 0x17);
	unsigned need = (flags & 1 ? 1u : 0u) + (flags & 2 ? 2u : 0u) + (flags & 4 ? 2u : 0u);
	if (nflex < need || !md_fits(m, MD_CONTEXT, e + 0x20, 8u * need)) return 0;
	uint64_t w = e + 0x20;
	if (lex == 0) {
		if (!(flags & 1)) return 0;
		uint64_t pf = md_u64(m, w);
		const md_array *fa = &m->functions;
		if (!fa->ok || !md_ref_fits(fa, pf)) return 0;
		uint64_t k = (pf - fa->base) / fa->stride;
		if (!b->fn_label[k]) {
			uint64_t pn = md_u64(m, pf);
			b->fn_label[k] = 1 + (pn ? pool_str(b, MD_STRINGS, pn) : 0);
		}
		return b->fn_label[k] - 1;
	}
	if ((lex == 1 || lex == 2) && (flags & 2)) return md_u32(m, w + (flags & 1 ? 8u : 0u) + 8u);
	return 0;
}

static void build_tree(vbuild *b)
{
	md_state *m = b->m;
	hpctk_vmodel *vm = b->vm;
	uint64_t hdr = m->lo[MD_CONTEXT];
	push_node(b, 0, HPCTK_VNONE, 0, HPCTK_VLEX_GLOBAL, 0, 0);
	uint64_t p = md_u64(m, hdr);
	uint16_t n = md_u16(m, hdr + 8);
	uint8_t stride = md_u8(m, hdr + 0x0a);
	if (n && (stride < 0x20 || !md_array_fits(m, MD_CONTEXT, p, n, stride, 8))) {
		b->ok = false;
		return;
	}
	for (unsigned i = 0; i < n && b->ok; i++) {
		uint64_t e = p + (uint64_t)i * stride;
		push_node(b, md_u32(m, e + 0x10), 0, 0, HPCTK_VLEX_ENTRY, pool_str(b, MD_STRINGS, md_u64(m, e + 0x18)), e);
	}
	/* Breadth first: node q's children are appended while q is read. */
	uint64_t limit = 1 + n + m->len[MD_CONTEXT] / 0x20;
	/* the nodes' arrays made once: the bound is the section's bytes (a
	 * {Ctx} is at least 0x20), so doubling from 1,024 only copied */
	if (limit > b->cap && !reserve(b, (size_t)limit)) return;
	for (uint32_t q = 1; q < vm->n && b->ok; q++) {
		uint64_t sz = md_u64(m, b->at[q]), c = md_u64(m, b->at[q] + 8);
		if (sz == 0) continue;
		if (!md_array_fits(m, MD_CONTEXT, c, sz, 1, 8)) {
			b->ok = false;
			return;
		}
		for (uint64_t o = c; o < c + sz && b->ok;) {
			if (!md_fits(m, MD_CONTEXT, o, 0x20) || vm->n >= limit) {
				b->ok = false;
				return;
			}
			uint64_t z = 0x20u + 8u * md_u8(m, o + 0x17);
			uint8_t lex = md_u8(m, o + 0x16);
			push_node(b, md_u32(m, o + 0x10), q, md_u16(m, o + 0x18), lex, ctx_label(b, o, lex), o);
			o += z;
		}
	}
}

/* Keys (ctxId << 32 | node), made in node order, sorted by ctxId: a
 * stable radix sort on the ctxId's bytes (the nodes stay in order within
 * a ctxId, as a sort of the whole key leaves them), 4 passes at most, a
 * pass skipped when every key has the same byte there. qsort's merge sort
 * cost 1.5% of a whole validation on a 40,000-context tree. False when
 * out of memory (the caller sorts with qsort). */
static bool sort_by_ctx(uint64_t *keys, uint32_t n)
{
	uint64_t *tmp = hv_malloc((n ? n : 1) * sizeof *tmp);
	uint32_t *count = hv_calloc(4 * 256, sizeof *count);
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return false;
	}
	for (uint32_t i = 0; i < n; i++)
		for (unsigned b = 0; b < 4; b++) count[b * 256 + (keys[i] >> (32 + 8 * b) & 255)]++;
	uint64_t *from = keys, *to = tmp;
	for (unsigned b = 0; b < 4; b++) {
		uint32_t *c = count + b * 256;
		if (n == 0 || c[from[0] >> (32 + 8 * b) & 255] == n) continue; /* one bucket: already in order */
		uint32_t sum = 0;
		for (unsigned v = 0; v < 256; v++) {
			uint32_t k = c[v];
			c[v] = sum;
			sum += k;
		}
		for (uint32_t i = 0; i < n; i++) to[c[from[i] >> (32 + 8 * b) & 255]++] = from[i];
		uint64_t *t = from;
		from = to;
		to = t;
	}
	if (from != keys) memcpy(keys, from, (size_t)n * sizeof *keys);
	free(tmp);
	free(count);
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The arguments are pool offsets, not pointers: pool_add may move the pool,
 * so a pointer taken before this call could dangle (ASan caught one). */
#define NOTE_NO_STR UINT32_MAX
static void note_once(vbuild *b, uint32_t *slot, const char *fmt, uint32_t a, uint32_t c)
{
	if (*slot || !b->vm->pool) return;
	char buf[256];
	const char *pa = a == NOTE_NO_STR ? "" : b->vm->pool + a;
	const char *pc = c == NOTE_NO_STR ? "" : b->vm->pool + c;
	int len = snprintf(buf, sizeof buf, fmt, pa, pc);
	*slot = pool_add(b->vm, buf, len < 0 ? 0 : (size_t)len < sizeof buf ? (size_t)len : sizeof buf - 1, &b->ok);
}

static int cmp_stat(const void *a, const void *b)
{
	const hpctk_vstat *x = a, *y = b;
	return x->pid != y->pid ? (x->pid < y->pid ? -1 : 1) : (x->stat > y->stat) - (x->stat < y->stat);
}

static void build_metrics(vbuild *b)
{
	md_state *m = b->m;
	hpctk_vmodel *vm = b->vm;
	uint64_t hdr = m->lo[MD_METRICS];
	uint64_t pm = md_u64(m, hdr);
	uint32_t n = md_u32(m, hdr + 8);
	uint8_t szm = md_u8(m, hdr + 0x0c), szpsi = md_u8(m, hdr + 0x0d), szss = md_u8(m, hdr + 0x0e);
	const md_array *sc = &m->scopes;
	if (n && (szm < 0x20 || !md_array_fits(m, MD_METRICS, pm, n, szm, 8))) {
		b->ok = false;
		return;
	}
	/* The tables cover the ids meta.db lists: a first pass finds the largest. */
	uint32_t npid = 0, nsid = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t e = pm + (uint64_t)i * szm;
		uint64_t ppsi = md_u64(m, e + 8), pss = md_u64(m, e + 0x10);
		uint16_t npsi = md_u16(m, e + 0x18), nss = md_u16(m, e + 0x1a);
		if (npsi && (szpsi < 0x10 || !md_array_fits(m, MD_METRICS, ppsi, npsi, szpsi, 8))) npsi = 0;
		if (nss && (szss < 0x18 || !md_array_fits(m, MD_METRICS, pss, nss, szss, 8))) nss = 0;
		for (uint16_t j = 0; j < npsi; j++) {
			uint32_t pid = md_u16(m, ppsi + (uint64_t)j * szpsi + 8);
			npid = pid + 1 > npid ? pid + 1 : npid;
		}
		for (uint16_t j = 0; j < nss; j++) {
			uint32_t sid = md_u16(m, pss + (uint64_t)j * szss + 0x12);
			nsid = sid + 1 > nsid ? sid + 1 : nsid;
		}
	}
	vm->metric_name = hv_malloc((n ? n : 1) * sizeof *vm->metric_name);
	if (!vm->metric_name || !hpctk_vmodel_tables(vm, npid, nsid)) {
		b->ok = false;
		return;
	}
	vm->nmetrics = n;
	size_t scap = 0;
	for (uint32_t i = 0; i < n && b->ok; i++) {
		uint64_t e = pm + (uint64_t)i * szm;
		vm->metric_name[i] = pool_str(b, MD_METRICS, md_u64(m, e));
		uint64_t ppsi = md_u64(m, e + 8), pss = md_u64(m, e + 0x10);
		uint16_t npsi = md_u16(m, e + 0x18), nss = md_u16(m, e + 0x1a);
		if (npsi && (szpsi < 0x10 || !md_array_fits(m, MD_METRICS, ppsi, npsi, szpsi, 8))) npsi = 0;
		if (nss && (szss < 0x18 || !md_array_fits(m, MD_METRICS, pss, nss, szss, 8))) nss = 0;
		int point = -1;
		for (uint16_t j = 0; j < npsi; j++) {
			uint64_t s = md_u64(m, ppsi + (uint64_t)j * szpsi);
			uint16_t pid = md_u16(m, ppsi + (uint64_t)j * szpsi + 8);
			uint8_t type = sc->ok && md_ref_fits(sc, s) ? md_u8(m, s + 8) : 255;
			uint8_t bit = type == 255 ? 0 : md_u8(m, s + 9);
			uint8_t kind = type == 1 ? HPCTK_VP_POINT : type == 2 ? HPCTK_VP_EXEC
				       : type == 3 && bit < 16 ? HPCTK_VP_TRANS : HPCTK_VP_CUSTOM;
			if (kind == HPCTK_VP_CUSTOM)
				note_once(b, &vm->note_custom,
					  "metric \"%s\" scope \"%s\" is a custom or unknown propagation scope (defined "
					  "outside meta.db): its propagated values cannot be checked",
					  vm->metric_name[i], type == 255 ? pool_add(vm, "?", 1, &b->ok) : pool_str(b, MD_METRICS, md_u64(m, s)));
			if (vm->kind[pid] != HPCTK_VP_NONE) kind = HPCTK_VP_AMBIGUOUS; /* its unique-id rule fired */
			vm->kind[pid] = kind;
			vm->bit[pid] = bit;
			vm->metric_of[pid] = i;
			vm->scope_name[pid] = type == 255 ? 0 : pool_str(b, MD_METRICS, md_u64(m, s));
			if (kind == HPCTK_VP_POINT) point = point == -1 ? pid : -2;
		}
		for (uint16_t j = 0; j < npsi; j++) {
			uint16_t pid = md_u16(m, ppsi + (uint64_t)j * szpsi + 8);
			vm->has_point[pid] = point >= 0;
			vm->point_of[pid] = point >= 0 ? (uint16_t)point : 0;
			if (point < 0 && (vm->kind[pid] == HPCTK_VP_EXEC || vm->kind[pid] == HPCTK_VP_TRANS))
				note_once(b, &vm->note_nopoint,
					  "metric \"%s\"%s has no single point scope instance: its propagated values have no "
					  "raw values to be checked against",
					  vm->metric_name[i], NOTE_NO_STR);
		}
		for (uint16_t j = 0; j < nss && b->ok; j++) {
			uint64_t s = pss + (uint64_t)j * szss, scope = md_u64(m, s);
			uint16_t sid = md_u16(m, s + 0x12);
			vm->stat_known[sid / 8] |= (uint8_t)(1u << (sid % 8));
			int pid = -1;
			for (uint16_t k = 0; k < npsi; k++)
				if (md_u64(m, ppsi + (uint64_t)k * szpsi) == scope) pid = md_u16(m, ppsi + (uint64_t)k * szpsi + 8);
			if (pid < 0) continue; /* metadb.metrics.summary-scope */
			if (!HV_GROW(vm->stats, scap, vm->nstats + 1, 64)) {
				b->ok = false;
				return;
			}
			uint32_t ftext = pool_str(b, MD_METRICS, md_u64(m, s + 8));
			hpctk_vformula f = hpctk_vformula_parse(vm->pool + ftext);
			if (!f.ok)
				note_once(b, &vm->note_formula,
					  "metric \"%s\" summary formula \"%s\" is not one of the recognised forms ($$, "
					  "$$^K, ($$)^K, pow($$,K), $$*$$, K*$$, $$*K): its statistic cannot be checked",
					  vm->metric_name[i], ftext);
			vm->stats[vm->nstats++] = (hpctk_vstat){(uint16_t)pid, md_u16(m, s + 0x12), md_u8(m, s + 0x10),
								f, i, ftext};
		}
	}
	if (vm->nstats) qsort(vm->stats, vm->nstats, sizeof *vm->stats, cmp_stat);
	size_t k = 0;
	for (uint32_t pid = 0; pid <= npid; pid++) {
		while (k < vm->nstats && vm->stats[k].pid < pid) k++;
		vm->first_stat[pid] = (uint32_t)k;
	}
}

hpctk_vmodel *md_values_build(md_state *m)
{
	if (!m->release || !m->ctx_ok || !m->metrics_ok || !m->usable[MD_CONTEXT] || !m->usable[MD_METRICS])
		return NULL;
	hpctk_vmodel *vm = hv_calloc(1, sizeof *vm);
	if (!vm) return NULL;
	vbuild b = {.m = m, .vm = vm, .ok = true};
	vm->meta_name = m->b->name;
	pool_add(vm, "<unknown function>", 18, &b.ok); /* label 0 */
	b.fn_label = hv_calloc(m->functions.ok && m->functions.count ? (size_t)m->functions.count : 1, sizeof *b.fn_label);
	if (!b.fn_label) b.ok = false;
	if (b.ok) build_tree(&b);
	if (b.ok) build_metrics(&b);
	if (b.ok) {
		/* (ctxId, node) pairs sorted as one u64 key */
		uint64_t *keys = hv_malloc((vm->n ? vm->n : 1) * sizeof *keys);
		vm->by_ctx = hv_malloc((vm->n ? vm->n : 1) * sizeof *vm->by_ctx);
		if (keys && vm->by_ctx) {
			for (uint32_t i = 0; i < vm->n; i++) keys[i] = (uint64_t)vm->node[i].ctx << 32 | i;
			if (!sort_by_ctx(keys, vm->n)) qsort(keys, vm->n, sizeof *keys, cmp_u64);
			for (uint32_t i = 0; i < vm->n; i++) vm->by_ctx[i] = (uint32_t)keys[i];
		} else {
			b.ok = false;
		}
		free(keys);
	}
	free(b.at);
	free(b.fn_label);
	if (b.ok && !hpctk_vmodel_index(vm)) b.ok = false;
	if (!b.ok) {
		hpctk_vmodel_free(vm);
		return NULL;
	}
	return vm;
}
