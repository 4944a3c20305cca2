/* The value model's lookups (values.h): node by ctxId, a context's path for
 * diagnostics, and the summary formulas the checker can evaluate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "values.h"

void hpctk_vmodel_free(hpctk_vmodel *vm)
{
	if (!vm) return;
	free(vm->node);
	free(vm->by_ctx);
	free(vm->byrank);
	free(vm->pool);
	free(vm->metric_name);
	free(vm->stats);
	free(vm->dense);
	free(vm->kid);
	free(vm->tables);
	free(vm);
}

bool hpctk_vmodel_tables(hpctk_vmodel *vm, uint32_t npid, uint32_t nsid)
{
	/* one block: the 4-byte tables, then the 2-byte ones, then the bytes */
	size_t n4 = 2 * (size_t)npid + 2 * ((size_t)npid + 1) + nsid;
	size_t n2 = 4 * (size_t)npid;
	size_t n1 = 2 * (size_t)npid + sizeof(bool) * npid + ((size_t)nsid + 7) / 8;
	uint8_t *t = hv_calloc(1, 4 * n4 + 2 * n2 + n1);
	if (!t) return false;
	free(vm->tables);
	vm->tables = t;
	vm->npid = npid;
	vm->nsid = nsid;
	uint32_t *u4 = (uint32_t *)(void *)t;
	vm->metric_of = u4, u4 += npid;
	vm->scope_name = u4, u4 += npid;
	vm->first_stat = u4, u4 += (size_t)npid + 1;
	vm->pfirst = u4, u4 += (size_t)npid + 1;
	vm->stat_of = u4, u4 += nsid;
	uint16_t *u2 = (uint16_t *)(void *)u4;
	vm->point_of = u2, u2 += npid;
	vm->dslot = u2, u2 += npid;
	vm->dpid = u2, u2 += npid;
	vm->plist = u2, u2 += npid;
	uint8_t *u1 = (uint8_t *)u2;
	vm->kind = u1, u1 += npid;
	vm->bit = u1, u1 += npid;
	vm->has_point = (bool *)u1, u1 += sizeof(bool) * npid;
	vm->stat_known = u1;
	return true;
}

uint32_t hpctk_vmodel_find(const hpctk_vmodel *vm, uint32_t ctx)
{
	size_t lo = 0, hi = vm->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t c = vm->node[vm->by_ctx[mid]].ctx;
		if (c == ctx) return vm->by_ctx[mid];
		if (c < ctx) lo = mid + 1;
		else hi = mid;
	}
	return HPCTK_VNONE;
}

static bool derived(const hpctk_vmodel *vm, uint32_t pid)
{
	return pid < vm->npid && (vm->kind[pid] == HPCTK_VP_EXEC || vm->kind[pid] == HPCTK_VP_TRANS) && vm->has_point[pid];
}

bool hpctk_vmodel_index(hpctk_vmodel *vm)
{
	const uint32_t np = vm->npid;
	vm->nd = 0;
	memset(vm->pfirst, 0, ((size_t)np + 1) * sizeof *vm->pfirst);
	for (uint32_t p = 0; p < np; p++) {
		vm->dslot[p] = HPCTK_VNOSLOT;
		if (!derived(vm, p)) continue;
		vm->dpid[vm->nd] = (uint16_t)p;
		vm->dslot[p] = (uint16_t)vm->nd++;
		vm->pfirst[vm->point_of[p] + 1]++;
	}
	for (uint32_t p = 1; p <= np; p++) vm->pfirst[p] += vm->pfirst[p - 1];
	/* each point pid's slots, in slot order: a cursor per point pid (plist
	 * is filled from pfirst's starts, kept in a scratch copy) */
	uint32_t *cur = hv_malloc(((size_t)np + 1) * sizeof *cur);
	if (!cur) return false;
	memcpy(cur, vm->pfirst, ((size_t)np + 1) * sizeof *cur);
	for (uint32_t k = 0; k < vm->nd; k++) {
		uint16_t pt = vm->point_of[vm->dpid[k]];
		vm->plist[cur[pt]++] = (uint16_t)k;
	}
	free(cur);
	for (uint32_t s = 0; s < vm->nsid; s++) vm->stat_of[s] = HPCTK_VNONE;
	for (size_t k = 0; k < vm->nstats; k++) {
		uint16_t s = vm->stats[k].stat;
		vm->stat_of[s] = vm->stat_of[s] == HPCTK_VNONE ? (uint32_t)k : HPCTK_VNONE - 1; /* twice: its unique rule fired */
	}
	/* Each node's children: contiguous, in parent order (the tree is read
	 * breadth first), so kid[] is a prefix sum; a tree not so numbered is
	 * refused (the checkers rely on it). */
	free(vm->kid);
	vm->kid = hv_malloc(((size_t)vm->n + 1) * sizeof *vm->kid);
	if (!vm->kid) return false;
	uint32_t q = 0;
	for (uint32_t i = 1; i < vm->n; i++) {
		uint32_t p = vm->node[i].parent;
		if (p == HPCTK_VNONE || p >= i || (i > 1 && p < vm->node[i - 1].parent)) return false;
		while (q <= p) vm->kid[q++] = i;
	}
	while (q <= vm->n) vm->kid[q++] = vm->n;
	/* eager: every child's ctxId below its own (check.c evaluates
	 * such a node when its own run ends) */
	for (uint32_t i = 0; i < vm->n; i++) {
		bool eager = true;
		for (uint32_t ch = vm->kid[i]; eager && ch < vm->kid[i + 1]; ch++) eager = vm->node[ch].ctx < vm->node[i].ctx;
		vm->node[i].eager = eager;
	}
	/* the nodes in ctxId order, parents by rank (the propagation checker's
	 * view: a profile's runs come in that order) */
	free(vm->byrank);
	vm->byrank = hv_malloc(((size_t)vm->n + 1) * sizeof *vm->byrank);
	uint32_t *rank = hv_malloc(((size_t)vm->n + 1) * sizeof *rank);
	if (!vm->byrank || !rank) {
		free(rank);
		return false;
	}
	for (uint32_t i = 0; i < vm->n; i++) rank[vm->by_ctx[i]] = i;
	for (uint32_t i = 0; i < vm->n; i++) {
		const hpctk_vnode *nd = &vm->node[vm->by_ctx[i]];
		vm->byrank[i] = (hpctk_vrank){nd->ctx, nd->parent == HPCTK_VNONE ? HPCTK_VNONE : rank[nd->parent], nd->prop,
					      nd->eager, 0, HPCTK_VNONE};
	}
	free(rank);
	/* Pool places, lent greedily in rank order (optimal for stretches on a
	 * line): at rank r the parent takes a place at its first child (a push
	 * comes before r's own evaluation), a node that is not eager takes one
	 * at its own rank for good, and an eager node gives its place back
	 * once evaluated. */
	uint32_t *spare = hv_malloc(((size_t)vm->n + 1) * sizeof *spare), nspare = 0;
	if (!spare) return false;
	vm->npool = 0;
	for (uint32_t i = 0; i < vm->n; i++) vm->byrank[i].slot = HPCTK_VNONE;
	for (uint32_t i = 0; i < vm->n; i++) {
		hpctk_vrank *me = &vm->byrank[i];
		uint32_t p = me->parent;
		if (p != HPCTK_VNONE && vm->byrank[p].slot == HPCTK_VNONE)
			vm->byrank[p].slot = nspare ? spare[--nspare] : vm->npool++;
		if (!me->eager && me->slot == HPCTK_VNONE) me->slot = nspare ? spare[--nspare] : vm->npool++;
		if (me->eager && me->slot != HPCTK_VNONE) spare[nspare++] = me->slot;
	}
	free(spare);
	/* ctxIds dense enough (at most 4 ids per node): a direct map */
	uint32_t max = 0;
	for (uint32_t i = 0; i < vm->n; i++) max = vm->node[i].ctx > max ? vm->node[i].ctx : max;
	free(vm->dense);
	vm->dense = NULL;
	vm->ndense = 0;
	if (vm->n && (uint64_t)max < 4ull * vm->n + 1024) {
		vm->dense = hv_malloc(((size_t)max + 1) * sizeof *vm->dense);
		if (!vm->dense) return false;
		for (uint32_t i = 0; i <= max; i++) vm->dense[i] = HPCTK_VNONE;
		/* a ctxId listed twice (its rule fired): the first node, as the search finds one */
		for (uint32_t i = vm->n; i-- > 0;) vm->dense[vm->node[i].ctx] = i;
		vm->ndense = max + 1;
	}
	return true;
}

static void note(const hpctk_vmodel *vm, hv_report *r, const char *file, uint32_t text)
{
	if (!text) return;
	hv_eval(r, HV_R_HPCTKDB_VALUES_UNVERIFIABLE, false);
	hv_emit(r, HV_R_HPCTKDB_VALUES_UNVERIFIABLE, vm->meta_name ? vm->meta_name : file, 0, 0, "meta.db/Metrics", "%s",
		vm->pool + text);
}

void hpctk_vmodel_notes(const hpctk_vmodel *vm, hv_report *r, const char *file)
{
	note(vm, r, file, vm->note_custom);
	note(vm, r, file, vm->note_nopoint);
	note(vm, r, file, vm->note_formula);
}

static int label(const hpctk_vmodel *vm, const hpctk_vnode *n, char *out, size_t cap)
{
	switch (n->lex) {
	case HPCTK_VLEX_GLOBAL: return snprintf(out, cap, "<global>");
	case HPCTK_VLEX_ENTRY:
	case 0: return snprintf(out, cap, "%s", vm->pool + n->label);
	case 1: return snprintf(out, cap, "loop@%u", n->label);
	case 2: return snprintf(out, cap, "line@%u", n->label);
	case 3: return snprintf(out, cap, "instruction");
	default: return snprintf(out, cap, "lexicalType%u", n->lex);
	}
}

/* The last 4 labels from the root down to n, "…/" when more are above. */
void hpctk_vmodel_path(const hpctk_vmodel *vm, uint32_t n, char *out, size_t cap)
{
	uint32_t chain[4];
	unsigned k = 0;
	uint32_t at = n;
	while (at != HPCTK_VNONE && k < 4) {
		chain[k++] = at;
		at = vm->node[at].parent;
	}
	size_t len = 0;
	out[0] = '\0';
	if (at != HPCTK_VNONE) len += (size_t)snprintf(out, cap, "\xe2\x80\xa6/");
	for (unsigned i = k; i-- > 0 && len < cap;) {
		int w = label(vm, &vm->node[chain[i]], out + len, cap - len);
		len += w > 0 ? (size_t)w : 0;
		if (i && len < cap) len += (size_t)snprintf(out + len, cap - len, "/");
	}
}

/* Skip spaces; match a literal. */
static const char *lit(const char *s, const char *w)
{
	while (*s == ' ') s++;
	size_t n = strlen(w);
	return strncmp(s, w, n) == 0 ? s + n : NULL;
}

static const char *num(const char *s, double *v)
{
	while (*s == ' ') s++;
	if (!((*s >= '0' && *s <= '9') || *s == '.')) return NULL;
	char *end;
	*v = strtod(s, &end);
	return end == s ? NULL : end;
}

/* `$$` or `($$)`. */
static const char *var(const char *s)
{
	const char *t = lit(s, "$$");
	if (t) return t;
	t = lit(s, "(");
	if (t && (t = lit(t, "$$")) && (t = lit(t, ")"))) return t;
	return NULL;
}

static bool end(const char *s)
{
	while (s && *s == ' ') s++;
	return s && *s == '\0';
}

/* The forms hpcprof and METRICS.yaml writers produce for the statistics:
 * a flat pattern match, no expression grammar (and so no recursion). */
hpctk_vformula hpctk_vformula_parse(const char *s)
{
	hpctk_vformula f = {true, 1.0, 1.0};
	const char *t;
	double k;
	if ((t = var(s))) {
		if (end(t)) return f;                                            /* $$ */
		const char *u;
		if ((u = lit(t, "^")) && (u = num(u, &k)) && end(u)) return (hpctk_vformula){true, 1.0, k}; /* $$^K */
		if ((u = lit(t, "**")) && (u = num(u, &k)) && end(u)) return (hpctk_vformula){true, 1.0, k};
		if ((u = lit(t, "*")) && (u = var(u)) && end(u)) return (hpctk_vformula){true, 1.0, 2.0};   /* $$*$$ */
		if ((u = lit(t, "*")) && (u = num(u, &k)) && end(u)) return (hpctk_vformula){true, k, 1.0}; /* $$*K */
	}
	if ((t = num(s, &k)) && (t = lit(t, "*")) && (t = var(t)) && end(t)) return (hpctk_vformula){true, k, 1.0};
	if ((t = lit(s, "pow(")) && (t = var(t)) && (t = lit(t, ",")) && (t = num(t, &k)) && (t = lit(t, ")")) && end(t))
		return (hpctk_vformula){true, 1.0, k};
	return (hpctk_vformula){false, 0, 0};
}
