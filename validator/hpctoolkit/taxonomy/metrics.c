/* The taxonomy's metrics, from roots: depth first through children: (an
 * explicit stack; an aliased metric is checked once), each with its keys,
 * format: and variants: (render:, formula: as one expression or split into
 * inclusive/exclusive with standard:/custom:, child variant:). Formulas are
 * walked by formulas.c. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "taxonomy.h"

/* ---- metrics and variants ---- */

static bool is_split(tx *t, uint32_t n)
{
	const yd_node *x = yd_at(&t->d, n);
	return x && x->kind == YD_MAP && !x->input &&
	       (yd_get(&t->d, n, "standard") != YD_NONE || yd_get(&t->d, n, "custom") != YD_NONE);
}

static void check_side(tx *t, uint32_t side, const char *path, const char *which)
{
	char p[HV_PATH_MAX];
	int ty = yd_type(&t->d, side);
	if (side == YD_NONE || ty == YD_T_NULL) return;
	if (!is_split(t, side)) {
		/* a bare formula (the spec's own example; older hpcprof) */
		tx_pathf(p, sizeof p, "%s/%s", path, which);
		tx_walk_formula(t, side, p, false);
		return;
	}
	uint32_t std = yd_get(&t->d, side, "standard"), cus = yd_get(&t->d, side, "custom");
	if (std != YD_NONE && yd_type(&t->d, std) != YD_T_NULL) {
		tx_pathf(p, sizeof p, "%s/%s/standard", path, which);
		tx_walk_formula(t, std, p, true);
	}
	if (cus != YD_NONE && yd_type(&t->d, cus) != YD_T_NULL) {
		tx_pathf(p, sizeof p, "%s/%s/custom", path, which);
		tx_walk_formula(t, cus, p, false);
	}
}

/* printf-like: [prefix]%(#0- +')*[width][.precision](eEfFgGaA)[suffix] */
static bool format_ok(const char *s, const char **why)
{
	int conv = 0;
	while (*s) {
		if (*s != '%') {
			s++;
			continue;
		}
		if (s[1] == '%') {
			s += 2;
			continue;
		}
		if (conv++) return *why = "more than one conversion (a literal % is written %%)", false;
		s++;
		while (*s && strchr("#0- +'", *s)) s++;
		while (isdigit((unsigned char)*s)) s++;
		if (*s == '.') {
			s++;
			while (isdigit((unsigned char)*s)) s++;
		}
		if (!*s || !strchr("eEfFgGaA", *s)) return *why = "the conversion is not one of e E f F g G a A (the value is a double)", false;
		s++;
	}
	if (!conv) return *why = "no conversion", false;
	return true;
}

static void check_format(tx *t, uint32_t f, const char *path)
{
	if (f == YD_NONE) return;
	const char *why = "not a string";
	char buf[64];
	bool ok = yd_type(&t->d, f) == YD_T_STR && format_ok(yd_str(&t->d, &t->d.node[f]), &why); /* before why is read */
	tx_check(t, HV_R_HPCTKDB_TAXONOMY_FORMAT, ok, f, path, "format: %s is not [prefix]%%(#0- +')*[width][.precision](eEfFgGaA)[suffix]: %s",
		 tx_text(t, f, buf, sizeof buf), why);
}

static bool render_has(tx *t, uint32_t rn, const char *w)
{
	const yd_node *x = yd_at(&t->d, rn);
	if (!x) return false;
	if (x->kind == YD_SCALAR) return yd_is(&t->d, rn, w);
	if (x->kind != YD_SEQ) return false;
	for (uint32_t i = 0; i < x->n; i++)
		if (yd_is(&t->d, t->d.edge[x->first + i], w)) return true;
	return false;
}

static void check_variant(tx *t, uint32_t metric, uint32_t vname, uint32_t v, const char *mpath)
{
	yd_doc *d = &t->d;
	char path[HV_PATH_MAX], buf[64];
	const yd_node *vn = &d->node[vname];
	tx_pathf(path, sizeof path, "%s/variants/%.*s", mpath, vn->kind == YD_SCALAR ? (int)(vn->len > 40 ? 40 : vn->len) : 1,
		    vn->kind == YD_SCALAR ? yd_str(d, vn) : "?");
	if (!tx_check(t, HV_R_HPCTKDB_TAXONOMY_VARIANT, d->node[v].kind == YD_MAP, v, path,
		      "a variant is a map of render:, format:, child variant:, formula:; found %s", tx_type_name(yd_type(d, v))))
		return;
	uint32_t render = yd_get(d, v, "render"), fmt = yd_get(d, v, "format");
	uint32_t cv = yd_get(d, v, "child variant"), formula = yd_get(d, v, "formula");
	if (render != YD_NONE) {
		const yd_node *rx = &d->node[render];
		bool ok = yd_type(d, render) == YD_T_STR || rx->kind == YD_SEQ;
		uint32_t bad = render;
		for (uint32_t i = 0; ok && i < (rx->kind == YD_SEQ ? rx->n : 1); i++) {
			uint32_t e = rx->kind == YD_SEQ ? d->edge[rx->first + i] : render;
			ok = yd_is(d, e, "number") || yd_is(d, e, "percent") || yd_is(d, e, "percentage") ||
			     yd_is(d, e, "hidden") || yd_is(d, e, "colorbar");
			if (!ok) bad = e;
		}
		tx_check(t, HV_R_HPCTKDB_TAXONOMY_VARIANT, ok, bad, path,
			 "render: elements are number, percent, hidden or colorbar; found %s", tx_text(t, bad, buf, sizeof buf));
	}
	check_format(t, fmt, path);
	bool first = yd_is(d, formula, "first"), sum = yd_is(d, formula, "sum");
	uint32_t inc = YD_NONE, exc = YD_NONE;
	if (formula != YD_NONE && !first && !sum) {
		if (tx_check(t, HV_R_HPCTKDB_TAXONOMY_VARIANT, d->node[formula].kind == YD_MAP && !d->node[formula].input,
			     formula, path, "formula: is 'first', 'sum' or a map of inclusive:/exclusive:; found %s",
			     d->node[formula].kind == YD_MAP ? "an alias of an input" : tx_text(t, formula, buf, sizeof buf))) {
			inc = yd_get(d, formula, "inclusive");
			exc = yd_get(d, formula, "exclusive");
			check_side(t, inc, path, "formula/inclusive");
			check_side(t, exc, path, "formula/exclusive");
			tx_viewer_formula(t, vname, formula, path);
		}
	}
	if (render != YD_NONE && (render_has(t, render, "percent") || render_has(t, render, "percentage")))
		tx_check(t, HV_R_HPCTKDB_TAXONOMY_VARIANT, first || sum || (inc != YD_NONE && yd_type(d, inc) != YD_T_NULL), render,
			 path, "render: percent shows a share of the global inclusive value, but this variant has no "
			       "formula: inclusive:");
	if (render != YD_NONE && render_has(t, render, "colorbar"))
		tx_check(t, HV_R_HPCTKDB_TAXONOMY_VARIANT, !first, render, path,
			 "render: colorbar compares the children with this value; formula: first makes them equal");
	if (cv == YD_NONE) return;
	/* explicit child variant: one name for all children, or one per child */
	uint32_t ch = yd_get(d, metric, "children");
	const yd_node *cx = yd_at(d, ch);
	uint32_t nch = cx && cx->kind == YD_SEQ ? cx->n : 0;
	if (nch == 0) return; /* nothing to take values from: ignored (as the spec's own example shows) */
	const yd_node *cvx = &d->node[cv];
	bool seq = cvx->kind == YD_SEQ;
	if (!tx_check(t, HV_R_HPCTKDB_TAXONOMY_CHILD_VARIANT, (seq && cvx->n == nch) || yd_type(d, cv) == YD_T_STR, cv, path,
		      "child variant: is one variant name or a sequence of one per child; found %s for %u children",
		      seq ? "a sequence of a different length" : tx_type_name(yd_type(d, cv)), nch))
		return;
	for (uint32_t i = 0; i < nch && !t->over; i++) {
		if (!tx_step(t)) break;
		uint32_t c = d->edge[cx->first + i];
		uint32_t want = seq ? d->edge[cvx->first + i] : cv;
		uint32_t cvars = yd_get(d, c, "variants");
		if (d->node[c].kind != YD_MAP || yd_type(d, want) != YD_T_STR) continue; /* their own rules */
		tx_check(t, HV_R_HPCTKDB_TAXONOMY_CHILD_VARIANT, yd_get(d, cvars, yd_str(d, &d->node[want])) != YD_NONE, want,
			 path, "child variant: %s is not a variant of child %u", tx_text(t, want, buf, sizeof buf), i);
	}
}

typedef struct mitem {
	uint32_t node, parent, index; /* parent: index into the item list, YD_NONE for a root */
} mitem;

static void item_path(const mitem *items, uint32_t k, const char *file, char *out, size_t cap)
{
	uint32_t chain[8];
	int n = 0;
	for (uint32_t i = k; i != YD_NONE && n < 8; i = items[i].parent) chain[n++] = i;
	int len = snprintf(out, cap, "%s/%s", file, n == 8 && items[chain[7]].parent != YD_NONE ? ".../" : "");
	for (int j = n - 1; j >= 0 && len >= 0 && (size_t)len < cap; j--)
		len += snprintf(out + len, cap - (size_t)len, "%s%s[%u]", j == n - 1 ? "" : "/",
				items[chain[j]].parent == YD_NONE ? "roots" : "children", items[chain[j]].index);
}

void tx_check_metrics(tx *t, uint32_t roots)
{
	yd_doc *d = &t->d;
	mitem *items = NULL;
	/* indices are uint32_t: the capacities stop at UINT32_MAX */
	uint32_t nitems = 0, *st = NULL, nst = 0;
	size_t cap = 0, stcap = 0;
	char path[HV_PATH_MAX], buf[64];
	const yd_node *rx = &d->node[roots];
	/* every root, then depth-first its children */
	for (uint32_t i = rx->n; i-- > 0;) {
		if (!HV_GROW_UPTO(items, cap, (size_t)nitems + 1, 64, UINT32_MAX)) goto out;
		items[nitems] = (mitem){d->edge[rx->first + i], YD_NONE, i};
		if (!HV_GROW_UPTO(st, stcap, (size_t)nst + 1, 64, UINT32_MAX)) goto out;
		st[nst++] = nitems++;
	}
	while (nst > 0 && !t->over) {
		uint32_t k = st[--nst];
		uint32_t m = items[k].node;
		bool root = items[k].parent == YD_NONE;
		if (!tx_step(t)) break;
		item_path(items, k, tx_base_name(t->file), path, sizeof path);
		yd_node *x = &d->node[m];
		if (x->seen & SEEN_METRIC) continue; /* an alias of a metric already checked */
		x->seen |= SEEN_METRIC;
		if (!tx_check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, x->kind == YD_MAP && !x->input, m, path,
			      "a metric is a map with name:, description:, variants:, children:; found %s",
			      x->input ? "an input" : tx_type_name(yd_type(d, m))))
			continue;
		uint32_t name = yd_get(d, m, "name"), desc = yd_get(d, m, "description");
		uint32_t sdesc = yd_get(d, m, "short description"), vis = yd_get(d, m, "visible by default");
		uint32_t pres = yd_get(d, m, "presentation"), ch = yd_get(d, m, "children");
		uint32_t vars = yd_get(d, m, "variants"), fmt = yd_get(d, m, "format");
		t->cur_metric = m;
		tx_check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, name != YD_NONE && yd_type(d, name) == YD_T_STR, name != YD_NONE ? name : m,
			 path, "name: (a string) is required; found %s", name == YD_NONE ? "none" : tx_type_name(yd_type(d, name)));
		tx_check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, desc == YD_NONE || yd_type(d, desc) == YD_T_STR, desc, path,
			 "description: is a string; found %s", tx_type_name(yd_type(d, desc)));
		tx_check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, sdesc == YD_NONE || yd_type(d, sdesc) == YD_T_STR, sdesc, path,
			 "short description: is a string; found %s", tx_type_name(yd_type(d, sdesc)));
		tx_check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, vis == YD_NONE || yd_type(d, vis) == YD_T_BOOL, vis, path,
			 "visible by default: is true or false; found %s", tx_text(t, vis, buf, sizeof buf));
		if (pres != YD_NONE)
			tx_check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, root && yd_is(d, pres, "column"), pres, path,
				 root ? "presentation: must be 'column'; found %s"
				      : "presentation: is allowed only on root metrics (found %s on a child)",
				 tx_text(t, pres, buf, sizeof buf));
		check_format(t, fmt, path);
		/* The spec lets variants: be omitted; hpcviewer's parseMetric
		 * throws without it (variants: {} loads). */
		tx_check(t, HV_R_HPCTKDB_TAXONOMY_VIEWER_VARIANTS, vars != YD_NONE, m, path,
			 "no variants: map; hpcviewer 2025.01 refuses the database (IllegalStateException: No list of children),"
			 " hatchet 1.4.0 too (KeyError: 'variants'); write variants: {} for a metric without a column");
		if (vars != YD_NONE &&
		    tx_check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, d->node[vars].kind == YD_MAP, vars, path,
			     "variants: is a map of variant names to variants; found %s", tx_type_name(yd_type(d, vars)))) {
			uint32_t *keys, *vals, n;
			if (yd_pairs(d, vars, &keys, &vals, &n)) {
				for (uint32_t i = 0; i < n && !t->over; i++) check_variant(t, m, keys[i], vals[i], path);
				free(keys);
				free(vals);
			}
		}
		if (ch == YD_NONE ||
		    !tx_check(t, HV_R_HPCTKDB_TAXONOMY_METRIC, d->node[ch].kind == YD_SEQ, ch, path,
			      "children: is a sequence of metrics; found %s", tx_type_name(yd_type(d, ch))))
			continue;
		const yd_node *cx = &d->node[ch];
		for (uint32_t i = cx->n; i-- > 0;) {
			if (!HV_GROW_UPTO(items, cap, (size_t)nitems + 1, 64, UINT32_MAX)) goto out;
			items[nitems] = (mitem){d->edge[cx->first + i], k, i};
			if (!HV_GROW_UPTO(st, stcap, (size_t)nst + 1, 64, UINT32_MAX)) goto out;
			st[nst++] = nitems++;
		}
	}
out:
	free(items);
	free(st);
}
