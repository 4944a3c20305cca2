/* The taxonomy as the reference readers read it, modelled on their code and
 * measured on one-change variants of real databases:
 *
 * hpcviewer 2025.01 (hpcdata 8.4.4, MetricYamlParser.parseVariants and
 * createMetric): a variant's formula: map is read entry by entry; each value
 * is cast to a map; an input is taken as the column itself (its meta.db
 * metric, with that metric's index); any other map is read by its FIRST
 * entry only, which again must be an input or a function map that
 * deconstructFormula turns into text (operators of at most two arguments,
 * no sequences). Refusals are errors (hpctkdb.taxonomy.viewer-*).
 *
 * hatchet 1.4.0 (hpctoolkit_v4_reader.DefaultReader, CCTReader,
 * create_graphframe): roots[].name -> the Sum variant (else ""), only when
 * its render holds percent, -> formula.{inclusive,exclusive}.standard.scope;
 * then every meta.db metric with values is looked up by name. One note
 * (hpctkdb.taxonomy.hatchet) names the first place it fails or misreads. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "taxonomy.h"
#include "hpctoolkit/values/values.h"

/* ---- hpcviewer 2025.01 ---- */

/* The first key/value pair of map m as written (hpcviewer's LinkedHashMap
 * keeps document order); false for an empty map or a merge key first,
 * whose order SnakeYAML decides. */
static bool first_pair(const tx *t, uint32_t m, uint32_t *key, uint32_t *val)
{
	const yd_node *x = yd_at(&t->d, m);
	if (!x || x->kind != YD_MAP || x->n < 2) return false;
	*key = t->d.edge[x->first];
	*val = t->d.edge[x->first + 1];
	return !yd_is(&t->d, *key, "<<");
}

static bool has_own_key(const tx *t, uint32_t m, const char *k)
{
	const yd_node *x = yd_at(&t->d, m);
	if (!x || x->kind != YD_MAP) return false;
	for (uint32_t i = 0; i + 1 < x->n; i += 2)
		if (yd_is(&t->d, t->d.edge[x->first + i], k)) return true;
	return false;
}

static const char *kind_word(const tx *t, uint32_t n)
{
	int ty = yd_type(&t->d, n);
	return ty == YD_T_SEQ ? "a sequence (the parenthesised form)" : ty == YD_T_NULL ? "null" : ty == YD_T_STR ? "text" : "a number or boolean";
}

/* An input read as a whole column (at key `at`): a second one is refused. */
static void viewer_reads_input(tx *t, uint32_t in_node, uint32_t at, const char *path)
{
	uint32_t k = t->input_of[in_node];
	if (k == YD_NONE || !t->in[k].ok) return;
	tx_input *in = &t->in[k];
	char b1[64], b2[64];
	const yd_node *first = in->viewer_at != YD_NONE ? yd_at(&t->d, in->viewer_at) : NULL;
	if (tx_check(t, HV_R_HPCTKDB_TAXONOMY_VIEWER_INPUT_REUSE, first == NULL, at, path,
		     "input '%s' (scope %s) is already the whole formula of a column (metric %s, variant %s, line %u): "
		     "hpcviewer 2025.01 gives both columns its meta.db metric's index and refuses the database "
		     "(IllegalArgumentException: Non-unique index metric)",
		     in->metric, in->scope, first ? tx_text(t, yd_get(&t->d, in->viewer_metric, "name"), b1, sizeof b1) : "",
		     first ? tx_text(t, in->viewer_variant, b2, sizeof b2) : "", first ? first->line : 0)) {
		in->viewer_at = at;
		in->viewer_metric = t->cur_metric;
		in->viewer_variant = t->cur_variant;
	}
}

/* A function map as deconstructFormula reads it: each pair an operator and
 * a list of at most two arguments; an argument is an input, a number or
 * name, or another function map. False (and *why) at the first problem. */
static bool viewer_function(tx *t, uint32_t f, const char **why, uint32_t *bad)
{
	yd_doc *d = &t->d;
	t->epoch++;
	t->nstack = 0;
	if (!tx_push(t, f)) return true;
	while (t->nstack > 0 && !t->over) {
		uint32_t n = t->stack[--t->nstack];
		yd_node *x = &d->node[n];
		if (x->mark == t->epoch) continue;
		x->mark = t->epoch;
		if (!tx_step(t)) break;
		if (x->seen & SEEN_FORMULA_BAD) return true; /* hpctkdb.taxonomy.formula said it */
		for (uint32_t i = 0; i + 1 < x->n; i += 2) {
			uint32_t args = d->edge[x->first + i + 1];
			const yd_node *a = &d->node[args];
			*bad = args;
			if (a->kind != YD_SEQ || a->input)
				return *why = "a function's arguments are not a list (IllegalStateException: Unknown expression)", false;
			if (a->n > 2)
				return *why = "a function of more than two arguments (IllegalStateException: Formula has N subs)", false;
			for (uint32_t j = 0; j < a->n; j++) {
				uint32_t e = d->edge[a->first + j];
				const yd_node *ex = &d->node[e];
				*bad = e;
				if (ex->kind == YD_SEQ)
					return *why = "a sequence among a function's arguments (ExpressionParseException)", false;
				if (ex->kind == YD_MAP && !ex->input && !tx_push(t, e)) return true;
			}
		}
	}
	return true;
}

/* One value of a variant's formula: map (inclusive:, exclusive:, ...). */
static void viewer_side(tx *t, uint32_t key, uint32_t side, const char *vpath)
{
	yd_doc *d = &t->d;
	char path[HV_PATH_MAX], buf[64];
	const yd_node *kx = &d->node[key];
	tx_pathf(path, sizeof path, "%s/formula/%.*s", vpath, kx->kind == YD_SCALAR ? (int)(kx->len > 40 ? 40 : kx->len) : 1,
		 kx->kind == YD_SCALAR ? yd_str(d, kx) : "?");
	const yd_node *s = &d->node[side];
	if (s->input) {
		viewer_reads_input(t, side, key, path);
		return;
	}
	if (!tx_check(t, HV_R_HPCTKDB_TAXONOMY_VIEWER_FORMULA, s->kind == YD_MAP, key, path,
		      "%s is %s; hpcviewer 2025.01 casts it to a map (an input, or a map of standard:/custom:) and refuses "
		      "the database (%s)",
		      tx_text(t, key, buf, sizeof buf), kind_word(t, side),
		      s->kind == YD_SCALAR && yd_type(d, side) == YD_T_NULL ? "NullPointerException"
									     : "ClassCastException: ... cannot be cast to class java.util.LinkedHashMap"))
		return;
	uint32_t k1, f;
	if (!first_pair(t, side, &k1, &f)) return;
	if (yd_is(d, key, "exclusive"))
		tx_check(t, HV_R_HPCTKDB_TAXONOMY_VIEWER_ORDER, !(yd_is(d, k1, "standard") && has_own_key(t, side, "custom")), k1, path,
			 "standard: comes before custom:; hpcviewer 2025.01 reads only the first entry, takes the "
			 "function-scope metric and shows the exclusive column hidden: write custom: first, as hpcprof does");
	char fpath[HV_PATH_MAX];
	const yd_node *kk = &d->node[k1];
	tx_pathf(fpath, sizeof fpath, "%s/%.*s", path, kk->kind == YD_SCALAR ? (int)(kk->len > 40 ? 40 : kk->len) : 1,
		 kk->kind == YD_SCALAR ? yd_str(d, kk) : "?");
	const yd_node *fx = &d->node[f];
	if (fx->seen & SEEN_FORMULA_BAD) return; /* hpctkdb.taxonomy.formula said it */
	if (fx->input) {
		viewer_reads_input(t, f, k1, fpath);
		return;
	}
	if (!tx_check(t, HV_R_HPCTKDB_TAXONOMY_VIEWER_FORMULA, fx->kind == YD_MAP, k1, fpath,
		      "the formula hpcviewer 2025.01 reads here (the first entry) is %s, not an input or a function map such "
		      "as {/: [a, b]}: it refuses the database (%s)",
		      kind_word(t, f),
		      fx->kind == YD_SCALAR && yd_type(d, f) == YD_T_NULL ? "NullPointerException"
									    : "ClassCastException: ... cannot be cast to class java.util.LinkedHashMap"))
		return;
	const char *why = NULL;
	uint32_t bad = f;
	bool ok = viewer_function(t, f, &why, &bad);
	tx_check(t, HV_R_HPCTKDB_TAXONOMY_VIEWER_FORMULA, ok, bad, fpath, "hpcviewer 2025.01 cannot read this formula: %s",
		 why ? why : "");
}

void tx_viewer_formula(tx *t, uint32_t vname, uint32_t formula, const char *vpath)
{
	t->cur_variant = vname;
	const yd_node *x = yd_at(&t->d, formula);
	if (!x || x->kind != YD_MAP || x->input) return;
	for (uint32_t i = 0; i + 1 < x->n && !t->over; i += 2) {
		uint32_t key = t->d.edge[x->first + i];
		if (yd_is(&t->d, key, "<<")) continue;
		viewer_side(t, key, t->d.edge[x->first + i + 1], vpath);
	}
}

/* ---- hatchet 1.4.0 ---- */

typedef struct hroot {
	uint32_t node, name;  /* the root and its name scalar */
	uint32_t at;          /* where hatchet stops reading it */
	const char *why;      /* why it has no inclusive/exclusive scope, NULL: it has both */
	uint32_t scope[2];    /* then its inclusive and exclusive standard scope: nodes */
	bool missing_inc;     /* (for KeyError: 'inclusive' vs 'exclusive') */
} hroot;

static bool has_sub(const char *s, size_t n, const char *w)
{
	size_t m = strlen(w);
	for (size_t i = 0; m && i + m <= n; i++)
		if (memcmp(s + i, w, m) == 0) return true;
	return false;
}

/* Python's `"percent" in render`: list membership, substring of a string,
 * key of a map. */
static bool py_in(const tx *t, uint32_t n, const char *w)
{
	const yd_node *x = yd_at(&t->d, n);
	if (!x) return false;
	if (x->kind == YD_SCALAR) return yd_type(&t->d, n) == YD_T_STR && has_sub(yd_str(&t->d, x), x->len, w);
	for (uint32_t i = 0; i < x->n; i += x->kind == YD_MAP ? 2 : 1)
		if (yd_is(&t->d, t->d.edge[x->first + i], w)) return true;
	return false;
}

/* Python's `v[key]` on a loaded node: the exception hatchet raises, NULL
 * when it yields a value (*out). */
static const char *py_index(tx *t, uint32_t n, const char *key, uint32_t *out)
{
	int ty = yd_type(&t->d, n);
	if (ty == YD_T_MAP) {
		*out = yd_get(&t->d, n, key);
		if (*out != YD_NONE) return NULL;
		static const char *const errs[][2] = {{"variants", "KeyError: 'variants'"}, {"render", "KeyError: 'render'"},
						       {"formula", "KeyError: 'formula'"}, {"standard", "KeyError: 'standard'"},
						       {"scope", "KeyError: 'scope'"}};
		for (size_t i = 0; i < sizeof errs / sizeof *errs; i++)
			if (strcmp(errs[i][0], key) == 0) return errs[i][1];
		return "KeyError";
	}
	return ty == YD_T_SEQ ? "TypeError: list indices must be integers or slices, not str"
	       : ty == YD_T_STR ? "TypeError: string indices must be integers"
	       : ty == YD_T_NULL ? "TypeError: 'NoneType' object is not subscriptable"
				 : "TypeError: the value is not subscriptable";
}

static void hatchet_note(tx *t, uint32_t at, const char *path, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void hatchet_note(tx *t, uint32_t at, const char *path, const char *fmt, ...)
{
	hv_eval(t->r, HV_R_HPCTKDB_TAXONOMY_HATCHET, false);
	va_list ap;
	va_start(ap, fmt);
	tx_emitv(t, HV_R_HPCTKDB_TAXONOMY_HATCHET, at, path, fmt, ap);
	va_end(ap);
}

/* The key node of `k` in map m (own keys), else m: a place in the text
 * where an alias's target would point elsewhere. */
static uint32_t key_node(const tx *t, uint32_t m, const char *k)
{
	const yd_node *x = yd_at(&t->d, m);
	for (uint32_t i = 0; x && x->kind == YD_MAP && i + 1 < x->n; i += 2)
		if (yd_is(&t->d, t->d.edge[x->first + i], k)) return t->d.edge[x->first + i];
	return m;
}

/* Roots by name (then index), so a name is found in log time: the last
 * root of a name wins, as in hatchet's dict. */
typedef struct rname {
	const char *s;
	uint32_t len, i;
} rname;

static int cmp_name(const char *a, size_t al, const char *b, size_t bl)
{
	int c = memcmp(a, b, al < bl ? al : bl);
	return c ? c : al < bl ? -1 : al > bl;
}

static int cmp_rname(const void *pa, const void *pb)
{
	const rname *a = pa, *b = pb;
	int c = cmp_name(a->s, a->len, b->s, b->len);
	return c ? c : a->i < b->i ? -1 : a->i > b->i;
}

static int find_root(const rname *ix, uint32_t n, const char *name)
{
	size_t len = strlen(name);
	uint32_t lo = 0, hi = n; /* first entry whose name is greater */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (cmp_name(ix[mid].s, ix[mid].len, name, len) <= 0) lo = mid + 1;
		else hi = mid;
	}
	return lo > 0 && cmp_name(ix[lo - 1].s, ix[lo - 1].len, name, len) == 0 ? (int)ix[lo - 1].i : -1;
}

/* The column of each propMetricId as hatchet's CCTReader picks it: the
 * metric's root by name, then the scope's name compared with the root's
 * inclusive standard scope first, then its exclusive one; any other scope
 * of the metric lands in the exclusive one's column. */
static void hatchet_roles(tx *t, const hroot *hr, const rname *ix, uint32_t nix)
{
	const hpctk_vmodel *vm = t->vm;
	uint8_t *role = hv_calloc(vm->npid ? vm->npid : 1, 1);
	int *root_of = hv_malloc((vm->nmetrics ? vm->nmetrics : 1) * sizeof *root_of);
	if (!role || !root_of) {
		free(role);
		free(root_of);
		return;
	}
	for (uint32_t k = 0; k < vm->nmetrics; k++) root_of[k] = find_root(ix, nix, vm->pool + vm->metric_name[k]);
	for (uint32_t p = 0; p < vm->npid; p++) {
		if (vm->kind[p] == HPCTK_VP_NONE || vm->kind[p] == HPCTK_VP_AMBIGUOUS || vm->metric_of[p] >= vm->nmetrics) continue;
		int ri = root_of[vm->metric_of[p]];
		if (ri < 0 || hr[ri].why) continue;
		const char *sc = vm->pool + vm->scope_name[p];
		const yd_node *in = yd_at(&t->d, hr[ri].scope[0]), *ex = yd_at(&t->d, hr[ri].scope[1]);
		bool is_in = in && yd_type(&t->d, hr[ri].scope[0]) == YD_T_STR && in->len == strlen(sc) &&
			     memcmp(yd_str(&t->d, in), sc, in->len) == 0;
		bool is_ex = ex && yd_type(&t->d, hr[ri].scope[1]) == YD_T_STR && ex->len == strlen(sc) &&
			     memcmp(yd_str(&t->d, ex), sc, ex->len) == 0;
		role[p] = is_in ? HPCTK_HATCHET_INC : is_ex ? HPCTK_HATCHET_EXC : HPCTK_HATCHET_OTHER;
	}
	free(root_of);
	*t->hatchet_role = role;
}

void tx_hatchet(tx *t, uint32_t roots)
{
	yd_doc *d = &t->d;
	const yd_node *rx = &d->node[roots];
	char path[HV_PATH_MAX], buf[64];
	const char *bn = tx_base_name(t->file);
	hroot *hr = hv_calloc(rx->n ? rx->n : 1, sizeof *hr);
	rname *ix = NULL;
	uint32_t nix = 0;
	if (!hr) return;
	/* DefaultReader: every root, in order */
	for (uint32_t i = 0; i < rx->n; i++) {
		uint32_t m = d->edge[rx->first + i];
		hroot *h = &hr[i];
		h->node = m;
		h->name = yd_get(d, m, "name");
		h->at = m;
		tx_pathf(path, sizeof path, "%s/roots[%u]", bn, i);
		if (yd_type(d, h->name) != YD_T_STR) {
			h->name = YD_NONE; /* hpctkdb.taxonomy.metric */
			continue;
		}
		uint32_t vars, v = YD_NONE, render, formula;
		const char *ex = py_index(t, m, "variants", &vars);
		if (ex) {
			hatchet_note(t, m, path, "hatchet 1.4.0's v4 reader fails on root %s: %s (it reads variants: of every root)",
				     tx_text(t, h->name, buf, sizeof buf), ex);
			goto out;
		}
		const char *label = "Sum";
		if (yd_type(d, vars) == YD_T_MAP) {
			v = yd_get(d, vars, "Sum");
			if (v == YD_NONE) v = yd_get(d, vars, ""), label = "";
		}
		if (v == YD_NONE) {
			h->why = "it has no variant named Sum (nor one named \"\"), the only ones hatchet reads";
			continue;
		}
		tx_pathf(path, sizeof path, "%s/roots[%u]/variants/%s", bn, i, label);
		if ((ex = py_index(t, v, "render", &render))) {
			hatchet_note(t, v, path, "hatchet 1.4.0's v4 reader fails on root %s: %s (it reads the %s variant's render:)",
				     tx_text(t, h->name, buf, sizeof buf), ex, *label ? label : "\"\"");
			goto out;
		}
		if (!py_in(t, render, "percent")) {
			h->at = key_node(t, v, "render");
			h->why = py_in(t, render, "percentage")
					 ? "its render: says percentage, not percent, the word hatchet looks for (hpcviewer 2025.01 ignores it too)"
					 : "its render: has no percent, without which hatchet reads no formula of the variant";
			continue;
		}
		if ((ex = py_index(t, v, "formula", &formula))) {
			hatchet_note(t, v, path, "hatchet 1.4.0's v4 reader fails on root %s: %s", tx_text(t, h->name, buf, sizeof buf), ex);
			goto out;
		}
		bool got[2] = {false, false};
		static const char *const sides[2] = {"inclusive", "exclusive"};
		for (int s = 0; s < 2; s++) {
			if (!py_in(t, formula, sides[s])) continue;
			uint32_t side = YD_NONE, std = YD_NONE, scope = YD_NONE;
			char sp[HV_PATH_MAX];
			tx_pathf(sp, sizeof sp, "%s/formula/%s", path, sides[s]);
			if (yd_type(d, formula) != YD_T_MAP) break; /* 'inclusive' as text: hpctkdb.taxonomy.variant */
			side = yd_get(d, formula, sides[s]);
			if ((ex = py_index(t, side, "standard", &std)) || (ex = py_index(t, std, "scope", &scope))) {
				bool expr = std != YD_NONE && yd_type(d, std) == YD_T_MAP;
				hatchet_note(t, std != YD_NONE && !d->node[side].input ? key_node(t, side, "standard") : key_node(t, formula, sides[s]), sp,
					     "hatchet 1.4.0's v4 reader fails on root %s with %s: it reads %s.standard.scope, so "
					     "standard: must be one input%s",
					     tx_text(t, h->name, buf, sizeof buf), ex, sides[s],
					     std == YD_NONE ? " (this formula has no standard:)"
					     : expr	    ? " (this one is an expression, as hpcprof writes for derived metrics)"
							    : "");
				goto out;
			}
			got[s] = true;
			h->scope[s] = scope;
		}
		if (!got[0] || !got[1]) {
			h->at = key_node(t, v, "formula");
			h->missing_inc = !got[0] && got[1];
			h->why = got[0] ? "its formula: has no exclusive:" : got[1] ? "its formula: has no inclusive:" : "its formula: has neither inclusive: nor exclusive:";
		}
	}
	/* CCTReader: every metric of meta.db, by name (without meta.db: the
	 * metrics the inputs name) */
	ix = hv_malloc((rx->n ? rx->n : 1) * sizeof *ix);
	if (!ix) goto out;
	for (uint32_t i = 0; i < rx->n; i++)
		if (hr[i].name != YD_NONE) ix[nix++] = (rname){yd_str(d, &d->node[hr[i].name]), d->node[hr[i].name].len, i};
	qsort(ix, nix, sizeof *ix, cmp_rname);
	uint32_t nm = t->vm ? t->vm->nmetrics : t->nin;
	for (uint32_t k = 0; k < nm; k++) {
		const char *name;
		if (t->vm) name = t->vm->pool + t->vm->metric_name[k];
		else {
			if (!t->in[k].ok) continue;
			name = t->in[k].metric;
		}
		int ri = find_root(ix, nix, name);
		if (ri >= 0 && hr[ri].why) {
			tx_pathf(path, sizeof path, "%s/roots[%d]", bn, ri);
			hatchet_note(t, hr[ri].at, path,
				     "root '%s' names meta.db's metric but %s: hatchet 1.4.0's v4 reader records no inclusive and "
				     "exclusive scope for it and fails with KeyError: '%s' when it reads the metric's values",
				     name, hr[ri].why, hr[ri].missing_inc ? "inclusive" : "exclusive");
			goto out;
		}
	}
	/* a metric presented under another name (else, presented by nothing,
	 * it is hpctkdb.taxonomy.unpresented) */
	for (uint32_t j = 0; j < t->nin; j++) {
		const tx_input *in = &t->in[j];
		if (!in->ok || in->used_by == YD_NONE || find_root(ix, nix, in->metric) >= 0) continue;
		uint32_t by = yd_get(d, in->used_by, "name");
		bool is_root = false;
		for (uint32_t i = 0; i < rx->n && !is_root; i++) is_root = d->edge[rx->first + i] == in->used_by;
		tx_pathf(path, sizeof path, "%s/inputs/%s", bn, in->metric);
		bool cpu = strcmp(in->metric, "CPUTIME (sec)") == 0;
		hatchet_note(t, key_node(t, in->used_by, "name"), path,
			     "meta.db's metric '%s' is presented by the %s %s, and no root is named '%s': hatchet 1.4.0's v4 "
			     "reader keys metrics by roots[].name, %s",
			     in->metric, is_root ? "root" : "child metric (under children:)", tx_text(t, by, buf, sizeof buf),
			     in->metric,
			     cpu ? "and fails with ValueError: list.remove(x): x not in list (CPUTIME (sec) must be found)"
				 : "so any values of it, of every propagation scope, land in one column left out of its "
				   "metric lists (a silent misread)");
		goto out;
	}
	hv_eval(t->r, HV_R_HPCTKDB_TAXONOMY_HATCHET, true);
	if (t->hatchet_role && t->vm) hatchet_roles(t, hr, ix, nix);
out:
	free(ix);
	free(hr);
}
