/* hpcvet dump of metrics/NAME.yaml, the metric taxonomy: its inputs, then
 * its metrics depth-first (roots, their children) with their variants,
 * aliases and merge keys resolved (validator/hpctoolkit/taxonomy/yamldoc.c). A
 * formula is shown by what it is: the input it names (inputs[K]) or an
 * expression. Bounded like the check: a document past the YAML limits is a
 * "stop" item, and the walk stops with the output budget. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "hpctoolkit/taxonomy/yamldoc.h"
#include "dumpers.h"

typedef struct tx_dump {
	hv_dump_ctx *d;
	yd_doc y;
	uint32_t *input_of; /* node -> index in inputs:, YD_NONE */
} tx_dump;

static void put_scalar(tx_dump *t, const char *key, uint32_t n, const char *dflt)
{
	const yd_node *x = yd_at(&t->y, n);
	if (x && x->kind == YD_SCALAR) dw_strn(t->d->w, key, (const uint8_t *)yd_str(&t->y, x), x->len);
	else if (x) dw_str(t->d->w, key, x->kind == YD_SEQ ? "(sequence)" : "(map)");
	else if (dflt) dw_str(t->d->w, key, dflt);
}

static void put_formula(tx_dump *t, const char *key, uint32_t n)
{
	if (n == YD_NONE || yd_type(&t->y, n) == YD_T_NULL) return;
	char buf[32];
	if (t->input_of[n] != YD_NONE) {
		snprintf(buf, sizeof buf, "inputs[%u]", t->input_of[n]);
		dw_str(t->d->w, key, buf);
	} else if (t->y.node[n].kind == YD_SCALAR) {
		put_scalar(t, key, n, NULL);
	} else {
		dw_str(t->d->w, key, "expression");
	}
}

static void put_side(tx_dump *t, uint32_t formula, const char *side)
{
	uint32_t s = yd_get(&t->y, formula, side);
	if (s == YD_NONE) return;
	char k1[32], k2[32];
	snprintf(k1, sizeof k1, "%s_standard", side);
	snprintf(k2, sizeof k2, "%s_custom", side);
	const yd_node *x = &t->y.node[s];
	bool split = x->kind == YD_MAP && t->input_of[s] == YD_NONE &&
		     (yd_get(&t->y, s, "standard") != YD_NONE || yd_get(&t->y, s, "custom") != YD_NONE);
	if (!split) {
		put_formula(t, side, s);
		return;
	}
	put_formula(t, k1, yd_get(&t->y, s, "standard"));
	put_formula(t, k2, yd_get(&t->y, s, "custom"));
}

static void variants(tx_dump *t, uint32_t m, const char *mpath, uint64_t depth)
{
	hv_dump_ctx *d = t->d;
	uint32_t vars = yd_get(&t->y, m, "variants");
	uint32_t *keys, *vals, n;
	if (vars == YD_NONE || !yd_pairs(&t->y, vars, &keys, &vals, &n)) return;
	for (uint32_t i = 0; i < n && !dw_full(d->w); i++) {
		const yd_node *k = &t->y.node[keys[i]];
		const yd_node *v = &t->y.node[vals[i]];
		hv_dump_item(d, "taxonomy-variant", yd_byte_offset(&t->y, v->off), 0, "%s/variants/%.*s", mpath,
			     k->kind == YD_SCALAR ? (int)(k->len > 48 ? 48 : k->len) : 1,
			     k->kind == YD_SCALAR ? yd_str(&t->y, k) : "?");
		dw_u64(d->w, "depth", depth);
		put_scalar(t, "name", keys[i], NULL);
		if (v->kind == YD_MAP) {
			uint32_t r = yd_get(&t->y, vals[i], "render"), f = yd_get(&t->y, vals[i], "formula");
			const yd_node *rx = yd_at(&t->y, r);
			if (rx && rx->kind == YD_SEQ) {
				dw_arr_begin(d->w, "render");
				for (uint32_t j = 0; j < rx->n && j < 8; j++) put_scalar(t, NULL, t->y.edge[rx->first + j], NULL);
				dw_arr_end(d->w);
			} else if (rx) {
				put_scalar(t, "render", r, NULL);
			}
			put_scalar(t, "format", yd_get(&t->y, vals[i], "format"), NULL);
			put_scalar(t, "child_variant", yd_get(&t->y, vals[i], "child variant"), NULL);
			if (f != YD_NONE && t->y.node[f].kind == YD_MAP && t->input_of[f] == YD_NONE) {
				put_side(t, f, "inclusive");
				put_side(t, f, "exclusive");
			} else if (f != YD_NONE) {
				put_formula(t, "formula", f);
			}
		}
		dw_item_end(d->w);
	}
	free(keys);
	free(vals);
}

typedef struct ditem {
	uint32_t node, parent, index;
	uint64_t depth;
} ditem;

static void metrics(tx_dump *t, uint32_t roots)
{
	hv_dump_ctx *d = t->d;
	const yd_node *rx = yd_at(&t->y, roots);
	if (!rx || rx->kind != YD_SEQ) return;
	ditem *it = NULL;
	uint32_t *st = NULL;
	size_t nit = 0, cap = 0, nst = 0, scap = 0;
	char path[HV_PATH_MAX];
	for (uint32_t i = rx->n; i-- > 0;) {
		/* an item's index is a uint32_t on the stack */
		if (!HV_GROW_UPTO(it, cap, nit + 1, 64, UINT32_MAX) || !HV_GROW(st, scap, nst + 1, 64)) goto out;
		it[nit] = (ditem){t->y.edge[rx->first + i], YD_NONE, i, 0};
		st[nst++] = (uint32_t)nit++;
	}
	while (nst > 0 && !dw_full(d->w)) {
		uint32_t k = st[--nst];
		uint32_t m = it[k].node;
		/* the path: at most 8 levels named, from the root down */
		uint32_t chain[8];
		int n = 0;
		for (uint32_t i = k; i != YD_NONE && n < 8; i = it[i].parent) chain[n++] = i;
		int len = snprintf(path, sizeof path, "%s", n == 8 && it[chain[7]].parent != YD_NONE ? ".../" : "");
		for (int j = n - 1; j >= 0 && len >= 0 && (size_t)len < sizeof path; j--)
			len += snprintf(path + len, sizeof path - (size_t)len, "%s%s[%u]", j == n - 1 ? "" : "/",
					it[chain[j]].parent == YD_NONE ? "roots" : "children", it[chain[j]].index);
		const yd_node *x = &t->y.node[m];
		hv_dump_item(d, "taxonomy-metric", yd_byte_offset(&t->y, x->off), 0, "%s", path);
		dw_u64(d->w, "depth", it[k].depth);
		if (x->kind == YD_MAP) {
			put_scalar(t, "name", yd_get(&t->y, m, "name"), NULL);
			put_scalar(t, "description", yd_get(&t->y, m, "description"), NULL);
			put_scalar(t, "visible_by_default", yd_get(&t->y, m, "visible by default"), NULL);
			put_scalar(t, "format", yd_get(&t->y, m, "format"), NULL);
		}
		dw_item_end(d->w);
		if (x->kind != YD_MAP) continue;
		variants(t, m, path, it[k].depth);
		uint32_t ch = yd_get(&t->y, m, "children");
		const yd_node *cx = yd_at(&t->y, ch);
		if (!cx || cx->kind != YD_SEQ) continue;
		for (uint32_t i = cx->n; i-- > 0;) {
			if (!HV_GROW_UPTO(it, cap, nit + 1, 64, UINT32_MAX) || !HV_GROW(st, scap, nst + 1, 64)) goto out;
			it[nit] = (ditem){t->y.edge[cx->first + i], k, i, it[k].depth + 1};
			st[nst++] = (uint32_t)nit++;
		}
		/* each pop writes an item, so the budget bounds the walk; the list
		 * of items is bounded by it too (never more than budget x fan-out) */
	}
out:
	free(it);
	free(st);
}

void hv_dump_taxonomy(hv_dump_ctx *d)
{
	tx_dump t = {.d = d};
	if (d->b->size > YD_MAX_BYTES) {
		hv_dump_stop(d, 0, "larger than any metric taxonomy (over 64 MiB): not parsed");
		return;
	}
	yd_build(&t.y, d->b);
	const yd_doc *y = &t.y;
	uint32_t root = y->root;
	if (y->oom || y->too_big || y->too_deep || y->syntax || root == YD_NONE || y->node[root].expanded > YD_MAX_EXPANDED ||
	    y->node[root].kind != YD_MAP) {
		hv_dump_stop(d, y->syntax ? yd_byte_offset(y, y->syntax_off) : y->too_deep ? yd_byte_offset(y, y->deep_off) : 0,
			     y->syntax ? "not well-formed YAML"
			     : y->oom ? "out of memory"
			     : y->too_deep ? "nested past the taxonomy's bounds (64 deep, 32 in flow style)"
			     : root == YD_NONE || y->node[root].kind != YD_MAP ? "not a map of version:, inputs:, roots:"
									       : "past the taxonomy's bounds (size or alias expansion)");
		yd_free(&t.y);
		return;
	}
	t.input_of = hv_malloc((size_t)y->n * sizeof *t.input_of);
	if (!t.input_of) {
		hv_dump_stop(d, 0, "out of memory");
		yd_free(&t.y);
		return;
	}
	memset(t.input_of, 0xff, (size_t)y->n * sizeof *t.input_of);
	uint32_t ver = yd_get(&t.y, root, "version"), inputs = yd_get(&t.y, root, "inputs");
	hv_dump_item(d, "taxonomy", 0, d->b->size, "taxonomy");
	put_scalar(&t, "version", ver, NULL);
	dw_u64(d->w, "nodes", y->n);
	dw_u64(d->w, "expanded_nodes", y->node[root].expanded);
	dw_item_end(d->w);
	const yd_node *ix = yd_at(&t.y, inputs);
	if (ix && ix->kind == YD_SEQ) {
		for (uint32_t i = 0; i < ix->n; i++) {
			uint32_t e = t.y.edge[ix->first + i];
			if (t.input_of[e] == YD_NONE) t.input_of[e] = i;
		}
		for (uint32_t i = 0; i < ix->n && !dw_full(d->w); i++) {
			uint32_t e = t.y.edge[ix->first + i];
			hv_dump_item(d, "taxonomy-input", yd_byte_offset(&t.y, t.y.node[e].off), 0, "inputs[%u]", i);
			if (t.y.node[e].kind == YD_MAP) {
				put_scalar(&t, "metric", yd_get(&t.y, e, "metric"), NULL);
				put_scalar(&t, "scope", yd_get(&t.y, e, "scope"), NULL);
				put_scalar(&t, "formula", yd_get(&t.y, e, "formula"), "$$");
				put_scalar(&t, "combine", yd_get(&t.y, e, "combine"), "sum");
			}
			dw_item_end(d->w);
		}
	}
	metrics(&t, yd_get(&t.y, root, "roots"));
	free(t.input_of);
	yd_free(&t.y);
}
