/* The value model's lookups (values.h): node by ctxId, a context's path for
 * diagnostics, and the summary formulas the checker can evaluate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "values.h"

void hpctk_vmodel_free(hpctk_vmodel *vm)
{
	if (!vm) return;
	free(vm->node);
	free(vm->by_ctx);
	free(vm->pool);
	free(vm->metric_name);
	free(vm->stats);
	free(vm);
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
